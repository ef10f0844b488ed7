import { Outlet, type UIMatch } from "react-router";
import { BelowHeading } from "~/components/layout/heading-level";
import { templatePathsOf, useTemplatePaths } from "./paths";
import { loadTemplate, templateOf } from "./templates.server";
import { TemplateStatusBadge } from "./template-status-badge";
import type { Route } from "./+types/template-layout";

/** One template (`{templateId}/edit` and the script pages below it): its middleware loads it once for them all. */
export const middleware: Route.MiddlewareFunction[] = [loadTemplate];

// After a refusal (409: someone changed the template meanwhile), the header shows it as it is now, as a page without JavaScript does.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

export async function loader({ context }: Route.LoaderArgs) {
  const { template } = await templateOf(context);
  const { levels: _levels, ...summary } = template;
  return { template: summary };
}

type LoaderData = Awaited<ReturnType<typeof loader>>;

export const handle = {
  breadcrumb: (match: UIMatch) => (match.loaderData as LoaderData | undefined)?.template.name,
  /** A template belongs to one company: switching goes to the list of the same area. */
  companySwitchTo: (pathname: string) => templatePathsOf(pathname).list,
};

export default function TemplateLayout({ loaderData }: Route.ComponentProps) {
  const { template } = loaderData;
  // A workspace's template sits under the workspace's own h1 (its name, over its tabs).
  const Title = useTemplatePaths().owner.kind === "master" ? "h1" : "h2";
  return (
    <section aria-labelledby="template-title" className="flex flex-col gap-6">
      <div>
        <div className="flex flex-wrap items-center gap-3">
          <Title id="template-title" className="text-2xl font-semibold tracking-tight">
            {template.name}
          </Title>
          <TemplateStatusBadge status={template.status} />
        </div>
        <p className="mt-1 text-sm text-muted-foreground">
          {template.type} template · {template.levelCount} {template.levelCount === 1 ? "level" : "levels"}, {template.scriptCount}{" "}
          {template.scriptCount === 1 ? "script" : "scripts"} · version {template.version}
        </p>
      </div>
      <BelowHeading level={Title === "h1" ? 1 : 2}>
        <Outlet />
      </BelowHeading>
    </section>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
