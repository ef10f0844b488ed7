import { Form, Link, useLocation } from "react-router";
import { BackupsTable } from "~/components/backups/backups-table";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { Card } from "~/components/ui/card";
import { TablesTable, tableRowsParams } from "~/components/databases/tables-table";
import { afterGuard } from "~/lib/guards.server";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { readFormData, serviceFailure, unknownIntent } from "~/lib/forms.server";
import { useWorkspacePaths, workspaceKindOf } from "~/lib/workspace-paths";
import { checkWorkspace, projectCalls, projectScope } from "../workspace.server";
import type { Route } from "./+types/databases-current";

/** When each kind's databases are made: a configuration's dictionary step; a project's databases step. */
const NOT_CREATED = {
  migration: "Not created yet: the databases are created at the setup step “Databases”.",
  onboarding: "Not created yet: the databases are created when the data dictionary step is completed.",
  translation: "A mapping project has no databases.",
} as const;

/** databases/current: the workspace's source and destination databases as they exist so far (DOMAIN.md). */
export async function loader({ context }: Route.LoaderArgs) {
  // Asked beside the workspace's own load; answered once its guard passed.
  const calls = projectCalls(context);
  const [{ project, access }, [databases, backups]] = await afterGuard(
    projectScope(context),
    Promise.all([calls.databases({ pageSize: FIRST_TABLES }), calls.backups.list({ page: 1, pageSize: RECENT_BACKUPS })]),
  );
  const created = databases.databases.some((d) => d.kind === "source" && d.exists);
  return {
    ...databases,
    projectId: project.id,
    created,
    canLoad: created && access.canWrite && !project.isLocked,
    currentBackupName: project.currentBackupName,
    backups,
  };
}

/** The tables each database lists first, by name; databases/tables lists them all, a page at a time. */
const FIRST_TABLES = 25;
/** The backups the page lists; the restore page lists them all. */
const RECENT_BACKUPS = 10;
const BACK_UP = "back-up";

/** "Back up now": a job; the page of its history entry follows it. */
export async function action({ request, context }: Route.ActionArgs) {
  const scope = await projectScope(context);
  const { project, api, companyId, paths } = await checkWorkspace(scope, { write: scope.paths.databases.current(scope.project.id), unlocked: true });
  const intent = (await readFormData(request)).get("intent");
  if (intent !== BACK_UP) unknownIntent(intent);
  try {
    const { entry } = await api.backups.create();
    return redirectWithFlash(companyHref(paths.databases.entry(project.id, entry.id), companyId), "Backing up the source and destination databases.");
  } catch (err) {
    const failure = serviceFailure(err);
    if (failure && failure.status === 409)
      return redirectWithFlash(companyHref(paths.databases.current(project.id), companyId), {
        kind: "error",
        text: failure.body.errors[0] ?? "The backup could not start.",
      });
    throw err;
  }
}

export const handle = { breadcrumb: "Databases" };

export default function CurrentDatabases({ loaderData }: Route.ComponentProps) {
  const kind = workspaceKindOf(useLocation().pathname);
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const pending = useIsPending();
  const { projectId, backups } = loaderData;
  return (
    <div className="space-y-6">
      {loaderData.created ? (
        <p className="flex flex-wrap gap-4 text-sm">
          {loaderData.canLoad ? (
            <Link to={href(paths.databases.load(loaderData.projectId))} className="font-medium text-brand underline underline-offset-2">
              Load a flat file
            </Link>
          ) : null}{" "}
          <Link to={href(paths.databases.history(loaderData.projectId))} className="text-brand underline underline-offset-2">
            History
          </Link>{" "}
          <Link to={href(paths.databases.tables(loaderData.projectId))} className="text-brand underline underline-offset-2">
            Tables and their rows
          </Link>{" "}
          {loaderData.canLoad ? (
            <Link to={href(paths.databases.restore(projectId))} className="text-brand underline underline-offset-2">
              Restore a backup
            </Link>
          ) : null}{" "}
          {loaderData.canLoad && kind === "onboarding" ? (
            <Link to={href(paths.databases.compare(projectId))} className="text-brand underline underline-offset-2">
              Compare an earlier delivery
            </Link>
          ) : null}
        </p>
      ) : null}
      {loaderData.databases.map((db) => (
        <Card key={db.kind} aria-labelledby={`${db.kind}-title`}>
          <h2 id={`${db.kind}-title`} className="text-lg font-semibold">
            {db.name}
          </h2>
          {!db.exists ? (
            <p className="mt-2 text-sm text-muted-foreground">{NOT_CREATED[kind]}</p>
          ) : db.tables.length === 0 ? (
            <p className="mt-2 text-sm text-muted-foreground">It has no tables.</p>
          ) : (
            <div className="mt-4">
              <TablesTable
                label={`Tables of the ${db.name.toLowerCase()}`}
                database={db.kind}
                tables={db.tables}
                name={(t) => (
                  <Link to={href(paths.dictionary.sourceData(projectId), tableRowsParams(db.kind, t.name))} className="row-link">
                    {t.name}
                  </Link>
                )}
              />
              {db.tableCount > db.tables.length ? (
                <p className="mt-2 text-sm">
                  <Link
                    to={href(paths.databases.tables(projectId), db.kind === "source" ? {} : { database: db.kind })}
                    className="text-brand underline underline-offset-2"
                  >
                    All {db.tableCount.toLocaleString("en-US")} tables of the {db.name.toLowerCase()}
                  </Link>
                </p>
              ) : null}
            </div>
          )}
        </Card>
      ))}
      {loaderData.created ? (
        <Card aria-labelledby="backups-title">
          <h2 id="backups-title" className="text-lg font-semibold">
            Backups
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">
            A backup holds both databases as they are at one moment. Every load and restore takes one first, so it can be undone.
            {loaderData.currentBackupName ? ` Current backup: ${loaderData.currentBackupName}.` : ""}
          </p>
          {loaderData.canLoad ? (
            <Form method="post" className="mt-3">
              <input type="hidden" name="intent" value={BACK_UP} />
              <StatusButton type="submit" pending={pending}>
                Back up now
              </StatusButton>
            </Form>
          ) : null}
          {backups.items.length ? (
            <div className="mt-4">
              <BackupsTable projectId={projectId} backups={backups.items} />
              {backups.total > backups.items.length ? (
                <p className="mt-2 text-sm">
                  <Link to={href(paths.databases.restore(projectId))} className="text-brand underline underline-offset-2">
                    All {backups.total} backups
                  </Link>
                </p>
              ) : null}
            </div>
          ) : (
            <p className="mt-3 text-sm text-muted-foreground">No backup yet.</p>
          )}
        </Card>
      ) : null}
    </div>
  );
}
