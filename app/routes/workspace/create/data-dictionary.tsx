import type { SubmissionResult } from "@conform-to/react";
import { data, Form, Link, type UIMatch } from "react-router";
import { z } from "zod";
import { versionSchema } from "../../../../contracts/common";
import { assignDictionarySchema } from "../../../../contracts/projects";
import { DELETE_TABLE_PARAM, DeleteTableConfirmation } from "~/components/dictionary/delete-table-confirmation";
import { useConfirmParam } from "~/components/forms/confirm-card";
import { DictionaryTablesList } from "~/components/dictionary/dictionary-tables-list";
import { TableEditor, tableEditorDefaults } from "~/components/dictionary/table-editor";
import { FormErrors } from "~/components/forms/fields";
import { RefusalAlert } from "~/components/forms/refusal-alert";
import { StatusButton } from "~/components/forms/status-button";
import { useIntentPending } from "~/components/projects/use-intent-pending";
import { formatTimestamp } from "~/components/projects/format";
import { WizardSteps } from "~/components/projects/wizard-steps";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { useWorkspacePaths, workspaceOfPath } from "~/lib/workspace-paths";
import { redirectWithFlash } from "~/lib/flash.server";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { getFormProps, useServerForm } from "~/lib/forms";
import { actedOn, INCOMPLETE_REQUEST, invalid, parseFormData, readFormData, serviceFailure, unknownIntent } from "~/lib/forms.server";
import { accessSettings, afterGuard, shellOf } from "~/lib/guards.server";
import { mayEnterArea } from "~/lib/access";
import { projectCalls, requireWorkspace, workspaceKind } from "../workspace.server";

import { searchDictionaries } from "~/lib/api/dictionaries.server";
import { ListSearchForm, PageSizeForm } from "~/components/ui/list-search-form";
import { Pagination, PastTheEnd } from "~/components/ui/pagination";
import { SearchField } from "~/components/ui/search-field";
import { PAGING_KEYS, pagingParams, type ListPaging, type PagingKeys } from "~/lib/list-search";
import { readContains, readPaging } from "~/lib/list-search.server";
import { confirmationOf, createTableFrom, deleteTableFrom, describeTableFrom, isUpload, refusedWrite } from "../project/data-dictionary/dictionary.server";
import { SampleTableForm } from "~/components/dictionary/sample-table-form";
import { dictionaryAreaOf, MASTER_DICTIONARY_BASES } from "../../migration/data-dictionary/paths";
import { stepWords } from "./data-dictionary.server";
import type { Route } from "./+types/data-dictionary";


/**
 * "Assign": copy a master dictionary of the project's application into the project. Its dictionary is a hidden
 * field: a post without it (forged or cut short) is refused in words (actedOn), which the step shows above the list.
 */
const assignSchema = actedOn("dictionaryId").and(assignDictionarySchema.extend({ intent: z.literal("assign") }));

/** A mapping project's "Continue": ends the step, based on the project's version its page showed (a hidden field). */
const completeStructureSchema = z.object({ intent: z.literal("complete-structure"), version: versionSchema });

/**
 * The page's two lists, each paged in SQL through the URL: the master dictionaries found by name
 * (`name`, `page`, `pageSize`: the search form's), and the workspace's own tables, whose page keys are
 * their own so that paging one list leaves the other where it is.
 */
const TABLES_PAGING_KEYS: PagingKeys = { page: "tablesPage", pageSize: "tablesPageSize" };
type MasterSearch = ListPaging<"name"> & { name: string };
type Paging = { page: number; pageSize: number };

function readLists(params: URLSearchParams): { masters: MasterSearch; tables: Paging } {
  const { page, pageSize } = readPaging(params, ["name"], "name", TABLES_PAGING_KEYS);
  return { masters: { name: readContains(params), ...readPaging(params, ["name"], "name") }, tables: { page, pageSize } };
}

/** The URL parameters of both lists (defaults left out), for a link that moves one and keeps the other. */
function listParams(masters: MasterSearch, tables: Paging): Record<string, string | number | undefined> {
  return { name: masters.name || undefined, ...pagingParams(PAGING_KEYS, masters), ...pagingParams(TABLES_PAGING_KEYS, tables) };
}

/**
 * Step 2 is an edit page of an unlocked project that is still at this point of its setup. A mapping
 * project's step 2 is this page too: its file data structure is its own dictionary (spec §2
 * create/{id}/file-data-structure).
 */
async function guard(context: Route.LoaderArgs["context"]) {
  return await requireWorkspace(context, { write: true, unlocked: true, step: workspaceKind(context).ws.dictionaryStep });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  // The project's dictionary and tables beside the project's own load, used once the guard passed; the
  // master dictionaries need the project's application (a second round trip, on this wizard step only).
  const calls = projectCalls(context);
  const guarded = guard(context);
  const params = new URL(request.url).searchParams;
  const search = readLists(params);
  const [{ project, ws }, [dictionary, tables, masters]] = await afterGuard(
    guarded,
    Promise.all([
      calls.dictionary.get(),
      calls.dictionary.tables(search.tables),
      // A page of the application's master dictionaries, found by name and counted by the data API.
      guarded.then(({ project, as }) =>
        searchDictionaries(as, {
          companyId: project.companyId,
          applicationId: project.applicationId,
          name: search.masters.name || undefined,
          sort: search.masters.sort,
          page: search.masters.page,
          pageSize: search.masters.pageSize,
        }),
      ),
    ]),
  );
  // The area's list of the company's master dictionaries (Migrations' for a mapping project), when this user's role opens it:
  // decided here, so that the page's code carries neither the areas' paths nor the shell's list of open areas.
  const dictionaryArea = dictionaryAreaOf(new URL(request.url).pathname);
  const { roles } = await shellOf(context);
  return {
    project: { id: project.id, status: project.status, applicationName: project.applicationName, version: project.version },
    mastersListHref: mayEnterArea(dictionaryArea, roles, accessSettings) ? MASTER_DICTIONARY_BASES[dictionaryArea] : null,
    // Onboarding has no databases step: this step creates them (spec §2).
    createsDatabases: ws.kind === "onboarding",
    words: stepWords(ws.kind === "translation", ws.noun, project.applicationName, ws.kind === "onboarding", dictionary.tableCount),
    dictionary,
    tables,
    masters,
    search,
    deleting: tables.items.find((t) => t.id === params.get(DELETE_TABLE_PARAM)) ?? null,
    newTable: tableEditorDefaults(null, dictionary.version),
  };
}

// After a refusal (409: the dictionary or the project changed meanwhile), the versions the forms send are read again: the next try is applied.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

export async function action({ request, context }: Route.ActionArgs) {
  const scope = await guard(context);
  const { project, companyId, api, paths, ws } = scope;
  if (isUpload(request) && ws.kind === "translation") return describeTableFrom(request, scope);
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  const here = companyHref(paths.wizard(project.id, ws.dictionaryStep), companyId);

  // The TableEditor's form (its buttons carry no intent): define a table.
  if (intent === null) return createTableFrom(formData, api.dictionary, here);
  if (intent === "delete-table") return deleteTableFrom(formData, api.dictionary, here);

  if (intent === "assign") {
    const submission = parseFormData(formData, assignSchema);
    if (submission.status !== "success") return invalid(submission);
    try {
      await api.dictionary.assign(submission.value.dictionaryId, submission.value.version, confirmationOf(formData));
    } catch (err) {
      // A mapping project's tables whose value maps hold values: listed at the top, to confirm (as their deletion is).
      return refusedWrite(submission, err, formData, "assign");
    }
    const assigned = await api.dictionary.get();
    return redirectWithFlash(here, `Data dictionary ${assigned.sourceDictionaryName ?? ""} assigned: its tables are copied into the ${ws.noun}.`);
  }
  if (intent === "create-databases" && ws.kind === "onboarding") {
    try {
      await api.tryCreateDatabases();
    } catch (err) {
      const failure = serviceFailure(err);
      if (!failure || failure.status >= 500) throw err;
      return data({ result: undefined, createError: failure.body.errors.join(" ") }, { status: failure.status });
    }
    // The job holds the lock now: its page follows it and links to the next step when it is done.
    return redirectWithFlash(companyHref(paths.page(project.id, "background-process"), companyId), "Creating the databases: this page follows the job.");
  }
  if (intent === "complete-structure" && ws.kind === "translation") {
    // The version its page showed (a hidden field): a post without it (forged or cut short) is refused in words,
    // never read as version 0, which the data API would refuse as a change made in another tab.
    const submission = parseFormData(formData, completeStructureSchema);
    if (submission.status !== "success") return data({ result: undefined, createError: INCOMPLETE_REQUEST }, { status: 400 });
    let after;
    try {
      after = await api.completeStructure(submission.value.version);
    } catch (err) {
      const failure = serviceFailure(err);
      if (!failure || failure.status >= 500) throw err;
      return data({ result: undefined, createError: failure.body.errors.join(" ") }, { status: failure.status });
    }
    // Templates given from its Templates tab before this step end its setup here: it opens Active.
    const next = after.status === "Active" ? `It has its templates already, so the ${ws.noun} is Active.` : "Next, assign its Mapping templates.";
    return redirectWithFlash(companyHref(paths.nextStep(after), companyId), `File data structure saved. ${next}`);
  }
  return unknownIntent(intent);
}

export const handle = { breadcrumb: (match: UIMatch<unknown, unknown>) => workspaceOfPath(match.pathname).dictionaryLabel };

export default function DataDictionaryStep({ loaderData, actionData }: Route.ComponentProps) {
  const { project, dictionary, tables, masters, search, deleting, newTable, createsDatabases, mastersListHref, words } = loaderData;
  const lastResult = actionData?.result as SubmissionResult<string[]> | undefined;
  // An upload's refusal carries only the choices the service echoes (the file streamed through unread), never the
  // version or intent this page's other forms post: the sample form's.
  const fromUpload = lastResult !== undefined && !Object.keys(lastResult.initialValue ?? {}).some((name) => name === "version" || name === "intent");
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  // The API sets the status: every table has a column (and there is one) once it is past this step.
  const mapping = paths.ws.kind === "translation";
  const step = paths.ws.dictionaryStep;
  const here = paths.wizard(project.id, step);
  const confirm = useConfirmParam(DELETE_TABLE_PARAM);
  const ready =
    createsDatabases || mapping
    ? dictionary.tableCount > 0 && dictionary.emptyTableCount === 0
    : project.status !== "SetupDataDictionaryIncomplete" && project.status !== "SetupAddColumnsIncomplete";
  const createError = actionData && "createError" in actionData ? actionData.createError : null;
  // An Assign refused for a dictionary whose row shows no Assign now (its tables deleted meanwhile, so the page
  // says "No tables to copy yet"; on another page of the list; a forged id): said at the top of the list, not
  // dropped with the row's form.
  const assigning = lastResult?.initialValue?.intent === "assign" ? (lastResult.initialValue.dictionaryId ?? "") : null;
  const assignRefusal =
    assigning !== null && !masters.items.some((d) => d.id === assigning && d.tableCount > 0) ? Object.values(lastResult?.error ?? {}).flat() : [];
  const creating = useIntentPending("create-databases");
  const completing = useIntentPending("complete-structure");

  return (
    <>
      <WizardSteps current={step} project={project} />
      <p className="mt-4 max-w-3xl text-sm text-muted-foreground">
        {words.intro[0]}
        {words.intro.length > 1 ? (
          <>
            <Link to={href(paths.dictionary.upload(project.id))} className="text-brand underline underline-offset-2">
              upload a dictionary file
            </Link>
            {words.intro[1]}
          </>
        ) : null}
      </p>

      <Card className="mt-6" aria-labelledby="tables-title">
        <h2 id="tables-title" className="text-lg font-semibold">
          The {paths.ws.noun}'s tables
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          {dictionary.tableCount} {dictionary.tableCount === 1 ? "table" : "tables"}, {dictionary.columnCount} {dictionary.columnCount === 1 ? "column" : "columns"}
          {dictionary.sourceDictionaryName ? `, copied from ${dictionary.sourceDictionaryName}` : ""}.
          {dictionary.emptyTableCount > 0 ? ` ${dictionary.emptyTableCount} ${dictionary.emptyTableCount === 1 ? "table has" : "tables have"} no column yet.` : ""}
        </p>
        {deleting || lastResult?.initialValue?.intent === "delete-table" || lastResult?.initialValue?.intent === "assign" ? (
          <div className="mt-4">
            {/* A mapping project's table whose value maps hold values: the card lists what would go, to confirm (a migration's step is before its databases); an Assign's copy over such tables too, listed alone. */}
            <DeleteTableConfirmation
              table={deleting}
              version={dictionary.version}
              cancelHref={confirm.cancelHref}
              lastResult={lastResult?.initialValue?.intent === "delete-table" ? lastResult : undefined}
              valueMaps={paths.ws.kind === "translation"}
              actionData={actionData}
              backUpHref={href(paths.databases.current(project.id))}
            />
          </div>
        ) : null}
        {tables.total > 0 ? (
          // Its own parameter (tablesPageSize): a new size starts the tables at their first page and leaves the master dictionaries where they are.
          <PageSizeForm
            action={here}
            label={`Page size of the ${paths.ws.noun}'s tables`}
            pageSize={tables.pageSize}
            pageSizeId="tables-page-size"
            pageSizeName={TABLES_PAGING_KEYS.pageSize}
            keep={{ name: search.masters.name || undefined, ...pagingParams(PAGING_KEYS, search.masters) }}
            className="mt-4"
          />
        ) : null}
        <div className="mt-4">
          {tables.items.length === 0 && tables.total > 0 ? (
            <PastTheEnd page={tables.page} />
          ) : (
            <DictionaryTablesList
              tables={tables.items}
              tableHref={(tableId) => ({ path: paths.dictionary.table(project.id, tableId), search: { from: "setup" } })}
              mapHref={mapping ? (tableId) => paths.valueMaps.table(project.id, tableId) : undefined}
              deleteHref={confirm.openHref}
              label={`Tables of the ${paths.ws.noun}`}
              emptyMessage={`The ${paths.ws.noun} has no tables yet.`}
            />
          )}
        </div>
        {tables.total > tables.pageSize || tables.page > 1 ? (
          <Pagination
            label={`Pages of the ${paths.ws.noun}'s tables`}
            page={tables.page}
            pageSize={tables.pageSize}
            total={tables.total}
            noun={["table", "tables"]}
            href={(page) => href(here, listParams(search.masters, { ...search.tables, page }))}
          />
        ) : null}
      </Card>

      {createError ? (
        <RefusalAlert refusal={actionData} className="mt-4">
          {createError}
        </RefusalAlert>
      ) : null}
      <div className="mt-4 flex flex-wrap items-center gap-3">
        {ready && createsDatabases ? (
          <Form method="post">
            <StatusButton type="submit" name="intent" value="create-databases" pending={creating}>
              Create databases
            </StatusButton>
          </Form>
        ) : ready && mapping ? (
          <Form method="post">
            <input type="hidden" name="version" value={project.version} />
            <StatusButton type="submit" name="intent" value="complete-structure" pending={completing}>
              Continue
            </StatusButton>
          </Form>
        ) : ready ? (
          <Link to={href(paths.wizard(project.id, "databases"))} className={buttonVariants()}>Continue</Link>
        ) : (
          <>
            <Button disabled aria-describedby="continue-why">
              Continue
            </Button>
            <p id="continue-why" className="text-sm text-muted-foreground">
              {words.continueWhy}
            </p>
          </>
        )}
      </div>

      <Card className="mt-6" aria-labelledby="assign-title">
        <h2 id="assign-title" className="text-lg font-semibold">
          Assign a master dictionary
        </h2>
        {dictionary.tableCount > 0 ? (
          <p className="mt-1 text-sm text-muted-foreground">{words.assignReplaces}</p>
        ) : null}
        {assignRefusal.length > 0 ? (
          <RefusalAlert refusal={lastResult} className="mt-3">
            {assignRefusal.join(" ")}
          </RefusalAlert>
        ) : null}
        {masters.total === 0 && !search.masters.name ? (
          <p className="mt-3 text-sm">
            {project.applicationName} has no master data dictionary yet.{" "}
            {/* The area's own list of the company's master dictionaries (Migrations' for a mapping project): a role that does not open it (a translator) is told whom to ask instead. */}
            {mastersListHref ? (
              <Link to={href(mastersListHref)} className="text-brand underline underline-offset-2">
                Data dictionaries
              </Link>
            ) : (
              words.askForMaster
            )}
          </p>
        ) : (
          <>
            <ListSearchForm
              action={here}
              label="Find master dictionaries"
              sort={search.masters.sort}
              defaultSort="name"
              pageSize={search.masters.pageSize}
              pageSizeId="master-dictionaries-page-size"
              keep={pagingParams(TABLES_PAGING_KEYS, search.tables)}
              filtered={Boolean(search.masters.name)}
              clearLabel="Clear search"
              className="mt-4"
            >
              <SearchField id="master-dictionaries-search" label="Dictionary name contains" value={search.masters.name} />
            </ListSearchForm>
            {masters.total === 0 ? (
              <p className="mt-4 text-sm">{`No master dictionary of ${project.applicationName} has a name containing “${search.masters.name}”.`}</p>
            ) : masters.items.length === 0 ? (
              <PastTheEnd page={masters.page} />
            ) : (
              <div className="mt-4">
                <Table aria-label={`Master dictionaries of ${project.applicationName}`}>
                  <TableHeader>
                    <TableRow>
                      <TableHead>Dictionary</TableHead>
                      <TableHead className="text-right">Tables</TableHead>
                      <TableHead className="text-right">Columns</TableHead>
                      <TableHead>Updated</TableHead>
                      <TableHead>
                        <span className="sr-only">Assign</span>
                      </TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {masters.items.map((d) => (
                      <TableRow key={d.id}>
                        <TableCell className="font-medium">
                          {d.name}
                          {dictionary.sourceDictionaryId === d.id ? (
                            <>
                              {" "}
                              <span className="ml-1 text-xs text-muted-foreground">(assigned)</span>
                            </>
                          ) : null}
                        </TableCell>
                        <TableCell className="text-right tabular-nums">{d.tableCount}</TableCell>
                        <TableCell className="text-right tabular-nums">{d.columnCount}</TableCell>
                        <TableCell className="whitespace-nowrap">{formatTimestamp(d.updatedAt)}</TableCell>
                        <TableCell className="text-right">
                          {/* An empty dictionary would replace the tables with none: the data API refuses it too. */}
                          {d.tableCount === 0 ? (
                            <span className="text-xs text-muted-foreground">No tables to copy yet</span>
                          ) : (
                            <AssignForm dictionaryId={d.id} dictionaryName={d.name} version={dictionary.version} lastResult={lastResult} />
                          )}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </div>
            )}
            {masters.total > 0 ? (
              <Pagination
                label="Pages of master dictionaries"
                page={masters.page}
                pageSize={masters.pageSize}
                total={masters.total}
                noun={["dictionary", "dictionaries"]}
                href={(page) => href(here, listParams({ ...search.masters, page }, search.tables))}
              />
            ) : null}
          </>
        )}
      </Card>

      {mapping ? (
        <div className="mt-6">
          <SampleTableForm lastResult={fromUpload ? lastResult : undefined} />
        </div>
      ) : null}

      <Card className="mt-6" aria-labelledby="define-title">
        <h2 id="define-title" className="mb-4 text-lg font-semibold">
          Define a table
        </h2>
        <TableEditor
          // A new blank form after each table: the dictionary's version moves on with every write.
          key={dictionary.version}
          defaultValue={newTable}
          lastResult={lastResult && !fromUpload && lastResult.initialValue?.intent === undefined ? lastResult : undefined}
          submitLabel="Add table"
          cancelHref={here}
        />
      </Card>
    </>
  );
}

function AssignForm({ dictionaryId, dictionaryName, version, lastResult }: { dictionaryId: string; dictionaryName: string; version: number; lastResult?: SubmissionResult<string[]> }) {
  const pending = useIntentPending("assign", { dictionaryId });
  const [form] = useServerForm({
    id: `assign-${dictionaryId}`,
    // Several forms share the action: a refusal belongs to the row it came from.
    lastResult: lastResult?.initialValue?.dictionaryId === dictionaryId ? lastResult : undefined,
  });
  return (
    <Form method="post" {...getFormProps(form)} className="inline-flex flex-col items-end gap-1">
      <input type="hidden" name="dictionaryId" value={dictionaryId} />
      <input type="hidden" name="version" value={version} />
      <StatusButton type="submit" name="intent" value="assign" size="sm" variant="outline" pending={pending} aria-label={`Assign ${dictionaryName}`}>
        Assign
      </StatusButton>
      <FormErrors form={form} />
    </Form>
  );
}
