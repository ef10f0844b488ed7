import { NavLink, Outlet, useLocation, type UIMatch } from "react-router";
import { formatTimestamp } from "~/components/dictionary/column-format";
import { useCompanyHref } from "~/lib/company-href";
import { cn } from "~/lib/utils";
import { SCRIPT_TABS, useTemplatePaths } from "./paths";
import { loadScript, scriptOf } from "./templates.server";
import type { Route } from "./+types/script-layout";

/** One script (script/edit/{id} with its tabs, and script/view/{id}): its middleware loads it once for them. */
export const middleware: Route.MiddlewareFunction[] = [loadScript];

export async function loader({ context }: Route.LoaderArgs) {
  const { sql: _sql, ...script } = await scriptOf(context);
  // When it was saved in words here: the page's code need not carry the formats for it.
  return { script, saved: formatTimestamp(script.updatedAt) };
}

// A refused save or lock (409) reloads the script: the header says its version and lock as they are now.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

export const handle = {
  breadcrumb: (match: UIMatch) => (match.loaderData as Awaited<ReturnType<typeof loader>> | undefined)?.script.name,
};

export default function ScriptLayout({ loaderData }: Route.ComponentProps) {
  const { script, saved } = loaderData;
  const href = useCompanyHref();
  const paths = useTemplatePaths();
  const viewing = /\/script\/view\//.test(useLocation().pathname);
  return (
    <section aria-labelledby="script-title" className="flex flex-col gap-4">
      <div>
        <h2 id="script-title" className="text-xl font-semibold">
          Script {script.name}
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          Level {script.levelName}, script {script.order} · version {script.version}, saved <time dateTime={script.updatedAt}>{saved}</time>
          {script.updatedByName ? ` by ${script.updatedByName}` : null} ·{" "}
          {script.lockState === "Locked"
            ? `locked by ${script.lockedByName ?? "someone"}`
            : script.lockState === "ForceUnlocked"
              ? "force unlocked"
              : "unlocked"}
        </p>
      </div>
      {viewing ? null : (
        <nav aria-label="Script" className="flex flex-wrap gap-1 border-b border-border">
          {SCRIPT_TABS.map(({ tab, label }) => (
            <NavLink
              key={tab}
              to={href(paths.script(script.templateId, script.levelId, script.id, tab))}
              end
              className={({ isActive }) =>
                cn(
                  "-mb-px border-b-2 px-3 py-2 text-sm",
                  isActive ? "border-brand font-medium text-foreground" : "border-transparent text-muted-foreground hover:text-foreground",
                )
              }
            >
              {label}
            </NavLink>
          )).flatMap((tab, i) => (i ? [" ", tab] : [tab]))}
        </nav>
      )}
      <Outlet />
    </section>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
