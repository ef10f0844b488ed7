import { Icon } from "~/components/ui/icon";
import { Form, Link } from "react-router";
import { tablesQuerySchema } from "../../../../../contracts/dictionary";
import { DELETE_TABLE_PARAM, DeleteTableConfirmation } from "~/components/dictionary/delete-table-confirmation";
import { useConfirmParam } from "~/components/forms/confirm-card";
import { DictionaryTablesList } from "~/components/dictionary/dictionary-tables-list";
import { Button, buttonVariants } from "~/components/ui/button";
import { SearchField } from "~/components/ui/search-field";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { readFormData, unknownIntent } from "~/lib/forms.server";
import { afterGuard } from "~/lib/guards.server";
import { newestPendingReview } from "~/lib/api/dictionary-tables.server";
import { projectCalls, projectScope, requireWorkspace } from "../../workspace.server";
import { deleteTableFrom, describeTableFrom, isUpload, pendingReviewLinkOf, projectDictionary } from "./dictionary.server";
import { SampleTableForm } from "~/components/dictionary/sample-table-form";
import { PendingReviewNotice } from "~/components/dictionary/pending-review-notice";
import { DataLossConfirmation } from "~/components/dictionary/data-loss-confirmation";
import type { Route } from "./+types/tables";

const PAGE_SIZE = 25;

/** The name filter and the page, in the URL; values it cannot read fall back to the defaults. */
function readQuery(url: URL) {
  const parsed = tablesQuerySchema.safeParse({
    name: url.searchParams.get("name") ?? undefined,
    page: url.searchParams.get("page") ?? undefined,
    pageSize: PAGE_SIZE,
  });
  const query = parsed.success ? parsed.data : tablesQuerySchema.parse({ pageSize: PAGE_SIZE });
  return { ...query, name: query.name || undefined };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query = readQuery(url);
  // Started beside the workspace's own load (one round trip); used only once its guard passed.
  const calls = projectCalls(context);
  const [scope, [page, newest, dictionary]] = await afterGuard(
    projectScope(context),
    Promise.all([calls.dictionary.tables(query), newestPendingReview(calls.dictionary), projectDictionary(context)]),
  );
  const { project, access, companyId } = scope;
  const canEdit = access.canWrite && !project.isLocked;
  const pending = canEdit ? pendingReviewLinkOf(scope, newest) : null;
  const deleting = canEdit ? (page.items.find((t) => t.id === url.searchParams.get(DELETE_TABLE_PARAM)) ?? null) : null;
  return { projectId: project.id, companyId, version: dictionary.version, query, page, canEdit, deleting, pending };
}

// After a refused deletion (409: the dictionary changed meanwhile), the list and the version the confirmation sends are read again.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/forms";

export async function action({ request, context }: Route.ActionArgs) {
  const scope = await projectScope(context);
  const { project, companyId, api, paths } = scope;
  const here = paths.dictionary.tables(project.id);
  await requireWorkspace(context, { write: here, unlocked: true });
  if (isUpload(request) && paths.ws.kind === "translation") return describeTableFrom(request, scope);
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  if (intent !== "delete-table") return unknownIntent(intent);
  return deleteTableFrom(formData, api.dictionary, companyHref(here, companyId));
}

export const handle = { breadcrumb: "Tables" };

export default function ProjectTables({ loaderData, actionData }: Route.ComponentProps) {
  const { projectId, companyId, version, query, page, canEdit, deleting, pending } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const here = paths.dictionary.tables(projectId);
  const pages = Math.max(1, Math.ceil(page.total / page.pageSize));
  const at = (n: number) => href(here, { name: query.name, page: n > 1 ? n : undefined });
  const confirm = useConfirmParam(DELETE_TABLE_PARAM);

  return (
    <div className="flex flex-col gap-4">
      <DataLossConfirmation actionData={actionData} />
      {pending ? <PendingReviewNotice review={pending.review} to={pending.to} /> : null}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold">Tables</h2>
        {canEdit ? (
          <div className="flex gap-2">
            <Link to={href(paths.dictionary.newTable(projectId))} className={buttonVariants()}>
              <Icon name="plus" />
              Add table
            </Link>
          </div>
        ) : null}
      </div>

      <Form method="get" role="search" aria-label="Find tables" className="flex flex-wrap items-end gap-3">
        {companyId ? <input type="hidden" name="companyId" value={companyId} /> : null}
        <SearchField id="table-search" label="Search tables" value={query.name ?? ""} maxLength={128} />
        <Button type="submit" variant="outline">
          Search
        </Button>
      </Form>

      <DeleteTableConfirmation table={deleting} version={version} cancelHref={confirm.cancelHref} lastResult={actionData?.result} />

      <DictionaryTablesList
        tables={page.items}
        label={`Tables of the ${paths.ws.noun}`}
        tableHref={(tableId) => paths.dictionary.table(projectId, tableId)}
        mapHref={paths.ws.kind === "translation" ? (tableId) => paths.valueMaps.table(projectId, tableId) : undefined}
        deleteHref={canEdit ? confirm.openHref : undefined}
        emptyMessage={query.name ? "No table matches this search." : `The ${paths.ws.noun}'s ${paths.ws.dictionaryLabel.toLowerCase()} has no tables yet.`}
      />

      {canEdit && paths.ws.kind === "translation" ? <SampleTableForm lastResult={actionData && "result" in actionData ? actionData.result : undefined} /> : null}

      {page.total > page.pageSize ? (
        <nav aria-label="Pagination" className="flex flex-wrap items-center justify-between gap-3 text-sm">
          <p>
            Page {page.page} of {pages} · {page.total} tables
          </p>{" "}
          <div className="flex gap-2">
            {page.page > 1 ? (
              <Link to={at(page.page - 1)} rel="prev" className={buttonVariants({ variant: "outline", size: "sm" })}>
                Previous
              </Link>
            ) : null}{" "}
            {page.page < pages ? (
              <Link to={at(page.page + 1)} rel="next" className={buttonVariants({ variant: "outline", size: "sm" })}>
                Next
              </Link>
            ) : null}
          </div>
        </nav>
      ) : null}
    </div>
  );
}
