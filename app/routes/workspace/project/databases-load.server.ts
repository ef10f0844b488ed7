/**
 * The load page's posts (databases/flat-file/update-source): a file streamed through to be previewed
 * or loaded at once, or the form under a preview that loads the files already uploaded.
 */
import { redirect } from "react-router";
import { stagedLoadSchema } from "../../../../contracts/loads";
import { LOAD_MODE_LABELS, LOAD_MODES, MAX_UPLOAD_BYTES_DEFAULT, ON_REJECTED, ON_REJECTED_LABELS } from "../../../../contracts/values/loads";
import { UPLOAD_TYPE_LABELS, UPLOAD_TYPES } from "../../../../contracts/values/projects";
import { companyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { invalid, parseFormData, readFormData, refusedByService, serviceFailure, submitUpload, unknownIntent } from "~/lib/forms.server";
import { NVARCHAR_MAX_LENGTH } from "../../../../contracts/values/dictionary";
import { SAVE_PARAMETERS } from "~/components/projects/flat-file-parameters-form";
import { WIDTHS_PAGING_KEYS } from "~/components/projects/flat-file-parameter-fields";
import { ADD_COLUMNS_INTENT } from "~/components/loads/load-intents";
import { saveFlatFileParameters } from "../flat-file-parameters.server";
import type { checkWorkspace } from "../workspace.server";

/**
 * The load form's choices, with their words: the loader answers them, so that the page's code carries
 * neither the labels' tables nor these descriptions (issue 8's initial JS bar).
 */
const MODE_OPTIONS = LOAD_MODES.map((value) => ({
  value,
  label: LOAD_MODE_LABELS[value],
  description: value === "replace" ? "The table's rows are deleted, then the file's are loaded." : "The file's rows are added to the table's.",
}));
const REJECTED_OPTIONS = ON_REJECTED.map((value) => ({
  value,
  label: ON_REJECTED_LABELS[value],
  description:
    value === "loadNothing" ? "If any row is rejected, the table stays exactly as it was." : "The rows that fit are loaded; the rejected ones are listed.",
}));

const UPLOAD_TYPE_OPTIONS = UPLOAD_TYPES.map((value) => ({
  value,
  label: UPLOAD_TYPE_LABELS[value],
  description:
    value === "SingleFile"
      ? "One file, into the table you choose."
      : "Several files (or one .zip), each into the table its name names: Employee.csv into Employee.",
}));

export const LOAD_CHOICES = { mode: MODE_OPTIONS, onRejected: REJECTED_OPTIONS, uploadType: UPLOAD_TYPE_OPTIONS };

type Scope = Awaited<ReturnType<typeof checkWorkspace>>;

/** `preview`: the Preview button posted the form (to its own formaction): the files are uploaded and previewed, not loaded. */
export async function loadPageAction(request: Request, { project, companyId, api, paths }: Scope, preview: boolean) {
  const started = (load: { id: string; fileName: string; tableName: string }) =>
    redirectWithFlash(companyHref(paths.databases.entry(project.id, load.id), companyId), `Loading ${load.fileName} into ${load.tableName}.`);

  if (/^multipart\/form-data/i.test(request.headers.get("content-type") ?? "")) {
    const maxGb = MAX_UPLOAD_BYTES_DEFAULT / 1024 ** 3;
    const limit = {
      maxBytes: MAX_UPLOAD_BYTES_DEFAULT + 1024 * 1024,
      tooLargeMessage: `The file is larger than ${maxGb} GB, the most a load takes`,
      noFileMessage: "Choose a file to load",
    };
    if (preview) {
      const { value, reply } = await submitUpload(request, limit, (upload) => api.loads.stage(upload));
      if (reply) return reply;
      // The preview is the page's, by its upload's id: a reload or a shared link shows it again.
      return redirect(companyHref(paths.databases.load(project.id), companyId, { upload: value.uploadId }));
    }
    const { value, reply } = await submitUpload(request, limit, (upload) => api.loads.start(upload));
    return reply ?? started(value.load);
  }

  // Plain form posts: the parameters form, or the load form under a preview.
  const formData = await readFormData(request);
  if (formData.get("intent") === SAVE_PARAMETERS) {
    // Back to the widths' page, page size and search the form showed.
    const params = new URL(request.url).searchParams;
    const { page, pageSize } = WIDTHS_PAGING_KEYS;
    const back = companyHref(paths.databases.load(project.id), companyId, {
      name: params.get("name"),
      [page]: params.get(page),
      [pageSize]: params.get(pageSize),
    });
    return saveFlatFileParameters(formData, { project, api, companyId }, back);
  }
  if (formData.get("intent") === ADD_COLUMNS_INTENT) return addFileColumns(String(formData.get("uploadId") ?? ""), { project, api, companyId, paths });
  // The load form under a preview sends no intent; another form's (or none of this page's) is refused, never taken for a load.
  if (formData.has("intent")) unknownIntent(formData.get("intent"));
  const submission = parseFormData(formData, stagedLoadSchema);
  // The upload it loads is sent hidden: without it, the request is said incomplete at the top, not at a field the page does not show.
  if (submission.status !== "success") return invalid(submission, [/^uploadId$/]);
  try {
    const { load } = await api.loads.startStaged(submission.value);
    return started(load);
  } catch (err) {
    // Said next to the choices the form shows (its Table select only for a single file); the data API's words about the
    // upload's files (none named after a table, two for one table, gone) or a table the form has no select for, at its top.
    const shown = (field: string) => field === "mode" || field === "onRejected" || (field === "table" && formData.has("table"));
    return refusedByService(submission, err, shown);
  }
}

/**
 * Adds to each table the columns its previewed file has and it lacks, as nullable nvarchar(4000)
 * (the widest: nothing the file holds is refused for its length; narrow them later on the table's
 * page). Through the dictionary's own save, so the databases follow (decision 017). The preview is
 * then read again with the new columns.
 */
async function addFileColumns(uploadId: string, { project, api, companyId, paths }: Pick<Scope, "project" | "api" | "companyId" | "paths">) {
  const back = companyHref(paths.databases.load(project.id), companyId, { upload: uploadId });
  let preview;
  try {
    preview = await api.loads.staged(uploadId);
  } catch (err) {
    if (serviceFailure(err)?.status === 404) return redirect(companyHref(paths.databases.load(project.id), companyId, { upload: uploadId }));
    throw err;
  }
  const added: string[] = [];
  let columnsAdded = 0;
  for (const file of preview.files) {
    if (!file.table || file.extraColumns.length === 0 || !file.header) continue;
    const { items } = await api.dictionary.tables({ name: file.table, page: 1, pageSize: 50 });
    const summary = items.find((t) => t.name === file.table);
    if (!summary) continue;
    const [table, dictionary] = await Promise.all([api.dictionary.table(summary.id), api.dictionary.get()]);
    // The header's own names (the extra ones are said trimmed; a header cell may not be a valid name: the save says so).
    const names = file.header.map((h) => h.trim()).filter((h) => file.extraColumns.includes(h));
    try {
      await api.dictionary.updateTable({
        tableId: table.id,
        version: dictionary.version,
        name: table.name,
        description: table.description,
        columns: [
          ...table.columns.map(({ name, type, length, precision, scale, nullable, isKey, description }) => ({
            name,
            type,
            length,
            precision,
            scale,
            nullable,
            isKey,
            description,
          })),
          ...names.map((name) => ({
            name,
            type: "nvarchar" as const,
            length: NVARCHAR_MAX_LENGTH,
            precision: null,
            scale: null,
            nullable: true,
            isKey: false,
            description: null,
          })),
        ],
      });
    } catch (err) {
      const failure = serviceFailure(err);
      if (!failure || failure.status >= 500) throw err;
      return redirectWithFlash(back, { kind: "error", text: `The columns could not be added to ${table.name}: ${failure.body.errors.join(" ")}` });
    }
    added.push(`${names.join(", ")} to ${table.name}`);
    columnsAdded += names.length;
  }
  return redirectWithFlash(back, added.length ? `Added ${added.join("; ")}. The preview is read again with ${columnsAdded === 1 ? "it" : "them"}.` : "No column was missing.");
}
