import { DEFAULT_PAGE_SIZE } from "../../../../../contracts/values/common";
import { Icon } from "~/components/ui/icon";
import { Form, Link } from "react-router";
import { tablesQuerySchema } from "../../../../../contracts/dictionary";
import { DELETE_TABLE_PARAM, DeleteTableConfirmation } from "~/components/dictionary/delete-table-confirmation";
import { useConfirmParam } from "~/components/forms/confirm-card";
import { DictionaryTablesList } from "~/components/dictionary/dictionary-tables-list";
import { Button, buttonVariants } from "~/components/ui/button";
import { Pagination, PastTheEnd } from "~/components/ui/pagination";
import { SearchField } from "~/components/ui/search-field";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { readFormData, unknownIntent } from "~/lib/forms.server";
import { afterGuard } from "~/lib/guards.server";
import { readPage } from "~/lib/list-search.server";
import { newestPendingReview } from "~/lib/api/dictionary-tables.server";
import { projectCalls, projectScope, requireWorkspace } from "../../workspace.server";
import { deleteTableFrom, describeTableFrom, isUpload, pendingReviewLinkOf, projectDictionary } from "./dictionary.server";
import { SampleTableForm } from "~/components/dictionary/sample-table-form";
import { PendingReviewNotice } from "~/components/dictionary/pending-review-notice";
import { DataLossConfirmation } from "~/components/dictionary/data-loss-confirmation";
import type { Route } from "./+types/tables";
import { KeptFields, PageSizeSelect } from "~/components/ui/list-search-form";

/** The name filter, the page and the page size, in the URL; values it cannot read fall back to the defaults, as every list's do. */
function readQuery(url: URL) {
  const parsed = tablesQuerySchema.shape.name.safeParse(url.searchParams.get("name") ?? undefined);
  return { name: (parsed.success && parsed.data) || undefined, ...readPage(url.searchParams) };
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
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

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
  const { projectId, version, query, page, canEdit, deleting, pending } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const here = paths.dictionary.tables(projectId);
  const at = (n: number) =>
    href(here, { name: query.name, page: n > 1 ? n : undefined, pageSize: query.pageSize === DEFAULT_PAGE_SIZE ? undefined : query.pageSize });
  const confirm = useConfirmParam(DELETE_TABLE_PARAM);

  return (
    <div className="flex flex-col gap-4">
      <DataLossConfirmation actionData={actionData} backUpHref={href(paths.databases.current(projectId))} />
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
        <KeptFields keep={{}} />
        <SearchField id="table-search" label="Search tables" value={query.name ?? ""} maxLength={128} />
        <PageSizeSelect id="tables-page-size" value={query.pageSize} />
        <Button type="submit" variant="outline">
          Search
        </Button>
      </Form>

      {/* Loaded when shown (decision 029): a table chosen for deletion, or a deletion refused. */}
      {deleting || actionData?.result?.initialValue?.intent === "delete-table" ? (
        <DeleteTableConfirmation
          table={deleting}
          version={version}
          cancelHref={confirm.cancelHref}
          lastResult={actionData?.result}
          valueMaps={paths.ws.kind === "translation"}
        />
      ) : null}

      {page.items.length === 0 && page.total > 0 ? (
        <PastTheEnd page={page.page} />
      ) : (
        <DictionaryTablesList
          tables={page.items}
          label={`Tables of the ${paths.ws.noun}`}
          tableHref={(tableId) => paths.dictionary.table(projectId, tableId)}
          mapHref={paths.ws.kind === "translation" ? (tableId) => paths.valueMaps.table(projectId, tableId) : undefined}
          deleteHref={canEdit ? confirm.openHref : undefined}
          emptyMessage={query.name ? "No table matches this search." : `The ${paths.ws.noun}'s ${paths.ws.dictionaryLabel.toLowerCase()} has no tables yet.`}
        />
      )}

      {page.total > page.pageSize || page.page > 1 ? (
        <Pagination page={page.page} pageSize={page.pageSize} total={page.total} noun={["table", "tables"]} href={at} />
      ) : null}

      {canEdit && paths.ws.kind === "translation" ? (
        <SampleTableForm lastResult={actionData && "result" in actionData ? actionData.result : undefined} />
      ) : null}
    </div>
  );
}
