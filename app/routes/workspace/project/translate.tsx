import { DEFAULT_PAGE_SIZE } from "../../../../contracts/values/common";
import { Form, Link } from "react-router";
import { FindTableForm, tableOptionsOf } from "~/components/databases/find-table-form";
import { FileField, FormErrors, SelectField } from "~/components/forms/fields";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { formatTimestamp } from "~/components/projects/format";
import { Card } from "~/components/ui/card";
import { PageSizeForm } from "~/components/ui/list-search-form";
import { Pagination, PastTheEnd } from "~/components/ui/pagination";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { getFormProps, useServerForm } from "~/lib/forms";
import { submitUpload } from "~/lib/forms.server";
import { afterGuard } from "~/lib/guards.server";
import { readPage } from "~/lib/list-search.server";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { MAX_UPLOAD_BYTES_DEFAULT } from "../../../../contracts/values/loads";
import { redirectWithFlash } from "~/lib/flash.server";
import { checkWorkspace, projectCalls, projectScope } from "../workspace.server";
import { dictionaryTableChoices } from "./table-choices.server";
import type { Route } from "./+types/translate";

/**
 * A mapping project's "Translate a file" (issue 12): upload a client's file of a described table; it
 * is translated with the table's value maps in the background, and its page shows the progress, the
 * report and the download. The translations are listed below the form, newest first, a page at a
 * time (`?page=&pageSize=`, paged in SQL by the data API).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  // The Table select offers the first dictionary tables whose name contains `?name=` (a dictionary may have thousands).
  const params = new URL(request.url).searchParams;
  const calls = projectCalls(context);
  const [{ project, access }, [tables, translations]] = await afterGuard(
    projectScope(context),
    Promise.all([dictionaryTableChoices(calls, params), calls.translations.list(readPage(params))]),
  );
  return { projectId: project.id, tables, translations, canWrite: access.canWrite };
}

export async function action({ request, context }: Route.ActionArgs) {
  const scope = await projectScope(context);
  const { project, companyId, api, paths } = await checkWorkspace(scope, { write: true });
  const maxGb = MAX_UPLOAD_BYTES_DEFAULT / 1024 ** 3;
  const limit = {
    maxBytes: MAX_UPLOAD_BYTES_DEFAULT + 1024 * 1024,
    tooLargeMessage: `The file is larger than ${maxGb} GB, the most a translation takes`,
    noFileMessage: "Choose the file to translate",
  };
  const { value, reply } = await submitUpload(request, limit, (upload) => api.translations.start(upload));
  if (reply) return reply;
  return redirectWithFlash(companyHref(paths.translations.one(project.id, value.id), companyId), `Translating ${value.fileName}.`);
}

export const handle = { breadcrumb: "Translate a file" };

export default function TranslatePage({ loaderData, actionData }: Route.ComponentProps) {
  const { projectId, tables, translations, canWrite } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const pending = useIsPending();
  // Links to the list's pages keep the table search, and the table search keeps the list's page.
  const paging = {
    page: translations.page === 1 ? undefined : String(translations.page),
    pageSize: translations.pageSize === DEFAULT_PAGE_SIZE ? undefined : String(translations.pageSize),
  };
  const pageHref = (page: number) =>
    href(paths.translations.root(projectId), { name: tables.search || undefined, ...paging, page: page === 1 ? undefined : page });
  const result = actionData?.result;
  const [form, fields] = useServerForm({ id: "translate", lastResult: result });
  // A refused post's table stays offered and chosen, whatever the search lists.
  const posted = result?.initialValue?.table;
  const tableOptions = tableOptionsOf(tables, typeof posted === "string" ? posted : null);
  return (
    <div className="flex flex-col gap-6">
      {canWrite ? (
        <Card className="max-w-3xl" aria-labelledby="translate-title">
          <h2 id="translate-title" className="text-lg font-semibold">
            Translate a file
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">
            A client's file of one of the described tables (.csv, .txt, .dta or .xlsx). Its translated columns get their target values; the result is a CSV
            (commas, UTF-8) with the same columns, and a report of what had no mapping.
          </p>
          <div className="mt-4">
            <FindTableForm action={paths.translations.root(projectId)} choices={tables} keep={paging} of="file data structure" />
          </div>
          <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="mt-4 flex flex-col gap-4">
            <FormErrors form={form} />
            <SelectField label="Table" field={fields.table!} options={tableOptions} description="The search above narrows the list." />
            <FileField label="File to translate" field={fields.file!} accept=".csv,.txt,.dta,.xlsx" />
            <div className="flex items-center gap-2 text-sm">
              <input id="translate-no-header" type="checkbox" name="hasHeaderRow" value="false" className="size-4" />
              <label htmlFor="translate-no-header">The file has no header row: read its columns by position</label>
            </div>
            <div>
              <StatusButton type="submit" pending={pending}>
                Translate
              </StatusButton>
            </div>
          </Form>
        </Card>
      ) : null}
      <section aria-labelledby="latest-title">
        <h2 id="latest-title" className="text-lg font-semibold">
          Translations
        </h2>
        {translations.total === 0 ? (
          <p className="mt-2 text-sm text-muted-foreground">No file translated yet.</p>
        ) : (
          <>
            {/* A new page size starts at the first page, and keeps the table search of the form above. */}
            <PageSizeForm
              action={paths.translations.root(projectId)}
              label="Translations page size"
              pageSize={translations.pageSize}
              pageSizeId="translations-page-size"
              keep={{ name: tables.search || undefined }}
              className="mt-3"
            />
            {translations.items.length === 0 ? (
              <PastTheEnd page={translations.page} />
            ) : (
              <Table aria-label="Translations, newest first" className="mt-3">
                <TableHeader>
                  <TableRow>
                    <TableHead>File</TableHead>
                    <TableHead>Table</TableHead>
                    <TableHead>Status</TableHead>
                    <TableHead className="text-right">Rows written</TableHead>
                    <TableHead className="text-right">Rejected</TableHead>
                    <TableHead>Started</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {translations.items.map((t) => (
                    <TableRow key={t.id}>
                      <TableCell>
                        <Link to={href(paths.translations.one(projectId, t.id))} className="text-brand hover:underline">
                          {t.fileName}
                        </Link>
                      </TableCell>
                      <TableCell>{t.tableName}</TableCell>
                      <TableCell>{t.status}</TableCell>
                      <TableCell className="text-right tabular-nums">{t.rowsWritten.toLocaleString("en-US")}</TableCell>
                      <TableCell className="text-right tabular-nums">{t.rowsRejected.toLocaleString("en-US")}</TableCell>
                      <TableCell className="whitespace-nowrap">{formatTimestamp(t.createdAt)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
            <Pagination
              page={translations.page}
              pageSize={translations.pageSize}
              total={translations.total}
              noun={["translation", "translations"]}
              href={pageHref}
            />
          </>
        )}
      </section>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
