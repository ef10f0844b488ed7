import { Icon } from "~/components/ui/icon";
import { Link, Outlet, useLocation, type UIMatch } from "react-router";
import { LOCK_REASON_LABELS, PROJECT_STATUS_LABELS, SOURCE_TYPE_LABELS } from "../../../../contracts/values/projects";
import { BelowHeading } from "~/components/layout/heading-level";
import { ProjectStatusBadge } from "~/components/projects/project-status-badge";
import { LoadSourceLink } from "~/components/projects/load-source-link";
import { useLiveLock } from "~/components/projects/live-lock";
import { useCompanyHref } from "~/lib/company-href";
import { cn } from "~/lib/utils";
import { useWorkspacePaths, workspaceOfPath } from "~/lib/workspace-paths";
import type { WorkspaceDescriptor } from "../../../../contracts/workspaces";
import { capitalised } from "../../../../contracts/values/common";
import { projectMiddleware, projectScope } from "../workspace.server";
import type { Route } from "./+types/layout";

/** {routeBase}/{id}/…: the workspace and the caller's access, loaded once for every page below. */
export const middleware: Route.MiddlewareFunction[] = [projectMiddleware];

export async function loader({ context }: Route.LoaderArgs) {
  const { project, access } = await projectScope(context);
  return {
    // The labels are read here, not in the page: its code then carries no table of every status, source
    // type and lock reason (issue 8's initial JS bar).
    project: {
      id: project.id,
      name: project.name,
      status: project.status,
      statusLabel: PROJECT_STATUS_LABELS[project.status],
      applicationName: project.applicationName,
      sourceType: project.sourceType,
      /** What it loads its data from: its schemes (an onboarding configuration), else its source type. */
      source: project.schemes ? project.schemes.map((s) => s.scheme.name).join(", ") : SOURCE_TYPE_LABELS[project.sourceType],
      isLocked: project.isLocked,
      lockReasonLabel: project.lockReason ? LOCK_REASON_LABELS[project.lockReason] : null,
      isDefault: project.isDefault ?? false,
    },
    access,
    readAt: Date.now(),
  };
}

type LoaderData = Route.ComponentProps["loaderData"];

export const handle = {
  breadcrumb: (match: UIMatch<unknown, unknown>) => (match.loaderData as LoaderData | undefined)?.project.name,
  companySwitchTo: (pathname: string) => workspaceOfPath(pathname).routeBase,
};

/**
 * The workspace's tabs: what its kind has (a mapping project: no databases, no access list, no jobs).
 * `to`: where the tab goes; `section`: the pages below it that it stays current on (a load, the history
 * and its entries are all "Databases").
 */
function tabsOf(ws: WorkspaceDescriptor): { to: string; label: string; section?: string }[] {
  const { databases, accessList } = ws.features;
  return [
    { to: "details", label: "Details" },
    { to: ws.dictionaryStep, label: ws.dictionaryLabel, section: ws.dictionaryStep },
    ...(databases ? [{ to: "databases/current", label: "Databases", section: "databases" }] : []),
    { to: "templates", label: "Templates", section: "templates" },
    ...(ws.kind === "translation" ? [{ to: "translate", label: "Translate a file", section: "translate" }] : []),
    ...(accessList ? [{ to: "users/project-access", label: "Project access" }] : []),
    ...(databases ? [{ to: "users/sql-permissions", label: "SQL permissions" }] : []),
    ...(databases ? [{ to: "background-process", label: "Background process" }] : []),
  ];
}

export default function ProjectLayout({ loaderData }: Route.ComponentProps) {
  const { project, access } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const setup = paths.resume(project, access.canWrite);
  // A workspace with jobs shows a colleague's lock as it is taken and ends, on whichever of its pages.
  const jobs = paths.ws.features.databases;
  const { lock, follower } = useLiveLock(project.id, { isLocked: project.isLocked, reason: project.lockReasonLabel, readAt: loaderData.readAt }, jobs);
  const backgroundProcess = paths.page(project.id, "background-process");
  const { pathname } = useLocation();
  const onBackgroundProcess = pathname === backgroundProcess;
  const isCurrent = (tab: { to: string; section?: string }) => {
    if (!tab.section) return pathname === paths.page(project.id, tab.to);
    const section = paths.page(project.id, tab.section);
    return pathname === section || pathname.startsWith(`${section}/`);
  };

  return (
    <section aria-labelledby="page-title">
      <div className="flex flex-wrap items-center gap-3">
        <h1 id="page-title" className="text-2xl font-semibold tracking-tight">
          {project.name}
        </h1>
        <ProjectStatusBadge status={project.status} label={project.statusLabel} />
      </div>
      <p className="mt-1 text-sm text-muted-foreground">
        {project.applicationName}
        {paths.ws.kind === "translation" ? "" : ` · ${project.source}`}
        {project.isDefault ? " · Default configuration" : ""}
      </p>
      {follower}
      {lock.isLocked ? (
        <p role="status" className="mt-3 flex flex-wrap items-center gap-2 rounded-md border border-amber-500/40 bg-amber-50 px-4 py-2 text-sm text-amber-900">
          <Icon name="lock" className="size-4" />
          Locked by {lock.reason ?? "a background process"}: changes wait until it ends.
          {jobs && !onBackgroundProcess ? (
            <Link to={href(backgroundProcess)} className="font-medium underline underline-offset-2">
              Follow it
            </Link>
          ) : null}
        </p>
      ) : project.status === "SetupRestoreDatabaseIncomplete" ? (
        // Before the unfinished setup's words: its setup resumes here, at this link to the load.
        // The load is an edit page: a reader's link would only bring them back here, refused.
        access.canWrite ? (
          <p className="mt-3 text-sm">
            The databases are created. Next, load the source data:{" "}
            <LoadSourceLink project={project} className="font-medium text-brand underline underline-offset-2" />
          </p>
        ) : (
          <p className="mt-3 text-sm">The databases are created: a user with write access loads the source data next.</p>
        )
      ) : setup.unfinished ? (
        setup.resumes ? (
          <p className="mt-3 text-sm">
            The {paths.ws.noun}'s setup is not finished.{" "}
            <Link to={href(setup.to)} className="font-medium text-brand underline underline-offset-2">
              Continue setup
            </Link>
          </p>
        ) : (
          <p className="mt-3 text-sm">The {paths.ws.noun}'s setup is not finished: a user with write access continues it.</p>
        )
      ) : null}
      <nav aria-label={capitalised(paths.ws.noun)} className="mt-4 border-b border-border">
        <ul className="-mb-px flex flex-wrap gap-1 text-sm">
          {tabsOf(paths.ws).map((tab) => {
            // Said as the current page, as it is shown: on every page of its section.
            const current = isCurrent(tab);
            return (
              <li key={tab.to}>
                <Link
                  to={href(paths.page(project.id, tab.to))}
                  aria-current={current ? "page" : undefined}
                  className={cn(
                    "inline-block border-b-2 px-3 py-2",
                    current ? "border-brand font-medium text-brand" : "border-transparent text-muted-foreground hover:text-slate-900",
                  )}
                >
                  {tab.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className="mt-6">
        <BelowHeading level={1}>
          <Outlet />
        </BelowHeading>
      </div>
    </section>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
