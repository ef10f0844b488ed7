import { DEFAULT_PAGE_SIZE } from "../../../contracts/values/common";
import { data, Form, Link } from "react-router";
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS, auditWriteLabel } from "../../../contracts/values/sql-access";
import { FROM_AFTER_TO_MESSAGE, fromAfterTo } from "../../../contracts/sql-access";
import { control, ErrorList } from "~/components/forms/fields";
import { formatCountOf, formatTimestamp } from "~/components/projects/format";
import { buttonVariants } from "~/components/ui/button";
import { EmptyList, PagedList } from "~/components/ui/list-page";
import { SelectFilter } from "~/components/ui/select-filter";
import { DownloadLink } from "~/components/ui/download-link";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { sqlAccessApi } from "~/lib/api/sql-access.server";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { workspacePaths } from "~/lib/workspace-paths";
import { WORKSPACES } from "../../../contracts/workspaces";
import { workspaceOfProductType } from "../../../contracts/workspaces.server";
import { afterGuard, callerOf, shellOf } from "~/lib/guards.server";
import { auditFilters, unreadDays } from "./audit-filters";
import type { Route } from "./+types/audit-log";
import { KeptFields, PageSizeSelect } from "~/components/ui/list-search-form";

const PATH = "/additional-options/audit-log";

/**
 * The audit log (issue 13): who changed what, newest first, for every company (SuperAdmin and Support
 * only: the area's guard), filtered by company, user, action, dates and target through the URL, paged
 * in SQL by the data API, exported as CSV with the same filters.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const filters = auditFilters(params);
  // A date that is no real day is left out of the filters: said next to its field, a 400, the list shown without it.
  const daysUnread = unreadDays(params);
  if (fromAfterTo(filters)) {
    // Nothing could match: said next to the dates, a 400, the log not asked (the data API refuses it too).
    const shell = await shellOf(context);
    return data({ filters, log: null, datesRefused: FROM_AFTER_TO_MESSAGE, daysUnread, ...companiesOf(shell) }, { status: 400 });
  }
  const [shell, log] = await afterGuard(shellOf(context), sqlAccessApi(callerOf(context)).audit(filters));
  // Each entry's workspace with its kind, read here: the product types stay on the server (contracts/workspaces.server.ts).
  const items = log.items.map((entry) => ({
    ...entry,
    workspace: entry.workspace && { ...entry.workspace, kind: workspaceOfProductType(entry.workspace.productType)?.kind },
  }));
  const answer = { filters, log: { ...log, items }, datesRefused: null, daysUnread, ...companiesOf(shell) };
  return daysUnread.from || daysUnread.to ? data(answer, { status: 400 }) : answer;
}

function companiesOf(shell: Awaited<ReturnType<typeof shellOf>>) {
  return { companies: shell.companies.map((c) => ({ id: c.id, name: c.name })), companyId: shell.company?.id ?? null };
}

export const handle = { breadcrumb: "Audit Log" };

function summaryText(summary: Record<string, unknown>): string {
  return Object.entries(summary)
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => {
      if (v && typeof v === "object" && "before" in v && "after" in v)
        return `${k}: ${String((v as { before: unknown }).before)} → ${String((v as { after: unknown }).after)}`;
      return `${k}: ${typeof v === "object" ? JSON.stringify(v) : String(v)}`;
    })
    .join("; ");
}

/** A text filter whose hint says what it matches. */
function HintedFilter({ id, name, label, value, children }: { id: string; name: string; label: string; value: string | undefined; children: string }) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <input id={id} name={name} defaultValue={value ?? ""} aria-describedby={`${id}-hint`} className={control} />
      <p id={`${id}-hint`} className="mt-1 text-xs text-muted-foreground">
        {children}
      </p>
    </div>
  );
}

/** A date filter, with what the page could not filter by said next to it (and focused: the first such field). */
function DateFilter({
  id,
  name,
  label,
  value,
  errors,
  focus,
}: {
  id: string;
  name: string;
  label: string;
  value: string | undefined;
  errors: string[];
  focus: boolean;
}) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        type="date"
        name={name}
        defaultValue={value ?? ""}
        aria-invalid={errors.length ? true : undefined}
        aria-describedby={errors.length ? `${id}-error` : undefined}
        className={control}
      />
      <ErrorList id={`${id}-error`} errors={errors} focus={focus} />
    </div>
  );
}

type Entry = NonNullable<Route.ComponentProps["loaderData"]["log"]>["items"][number];

/** The page of the run or load an entry started, in the entry's company: which scripts and versions ran, which rows came. */
function WorkAbout({ entry }: { entry: Entry }) {
  const ws = entry.workspace?.kind && WORKSPACES[entry.workspace.kind];
  if (!entry.workspace || !ws) return null;
  const { runId, loadId } = entry.summary;
  const page = workspacePaths(ws).page;
  const [label, path] =
    typeof runId === "string"
      ? ["Run details", page(entry.workspace.id, `templates/run-history/${encodeURIComponent(runId)}/details`)]
      : typeof loadId === "string"
        ? ["Load details", workspacePaths(ws).databases.entry(entry.workspace.id, loadId)]
        : [null, null];
  if (!label) return null;
  return (
    <Link to={companyHref(path, entry.companyId)} className="mt-1 block text-brand hover:underline">
      {label}
    </Link>
  );
}

/** The project an entry is about, by name, linked to its page in its company; "(deleted)" once it is gone. */
function WorkspaceCell({ entry }: { entry: Entry }) {
  if (!entry.workspaceId) return null;
  const ws = entry.workspace?.kind && WORKSPACES[entry.workspace.kind];
  if (!entry.workspace || !ws) return <span className="text-muted-foreground">(deleted)</span>;
  return (
    <Link to={companyHref(workspacePaths(ws).page(entry.workspace.id), entry.companyId)} className="text-brand hover:underline">
      {entry.workspace.name}
      {ws.kind === "migration" ? null : <span className="text-muted-foreground"> ({ws.noun})</span>}
    </Link>
  );
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { filters, log, companies, datesRefused, daysUnread } = loaderData;
  const fromErrors = [datesRefused, daysUnread.from].filter((e) => e !== null);
  const href = useCompanyHref();
  const { page: _page, pageSize, ...chosen } = filters;
  const filtered = Object.values(chosen).some(Boolean);
  const query = {
    company: filters.companyId,
    project: filters.workspace,
    who: filters.who,
    action: filters.action,
    from: filters.from,
    to: filters.to,
    contains: filters.contains,
  };
  const withPageSize = { ...query, pageSize: pageSize === DEFAULT_PAGE_SIZE ? undefined : pageSize };
  const companyName = new Map(companies.map((c) => [c.id, c.name]));

  return (
    <section aria-labelledby="page-title" className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 id="page-title" className="text-2xl font-semibold tracking-tight">
            Audit Log
          </h1>
          <p className="mt-1 max-w-3xl text-sm text-muted-foreground">
            Every change made through the data API, with who made it and when: SQL access, webhooks, force-unlocks, restores, undos and cancels with what
            changed and why; loads, runs, backups and the changes of templates and scripts in words; every other change by its route. Entries are kept for{" "}
            {log ? `${formatCountOf(log.retentionDays, "day")} and never changed.` : "a set number of days and never changed."}
          </p>
        </div>
        {/* Offered for the filters the list shows: a date refused above would be refused by the export too. */}
        {fromErrors.length || daysUnread.to ? null : (
          <DownloadLink to={href(`${PATH}.csv`, query)} className={buttonVariants({ variant: "outline" })}>
            Export CSV
          </DownloadLink>
        )}
      </div>

      <Form method="get" action={PATH} aria-label="Filter the audit log" className="rounded-lg border border-border bg-white p-4">
        <KeptFields keep={{}} />
        <div className="grid gap-4 sm:grid-cols-3">
          <SelectFilter
            id="audit-company"
            label="Company"
            name="company"
            value={filters.companyId ?? ""}
            options={[["", "Every company"], ...companies.map((c) => [c.id, c.name] as const)]}
            className="w-full shadow-xs"
          />
          <HintedFilter id="audit-project" name="project" label="Project" value={filters.workspace}>
            A project, configuration or mapping project: its name, or part of it, or its id.
          </HintedFilter>
          <HintedFilter id="audit-user" name="who" label="Who" value={filters.who}>
            A name, or part of one, or a user id.
          </HintedFilter>
          <SelectFilter
            id="audit-action"
            label="Action"
            name="action"
            value={filters.action ?? ""}
            options={[["", "Any action"], ...AUDIT_ACTIONS.map((a) => [a, AUDIT_ACTION_LABELS[a]] as const)]}
            className="w-full shadow-xs"
          />
          <DateFilter id="audit-from" name="from" label="From" value={filters.from} errors={fromErrors} focus />
          <DateFilter id="audit-to" name="to" label="To" value={filters.to} errors={daysUnread.to ? [daysUnread.to] : []} focus={!fromErrors.length} />
          <div>
            <label htmlFor="audit-contains" className="mb-1 block text-sm font-medium">
              Target or change contains
            </label>
            <input id="audit-contains" type="search" name="contains" defaultValue={filters.contains ?? ""} className={control} />
          </div>
        </div>
        <div className="mt-4 flex flex-wrap items-end gap-4">
          <PageSizeSelect id="audit-page-size" value={pageSize} />
          <button type="submit" className={buttonVariants()}>
            Filter
          </button>
          {filtered ? (
            <Link to={href(PATH)} className="text-sm text-brand hover:underline">
              Clear filters
            </Link>
          ) : null}
        </div>
      </Form>

      {log ? (
        <PagedList
          list={log}
          empty={
            <EmptyList title={filtered ? "No matching entries" : "Nothing audited yet"}>
              {filtered ? "No entry matches these filters." : "Changes made through the data API are listed here."}
            </EmptyList>
          }
          noun={["entry", "entries"]}
          href={(page) => href(PATH, { ...withPageSize, page })}
        >
          <Table aria-label="Audit entries">
            <TableHeader>
              <TableRow>
                <TableHead>When</TableHead>
                <TableHead>Company</TableHead>
                <TableHead>Project</TableHead>
                <TableHead>Who</TableHead>
                <TableHead>Action</TableHead>
                <TableHead>Target</TableHead>
                <TableHead>Changes</TableHead>
                <TableHead>Reason</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {log.items.map((e) => (
                <TableRow key={e.id}>
                  <TableCell className="whitespace-nowrap">
                    <time dateTime={e.at}>{formatTimestamp(e.at)}</time>
                  </TableCell>
                  <TableCell>{e.companyId ? (companyName.get(e.companyId) ?? e.companyId) : ""}</TableCell>
                  <TableCell>
                    <WorkspaceCell entry={e} />
                  </TableCell>
                  <TableCell>{e.userName ?? e.userId}</TableCell>
                  <TableCell>{(e.action === "api.write" && auditWriteLabel(e.target)) || AUDIT_ACTION_LABELS[e.action]}</TableCell>
                  <TableCell>
                    {e.target}
                    <WorkAbout entry={e} />
                  </TableCell>
                  <TableCell className="max-w-md text-xs break-words">{summaryText(e.summary)}</TableCell>
                  <TableCell>{e.reason ?? ""}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </PagedList>
      ) : null}
    </section>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
