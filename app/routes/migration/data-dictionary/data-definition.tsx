import { Icon } from "~/components/ui/icon";
import { Link } from "react-router";
import { ColumnsTable } from "~/components/dictionary/columns-table";
import { DeleteTableConfirmation } from "~/components/dictionary/delete-table-confirmation";
import { DictionaryTablesList } from "~/components/dictionary/dictionary-tables-list";
import { dictionaryMessages } from "~/components/dictionary/messages";
import { PendingReviewNotice } from "~/components/dictionary/pending-review-notice";
import { deleteTableSchema } from "~/components/dictionary/schemas.server";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { invalid, parseForm, refusedByService } from "~/lib/forms.server";
import { deleteTable } from "~/lib/api/dictionaries.server";
import { callerOf, shellOf } from "~/lib/guards.server";
import { dictionaryOf, dictionaryPathsOfRequest, masterDataAccess, pendingReviewLink, requireMasterDataWrite } from "./dictionary.server";
import { dictionaryModeOf, useDictionaryPaths } from "./paths";
import type { Route } from "./+types/data-definition";

/** ?delete={tableId}: the confirmation of that table's deletion (a link, so it works without JavaScript). */
const DELETE_PARAM = "delete";

/**
 * The dictionary's tables: edit/{id}/data-definition lists them to open, add and delete;
 * view/{id}/data-definition shows every table with its columns, read-only.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  // An upload nobody applied or discarded: whoever may apply it finds it again here. Asked beside the
  // dictionary's own load, and waited for only when the user may apply it.
  const pendingLink = pendingReviewLink(callerOf(context), params.dataDictionaryId, "edit");
  pendingLink.catch(() => undefined);
  const [dictionary, shell] = await Promise.all([dictionaryOf(context), shellOf(context)]);
  const url = new URL(request.url);
  const mode = dictionaryModeOf(url.pathname) === "edit" ? "edit" : "view";
  const tables = [...dictionary.tables].sort((a, b) => a.order - b.order);
  const deleting = mode === "edit" ? (tables.find((t) => t.id === url.searchParams.get(DELETE_PARAM)) ?? null) : null;
  const pending = masterDataAccess(shell).canWrite ? await pendingLink : null;
  return {
    mode,
    pending,
    id: dictionary.id,
    version: dictionary.version,
    tables: mode === "view" ? tables : [],
    summaries: tables.map((t) => ({ id: t.id, name: t.name, description: t.description, columnCount: t.columns.length })),
    deleting: deleting && { id: deleting.id, name: deleting.name, columnCount: deleting.columns.length },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const dictionary = await dictionaryOf(context);
  const paths = dictionaryPathsOfRequest(request);
  const { shell, companyId } = await requireMasterDataWrite(context, paths.definition("view", dictionary.id));
  const { submission } = await parseForm(request, deleteTableSchema);
  if (submission.status !== "success") return invalid(submission);
  try {
    await deleteTable(shell, dictionary.id, submission.value.tableId, submission.value.version);
  } catch (err) {
    // A stale version (409): said in the confirmation, nothing deleted.
    return refusedByService(submission, err);
  }
  const name = dictionary.tables.find((t) => t.id === submission.value.tableId)?.name ?? "";
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
  const here = paths.definition("edit", id);
  const notice = pending ? <PendingReviewNotice review={pending.review} to={pending.to} /> : null;

  if (mode === "view") {
    if (tables.length === 0) {
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
        <DictionaryTablesList tables={summaries} label="Tables" />
        {tables.map((t) => (
          <section key={t.id} aria-labelledby={`table-${t.id}`} className="flex flex-col gap-2">
            <h3 id={`table-${t.id}`} className="text-base font-semibold">
              {t.name}
            </h3>
            {t.description ? <p className="text-sm text-muted-foreground">{t.description}</p> : null}
            <ColumnsTable columns={t.columns} caption={`Columns of ${t.name}`} />
          </section>
        ))}
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
      {deleting ? (
        <DeleteTableConfirmation table={deleting} version={version} cancelHref={here} lastResult={actionData?.result} />
      ) : null}
      <DictionaryTablesList
        tables={summaries}
        label="Tables"
        tableHref={(tableId) => paths.table(id, tableId)}
        deleteHref={(tableId) => ({ path: here, search: { [DELETE_PARAM]: tableId } })}
        emptyMessage="This dictionary has no tables yet: add one, or upload a file on the Bulk update page."
      />
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
