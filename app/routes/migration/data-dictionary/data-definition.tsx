import { Icon } from "~/components/ui/icon";
import { Link } from "react-router";
import { ColumnsTable } from "~/components/dictionary/columns-table";
import { DELETE_TABLE_PARAM, DeleteTableConfirmation } from "~/components/dictionary/delete-table-confirmation";
import { useConfirmParam } from "~/components/forms/confirm-card";
import { DictionaryTablesList } from "~/components/dictionary/dictionary-tables-list";
import { dictionaryMessages } from "~/components/dictionary/messages";
import { PendingReviewNotice } from "~/components/dictionary/pending-review-notice";
import { deleteTableSchema } from "~/components/dictionary/schemas.server";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { invalid, parseForm, refusedByService } from "~/lib/forms.server";
import { deleteTable, getTablesPage } from "~/lib/api/dictionaries.server";
import { readPaging } from "~/lib/list-search.server";
import { Pagination, PastTheEnd } from "~/components/ui/pagination";
import { callerOf, shellOf } from "~/lib/guards.server";
import { dictionaryOf, dictionaryPathsOfRequest, masterDataAccess, pendingReviewLink, requireMasterDataWrite, tableOf } from "./dictionary.server";
import { dictionaryModeOf, useDictionaryPaths } from "./paths";
import type { Route } from "./+types/data-definition";


/** Tables per page of the view, each shown with its columns. */
const VIEW_PAGE_SIZE = 10;

/**
 * The dictionary's tables, a page at a time (?page=, ?pageSize=): edit/{id}/data-definition lists them
 * to open, add and delete; view/{id}/data-definition shows each table of the page with its columns, read-only.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  // An upload nobody applied or discarded: whoever may apply it finds it again here. Asked beside the
  // dictionary's own load, and waited for only when the user may apply it.
  const pendingLink = pendingReviewLink(callerOf(context), params.dataDictionaryId, "edit");
  pendingLink.catch(() => undefined);
  const url = new URL(request.url);
  const mode = dictionaryModeOf(url.pathname) === "edit" ? "edit" : "view";
  // A page of the tables, in order, read in SQL: a dictionary may hold thousands of tables. The view
  // shows each with its columns, ten at a time unless asked (some 160 KB for tables of 40 columns).
  const paging = readPaging(url.searchParams, ["order"], "order");
  const page = paging.page;
  const pageSize = mode === "view" && !url.searchParams.has("pageSize") ? VIEW_PAGE_SIZE : paging.pageSize;
  const as = callerOf(context);
  const deleteId = mode === "edit" ? url.searchParams.get(DELETE_TABLE_PARAM) : null;
  // Asked beside the dictionary's own load, and used only once it passed its guards; the view's with
  // each table's columns, in the same call (one round trip).
  const listing = getTablesPage(as, params.dataDictionaryId, { page, pageSize, columns: mode === "view" ? "all" : "none" });
  listing.catch(() => undefined);
  // A confirmation link of a table deleted meanwhile shows the list without it.
  const confirming = deleteId ? tableOf(as, params.dataDictionaryId, deleteId).catch(() => null) : null;
  const [dictionary, shell] = await Promise.all([dictionaryOf(context), shellOf(context)]);
  const [summaries, deleting] = await Promise.all([listing, confirming]);
  const tables = mode === "view" ? summaries.items.map(({ columnCount: _count, columns, ...t }) => ({ ...t, columns: columns ?? [] })) : [];
  const pending = masterDataAccess(shell).canWrite ? await pendingLink : null;
  return {
    mode,
    pending,
    id: dictionary.id,
    version: dictionary.version,
    tables,
    // The list's rows: the columns are in `tables`, sent once.
    summaries: { ...summaries, items: summaries.items.map(({ columns: _columns, ...t }) => t) },
    deleting: deleting && { id: deleting.id, name: deleting.name, columnCount: deleting.columns.length },
  };
}

// After a refused deletion (409: the dictionary changed meanwhile), the list and the version the confirmation sends are read again.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

export async function action({ request, context }: Route.ActionArgs) {
  const dictionary = await dictionaryOf(context);
  const paths = dictionaryPathsOfRequest(request);
  const { shell, companyId } = await requireMasterDataWrite(context, paths.definition("view", dictionary.id));
  const { submission } = await parseForm(request, deleteTableSchema);
  if (submission.status !== "success") return invalid(submission);
  // Its name for the message, read before it goes.
  const name = (await tableOf(shell, dictionary.id, submission.value.tableId).catch(() => null))?.name ?? "";
  try {
    await deleteTable(shell, dictionary.id, submission.value.tableId, submission.value.version);
  } catch (err) {
    // A stale version (409): said in the confirmation, nothing deleted.
    return refusedByService(submission, err);
  }
  return redirectWithFlash(companyHref(paths.definition("edit", dictionary.id), companyId), dictionaryMessages.tableDeleted(name));
}

export const handle = {
  // In edit mode the tables' own layout holds the "Data definition" breadcrumb.
  breadcrumb: (match: { pathname: string }) => (dictionaryModeOf(match.pathname) === "view" ? "Data definition" : null),
};

export default function DataDefinition({ loaderData, actionData }: Route.ComponentProps) {
  const { mode, id, version, tables, summaries, deleting, pending } = loaderData;
  const href = useCompanyHref();
  const paths = useDictionaryPaths();
  const confirm = useConfirmParam(DELETE_TABLE_PARAM);
  const pagination =
    summaries.total > 0 ? (
      <Pagination
        page={summaries.page}
        pageSize={summaries.pageSize}
        total={summaries.total}
        noun={["table", "tables"]}
        href={(page) => href(paths.definition(mode === "edit" ? "edit" : "view", id), { page, pageSize: summaries.pageSize })}
      />
    ) : null;
  const pastTheEnd = summaries.total > 0 && summaries.items.length === 0 ? <PastTheEnd page={summaries.page} /> : null;
  const notice = pending ? <PendingReviewNotice review={pending.review} to={pending.to} /> : null;

  if (mode === "view") {
    if (summaries.total === 0) {
      return (
        <div className="flex flex-col gap-4">
          {notice}
          <Card>
            <h2 className="text-base font-semibold">Data definition</h2>
            <p className="mt-1 text-sm text-muted-foreground">This dictionary has no tables yet.</p>
          </Card>
        </div>
      );
    }
    return (
      <div className="flex flex-col gap-6">
        {notice}
        <h2 className="sr-only">Data definition</h2>
        {pastTheEnd}
        <DictionaryTablesList tables={summaries.items} label="Tables" />
        {tables.map((t) => (
          <section key={t.id} aria-labelledby={`table-${t.id}`} className="flex flex-col gap-2">
            <h3 id={`table-${t.id}`} className="text-base font-semibold">
              {t.name}
            </h3>
            {t.description ? <p className="text-sm text-muted-foreground">{t.description}</p> : null}
            <ColumnsTable columns={t.columns} caption={`Columns of ${t.name}`} />
          </section>
        ))}
        {pagination}
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 className="text-lg font-semibold">Data definition</h2>
        <Link to={href(paths.newTable(id))} className={buttonVariants()}>
          <Icon name="plus" />
          Add table
        </Link>
      </div>
      {notice}
      {/* Loaded when shown (decision 029): a table chosen for deletion, or a deletion refused. */}
      {deleting || actionData?.result?.initialValue?.intent === "delete-table" ? (
        <DeleteTableConfirmation table={deleting} version={version} cancelHref={confirm.cancelHref} lastResult={actionData?.result} />
      ) : null}
      {pastTheEnd}
      <DictionaryTablesList
        tables={summaries.items}
        label="Tables"
        tableHref={(tableId) => paths.table(id, tableId)}
        deleteHref={confirm.openHref}
        emptyMessage="This dictionary has no tables yet: add one, or upload a file on the Bulk update page."
      />
      {pagination}
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
