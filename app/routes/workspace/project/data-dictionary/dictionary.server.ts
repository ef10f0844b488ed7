/**
 * The workspace's own data dictionary as this folder's pages need it: loaded once per request for
 * every page below (its version and counts), and the guard of the pages that review an upload.
 */
import { createContext, data, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import type { ProjectDictionary } from "../../../../../contracts/dictionary";
import type { Submission } from "@conform-to/react";
import { CONFIRM_DATA_LOSS_PARAM, DATA_LOSS_CODE, VALUE_MAP_LOSS_CODE, createTableSchema } from "../../../../../contracts/dictionary";
import type { DataLoss } from "~/components/dictionary/data-loss";
import { dictionaryMessages } from "~/components/dictionary/messages";
import { deleteTableSchema, parseTableEditor } from "~/components/dictionary/schemas.server";
import { newestPendingReview, pendingReviewLinkTo } from "~/lib/api/dictionary-tables.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { invalid, parseFormData, refusedByService, serviceFailure, submitUpload } from "~/lib/forms.server";
import { companyHref } from "~/lib/company-href";
import { afterGuard } from "~/lib/guards.server";
import { projectCalls, projectScope, requireWorkspace, type ProjectScopeOf } from "../../workspace.server";

/** The workspace's dictionary (its version and counts), on its way once per request for every page below. */
const projectDictionaryContext = createContext<Promise<ProjectDictionary> | null>(null);

/**
 * Starts loading the dictionary beside the workspace itself (the data API checks the same access);
 * like the workspace's middleware, a failure is thrown by the loaders (projectDictionary), never from here.
 */
export const loadProjectDictionary: MiddlewareFunction<Response> = async ({ context }, next) => {
  const dictionary = projectCalls(context).dictionary.get();
  dictionary.catch(() => undefined);
  context.set(projectDictionaryContext, dictionary);
  return next();
};

/** The dictionary, once the workspace's guard passed; its load's failure is thrown for the error page. */
export async function projectDictionary(context: Readonly<RouterContextProvider>): Promise<ProjectDictionary> {
  const pending = context.get(projectDictionaryContext);
  if (!pending) throw new Error("loadProjectDictionary did not run");
  const [, dictionary] = await afterGuard(projectScope(context), pending);
  return dictionary;
}

/** Reviewing and applying an upload changes the workspace's dictionary: write access, not locked. */
export async function reviewGuard(context: Readonly<RouterContextProvider>) {
  const { paths, project } = await projectScope(context);
  return await requireWorkspace(context, { write: paths.dictionary.tables(project.id), unlocked: true });
}

type DictionaryApi = ProjectScopeOf["api"]["dictionary"];

/**
 * The two table writes the wizard's dictionary step and the dictionary's own pages both take, from
 * the posted form: a new table (the TableEditor), or a deletion confirmed with the version the page
 * showed. They answer the redirect to `to` with the flash message that says what changed, or the
 * form back with its errors (a list intent sent without JavaScript, invalid fields, a refusal).
 */
export async function createTableFrom(formData: FormData, dictionary: DictionaryApi, to: string) {
  const submission = parseTableEditor(formData, createTableSchema);
  // A list intent (add, remove, move a column) sent without JavaScript: the form comes back changed (invalid).
  if (submission.status !== "success") return invalid(submission);
  try {
    await dictionary.createTable(submission.value);
  } catch (err) {
    // A name the dictionary already has, a stale version (409): next to the field or at the top.
    return refusedByService(submission, err);
  }
  return redirectWithFlash(to, dictionaryMessages.tableSaved(submission.value.name, true));
}

export async function deleteTableFrom(formData: FormData, dictionary: DictionaryApi, to: string) {
  const submission = parseFormData(formData, deleteTableSchema);
  if (submission.status !== "success") return invalid(submission);
  let name: string;
  try {
    // Read first: the message names the table.
    ({ name } = await dictionary.table(submission.value.tableId));
    await dictionary.deleteTable(submission.value.tableId, submission.value.version, confirmationOf(formData));
  } catch (err) {
    // A stale version (409): said in the confirmation; rows it holds: listed at the top to confirm. Nothing deleted.
    return refusedWrite(submission, err, formData, "delete");
  }
  return redirectWithFlash(to, dictionaryMessages.tableDeleted(name));
}

/** The link of `newest` (from newestPendingReview, which a loader may have started beside the guard) to the workspace's review page. */
export function pendingReviewLinkOf(scope: Pick<ProjectScopeOf, "paths" | "project">, newest: Awaited<ReturnType<typeof newestPendingReview>>) {
  return pendingReviewLinkTo(newest, scope.paths.dictionary.review(scope.project.id));
}

/**
 * What else the user may do than confirm a write that deletes data, by the write refused: said in its form
 * (after "Confirm it at the top of the page,") and under the confirmation's button. A table's form can be
 * changed; a table's deletion only cancelled; a reviewed upload only discarded or uploaded again; a master
 * dictionary's copy over the tables (the wizard's Assign) only left undone.
 */
const DATA_LOSS_CHOICES = {
  save: { inForm: "or change it", underButton: "Or change the form below and save again." },
  delete: { inForm: "or cancel", underButton: "Or keep the table: Cancel below." },
  apply: { inForm: "or discard the upload", underButton: "Or discard this upload below, or upload a corrected file." },
  assign: { inForm: "or keep the tables as they are", underButton: "Or keep the tables as they are: assign nothing." },
} as const;
export type DataLossWrite = keyof typeof DATA_LOSS_CHOICES;

/** Said in the form whose write would delete data (a mapping project's: value maps); the list and the confirmation are at the top of the page. */
export const dataLossFormError = (write: DataLossWrite, valueMaps = false) =>
  `Nothing was saved: this change deletes ${valueMaps ? "value maps" : "data from the databases"}. Confirm it at the top of the page, ${DATA_LOSS_CHOICES[write].inForm}.`;

/** The user's confirmation that the data a refusal listed may go: sent by DataLossConfirmation's button. */
export function confirmationOf(formData: FormData) {
  return { confirmDataLoss: formData.get(CONFIRM_DATA_LOSS_PARAM) === "true" };
}

/**
 * A refused write of the workspace's dictionary, as refusedByService answers it; when what refused
 * it is the data it would delete from the databases (409 data_loss) or a mapping project's value maps
 * (409 value_map_loss), also that list and the form as posted, for DataLossConfirmation at the top of
 * the page to send again with the confirmation.
 */
export function refusedWrite(submission: Submission<unknown>, err: unknown, formData: FormData, write: DataLossWrite) {
  const failure = serviceFailure(err);
  const valueMaps = failure?.body.code === VALUE_MAP_LOSS_CODE;
  if (failure?.body.code !== DATA_LOSS_CODE && !valueMaps) return refusedByService(submission, err);
  const [, ...lines] = failure!.body.errors;
  const resubmit = [...formData.entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[0] !== CONFIRM_DATA_LOSS_PARAM);
  const dataLoss: DataLoss = { lines, resubmit, instead: DATA_LOSS_CHOICES[write].underButton, valueMaps };
  return data({ result: submission.reply({ formErrors: [dataLossFormError(write, valueMaps)] }), dataLoss }, { status: failure!.status });
}

/** A sample is read for its header and first rows: 200 MB is far more than that needs. */
const SAMPLE_MAX_BYTES = 200 * 1024 * 1024;

/**
 * A mapping project's "Describe a table from a sample file" (the multipart post of SampleTableForm):
 * the file streamed through to the data API, which adds the table; then the table's page, to check
 * the suggested types. Refusals come back at the form's fields.
 */
export async function describeTableFrom(request: Request, scope: Pick<ProjectScopeOf, "project" | "api" | "paths" | "companyId">) {
  const { project, api, paths, companyId } = scope;
  const limit = { maxBytes: SAMPLE_MAX_BYTES, tooLargeMessage: "The sample is larger than 200 MB: its first rows are enough", noFileMessage: "Choose a sample file" };
  const { value, reply } = await submitUpload(request, limit, (upload) => api.valueMaps.describeTable(upload));
  if (reply) return reply;
  return redirectWithFlash(
    companyHref(paths.dictionary.table(project.id, value.tableId), companyId),
    `Table ${value.name} described from the sample: ${value.columnCount} ${value.columnCount === 1 ? "column" : "columns"}. Check the suggested types.`,
  );
}

/** A multipart post is a file's upload; the pages' other forms post fields. */
export const isUpload = (request: Request) => /^multipart\/form-data/i.test(request.headers.get("content-type") ?? "");
