import { Outlet, type UIMatch } from "react-router";
import { wizardTitle, workspaceOfPath } from "~/lib/workspace-paths";
import { BelowHeading } from "~/components/layout/heading-level";
import { ProjectStatusBadge } from "~/components/projects/project-status-badge";
import { PROJECT_STATUS_LABELS } from "../../../../contracts/values/projects";
import { projectMiddleware, projectScope } from "../workspace.server";
import type { Route } from "./+types/layout";

/** Wizard steps 2 and 3 of one project: the project is loaded once, for every loader and action below. */
export const middleware: Route.MiddlewareFunction[] = [projectMiddleware];

export async function loader({ context }: Route.LoaderArgs) {
  const { project, ws } = await projectScope(context);
  // The status's label is read here: the page's code then carries no table of every status (issue 8's initial JS bar).
  return { project: { id: project.id, name: project.name, status: project.status, statusLabel: PROJECT_STATUS_LABELS[project.status] }, noun: ws.noun };
}

export const handle = {
  breadcrumb: (match: UIMatch<unknown, unknown>) => (match.loaderData as Route.ComponentProps["loaderData"] | undefined)?.project.name,
  companySwitchTo: (pathname: string) => workspaceOfPath(pathname).routeBase,
  /** Steps 2 and on (their routes have no title of their own): the step is the path's last segment. */
  title: (match: UIMatch<unknown, unknown>, pathname: string) => {
    const loaderData = match.loaderData as Route.ComponentProps["loaderData"] | undefined;
    const step = pathname.replace(/\/$/, "").split("/").at(-1);
    return wizardTitle(pathname, step, `Set up ${loaderData?.project.name ?? loaderData?.noun ?? "project"}`);
  },
};

export default function WizardLayout({ loaderData }: Route.ComponentProps) {
  const { project } = loaderData;
  return (
    <section aria-labelledby="page-title">
      <div className="flex flex-wrap items-center gap-3">
        <h1 id="page-title" className="text-2xl font-semibold tracking-tight">
          Set up {project.name}
        </h1>
        <ProjectStatusBadge status={project.status} label={project.statusLabel} />
      </div>
      <BelowHeading level={1}>
        <Outlet />
      </BelowHeading>
    </section>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
