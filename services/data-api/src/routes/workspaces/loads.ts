/**
 * Flat-file loads into a workspace's source database (issue 9 §2), for projects and configurations
 * alike: upload and start a load (202: it runs as a job), and one load. Their history, with each
 * table's rejected rows, is history.ts's.
 */
import fs from "node:fs";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { loadFormSchema, loadSchema, PREVIEW_ROWS, stagedLoadSchema, stagedUploadSchema } from "../../../../../contracts/loads.ts";
import { LOAD_MODES, ON_REJECTED } from "../../../../../contracts/values/loads.ts";
import { DEFAULT_FLAT_FILE_PARAMETERS } from "../../../../../contracts/values/flat-files.ts";
import { UPLOAD_TYPES } from "../../../../../contracts/values/projects.ts";
import type { Table } from "../../../../../contracts/dictionary.ts";
import type { WorkspaceDescriptor } from "../../../../../contracts/workspaces.ts";
import { ApiProblem, NotFoundError, validationProblem } from "../../api-problem.ts";
import { startFlatFileLoad, type FlatFileLoadInput } from "../../data-plane/flat-file/flat-file-load.ts";
import { LOAD_START_STATUSES } from "../../data-plane/data-jobs.ts";
import { ArrivingFile } from "../../data-plane/flat-file/arriving-file.ts";
import { previewInWorker } from "../../data-plane/flat-file/preview-in-worker.ts";
import { FlatFileProblem } from "../../data-plane/flat-file/read-flat-file.ts";
import { isZip, unzipUpload } from "../../data-plane/flat-file/unzip-upload.ts";
import type { ReceivedFile } from "../../dictionary-bulk/receive-upload.ts";
import {
  type StagedManifest,
  readManifest,
  removeExpiredStaged,
  removeStaged,
  stageFiles,
  STAGED_UPLOAD_TTL_MS,
  takeStaged,
  writeManifest,
} from "../../data-plane/flat-file/staged-uploads.ts";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.ts";
import type { WorkspaceRow } from "../../repositories/workspaces.ts";
import { echoingChoices, receiveUpload, uploadsTmpDir } from "../../dictionary-bulk/receive-upload.ts";
import { JobRefusedError } from "../../jobs/start-job.ts";
import { createRouter, fieldErrorsOf, jsonContent } from "../../openapi.ts";
import { findProjectDictionaryRef } from "../../repositories/dictionaries.ts";
import { readTables } from "../../repositories/dictionary-tables.ts";
import { flatFileParametersOf } from "../../repositories/projects.ts";
import { findLoad, setLoadFileBytes } from "../../repositories/loads.ts";
import { requireWorkspace } from "../../workspace-access.ts";
import { backupDeps, collectionPath, readErrorsOf, writeErrorsOf } from "./shared.ts";
import { maxUploadBytesOf, uploadTooLargeMessage } from "../../body-limits.ts";

const LOAD_BODY = {
  type: "object" as const,
  required: ["file", "table"],
  properties: {
    file: { type: "string" as const, format: "binary" },
    table: { type: "string" as const },
    mode: { type: "string" as const, enum: [...LOAD_MODES], default: "replace" },
    onRejected: { type: "string" as const, enum: [...ON_REJECTED], default: "loadNothing" },
  },
};

/** A previewed upload, loaded without sending its file again (JSON). */
const STAGED_LOAD_BODY = {
  type: "object" as const,
  required: ["uploadId"],
  properties: {
    uploadId: { type: "string" as const },
    table: { type: "string" as const, description: "The table; by default the one the preview matched." },
    mode: LOAD_BODY.properties.mode,
    onRejected: LOAD_BODY.properties.onRejected,
  },
};
const STAGE_BODY = {
  type: "object" as const,
  required: ["file"],
  properties: {
    file: { type: "array" as const, items: { type: "string" as const, format: "binary" } },
    uploadType: { type: "string" as const, enum: [...UPLOAD_TYPES] },
    table: { type: "string" as const },
    mode: { ...LOAD_BODY.properties.mode, description: "Kept with the preview: what the load under it starts from." },
    onRejected: { ...LOAD_BODY.properties.onRejected, description: "Kept with the preview, as mode." },
  },
};

export const SEVERAL_FILES_MESSAGE = "Several files are loaded from their preview: choose Preview";
export const STAGED_UPLOAD_GONE_MESSAGE = "The uploaded file is no longer here: choose it again";
/** A load under a preview read with other parameters than those saved now: it would not read the file as the preview showed it. */
export const PREVIEW_READ_OTHERWISE_MESSAGE =
  "How files are read was changed since this preview was read (in another tab, or by someone else): nothing was loaded. Check the preview as the files read now, then load.";
export const CHOOSE_LOAD_FILE_MESSAGE = "Choose a file to load";
export const LOAD_NOT_FOUND_MESSAGE = "No such load.";
/** The load form's choices: sent before its file, the load starts as the file arrives. */
const LOAD_FORM_FIELDS = ["table", "mode", "onRejected"] as const;
/** The choices sent with files to preview: kept with them, for the load under the preview. */
const stageChoicesSchema = loadFormSchema.pick({ mode: true, onRejected: true });
/** Every choice of the load and preview forms: what a refusal of their upload echoes. */
const CHOICE_FIELDS = [...LOAD_FORM_FIELDS, "uploadType"] as const;

/**
 * The load or preview form's upload, every file kept. A refusal while its body is read (over the size
 * limit, a form cut short or unreadable) echoes the choices sent before the file, as they were read:
 * the form puts them first, and nothing after a refused file is read at all.
 */
function receiveEchoingChoices(
  request: Request,
  dataDir: string,
  maxBytes: number,
  onFileStart?: NonNullable<Parameters<typeof receiveUpload>[4]>["onFileStart"],
) {
  const fields: Record<string, string> = {};
  return echoingChoices(fields, CHOICE_FIELDS, () =>
    receiveUpload(request, uploadsTmpDir(dataDir), maxBytes, uploadTooLargeMessage(maxBytes), { allFiles: true, onFileStart, fields }),
  );
}

export function createWorkspaceLoadsRouter(descriptor: WorkspaceDescriptor) {
  const { kind, noun } = descriptor;
  const base = `${collectionPath(descriptor)}/{id}/flat-file/loads`;
  const tags = kind === "migration" ? ["Flat-file loads"] : ["Configuration flat-file loads"];
  const idParams = z.object({ id: z.string().min(1) });
  const loadParams = z.object({ id: z.string().min(1), loadId: z.string().min(1) });

  const start = createRoute({
    method: "post",
    path: base,
    tags,
    summary: `Upload a flat file and load it into a table of the ${noun}'s source database`,
    description: [
      "multipart/form-data: `file`, `table` (a table of the dictionary, any case), `mode` (replace, the default, or append), `onRejected` (loadNothing, the default, or loadOthers).",
      `The file is read with the ${noun}'s flat-file parameters (delimiter, text qualifier, encoding, header row). Answers 202 with the load (status Loading) and its job: the ${noun} is locked (FlatFileCreation) until it ends.`,
      "A row that does not fit its table (values, types, lengths, a missing key, a duplicate key) is rejected with its row, column, value and reason; with loadNothing any rejected row leaves the table as it was (status Refused).",
      "Sent with `table`, `mode` and `onRejected` before `file` and with a Content-Length, the load starts with the file's first bytes and reads it as it arrives (the answer still comes once the upload is in); an upload that stops then fails the load, and nothing is loaded.",
      "application/json (`uploadId`, the files a preview staged): 409 stale_preview when the flat-file parameters saved now are not those the preview was read with; nothing is loaded, the upload is kept, and GET …/flat-file/uploads/{uploadId} reads it again with them.",
    ].join(" "),
    // A plain schema object, not Zod: the route reads the body itself, as a stream (receiveUpload).
    request: {
      params: idParams,
      body: { required: true, content: { "multipart/form-data": { schema: LOAD_BODY }, "application/json": { schema: STAGED_LOAD_BODY } } },
    },
    responses: {
      202: jsonContent(z.object({ load: loadSchema, jobId: z.string() }), "The load, just started."),
      413: jsonContent(z.object({}).passthrough(), "The file is larger than MAX_UPLOAD_BYTES."),
      ...writeErrorsOf(descriptor),
    },
  });
  const one = createRoute({
    method: "get",
    path: `${base}/{loadId}`,
    tags,
    summary: "One load: its file, choices, status and counts",
    request: { params: loadParams },
    responses: { 200: jsonContent(loadSchema, "The load."), ...readErrorsOf(descriptor) },
  });
  const uploads = `${collectionPath(descriptor)}/{id}/flat-file/uploads`;
  const stage = createRoute({
    method: "post",
    path: uploads,
    tags,
    summary: "Upload flat files and preview them: the first rows as read, and their columns matched to their tables'",
    description: [
      "multipart/form-data: `file` (one, or several with uploadType MultipleFiles), `uploadType` (SingleFile or MultipleFiles; the workspace's by default), `table` (a single file's table; else the table its name names, Employee.csv → Employee). Two files that name the same table (Employee.csv and employee.txt) are refused (400): each table takes one file.",
      `Answers 201 with the preview: per file its table, the encoding and delimiter read, the header, the first ${PREVIEW_ROWS} rows, columns matched (by header name, any case, or by position), columns missing and extra, and why it cannot be loaded if so; with several files, the tables no file matches.`,
      `The files are kept for ${STAGED_UPLOAD_TTL_MS / 3_600_000} hours: POST …/flat-file/loads with {uploadId} loads them without sending them again.`,
    ].join(" "),
    request: { params: idParams, body: { required: true, content: { "multipart/form-data": { schema: STAGE_BODY } } } },
    responses: {
      201: jsonContent(stagedUploadSchema, "The preview."),
      413: jsonContent(z.object({}).passthrough(), "The files are larger than MAX_UPLOAD_BYTES."),
      ...writeErrorsOf(descriptor),
    },
  });
  const stagedOne = createRoute({
    method: "get",
    path: `${uploads}/{uploadId}`,
    tags,
    summary: "A staged upload's preview, as POST …/flat-file/uploads answered it",
    request: { params: z.object({ id: z.string().min(1), uploadId: z.string().min(1) }) },
    responses: { 200: jsonContent(stagedUploadSchema, "The preview."), ...readErrorsOf(descriptor) },
  });

  const requireDatabases = (workspace: WorkspaceRow): string => {
    // Refused before the body is read: a file of gigabytes is not received to answer 409.
    const serverId = workspace.database_server;
    if (!serverId || !LOAD_START_STATUSES.includes(workspace.status as (typeof LOAD_START_STATUSES)[number])) {
      throw new ApiProblem(409, "not_ready", `The ${noun}'s databases are not created yet: create them first.`);
    }
    return serverId;
  };
  const parametersOf = (workspace: WorkspaceRow) => flatFileParametersOf(workspace) ?? DEFAULT_FLAT_FILE_PARAMETERS;
  type Dictionary = { version: number; tables: Table[] };
  const dictionaryOf = async (db: Kysely<Database>, projectId: string): Promise<Dictionary> => {
    const dictionary = await findProjectDictionaryRef(db, projectId);
    return { version: dictionary?.version ?? 0, tables: dictionary ? await readTables(db, dictionary.id) : [] };
  };
  /** The dictionary's table of that name, any case; null when it has none. */
  const tableNamed = (tables: readonly Table[], name: string | null) =>
    name ? (tables.find((t) => t.name.toLowerCase() === name.toLowerCase()) ?? null) : null;
  /**
   * The staged files previewed with the workspace's parameters and dictionary as they are now (each
   * file matched to the table its manifest names, if the dictionary has it), the manifest written
   * with the preview and what it was read with.
   */
  const previewed = async (
    dataDir: string,
    workspace: WorkspaceRow,
    { version, tables }: Dictionary,
    staged: Omit<StagedManifest, "preview" | "dictionaryVersion" | "parameters">,
  ) => {
    const parameters = parametersOf(workspace);
    const files = staged.files.map((f) => ({ ...f, table: tableNamed(tables, f.table) }));
    const manifest: StagedManifest = {
      ...staged,
      dictionaryVersion: version,
      parameters,
      preview: {
        uploadId: staged.id,
        // A manifest written before the choices were kept has none: the form's defaults.
        ...stageChoicesSchema.parse(staged),
        files: await previewInWorker({ parameters, files }),
        unmatchedTables: staged.multipleFiles ? tables.filter((t) => !files.some((f) => f.table?.name === t.name)).map((t) => t.name) : [],
        createdAt: staged.createdAt,
      },
    };
    await writeManifest(dataDir, manifest);
    return manifest;
  };
  const noTableMessage = (table: string) => `The ${noun}'s dictionary has no table '${table}'`;
  /** The table a load names, or a 400 at its field. */
  const tableOf = (tables: readonly Table[], name: string): Table => {
    const table = tableNamed(tables, name);
    if (!table) throw validationProblem({ table: [name ? noTableMessage(name) : "Choose a table"] });
    return table;
  };

  return createRouter()
    .openapi(start, async (c) => {
      const { workspace } = await requireWorkspace(c, kind, c.req.valid("param").id, { write: true });
      const serverId = requireDatabases(workspace);
      const { db, dataDir } = c.var.deps;
      const startLoad = async (
        files: FlatFileLoadInput["files"],
        form: FlatFileLoadInput["form"],
        cleanUp: Pick<FlatFileLoadInput, "discard" | "refused" | "skipped">,
      ) => {
        try {
          return await startFlatFileLoad(backupDeps(c), kind, {
            projectId: workspace.id,
            workspaceName: workspace.name,
            serverId,
            userId: c.var.caller.userId,
            files,
            ...cleanUp,
            form,
            parameters: parametersOf(workspace),
          });
        } catch (err) {
          if (err instanceof JobRefusedError) throw new ApiProblem(409, "project_locked", err.message);
          throw err;
        }
      };
      const started = async ({ loadId, job }: { loadId: string; job: { id: string } }) =>
        c.json({ load: (await findLoad(db, workspace.id, loadId))!, jobId: job.id }, 202);

      // Files previewed before: their staged upload, taken by the load (given back if it cannot start).
      if (/^application\/json\b/i.test(c.req.header("content-type") ?? "")) {
        const parsed = stagedLoadSchema.safeParse(await c.req.json().catch(() => null));
        if (!parsed.success) throw validationProblem(fieldErrorsOf(parsed.error.issues, "form"));
        const manifest = await readManifest(dataDir, workspace.id, parsed.data.uploadId);
        if (!manifest) throw validationProblem({ file: [STAGED_UPLOAD_GONE_MESSAGE] });
        // The load reads the files with the parameters saved now: other than the preview's (the page's date order, header
        // row or delimiter changed meanwhile), it is refused, the upload kept; the preview asked again reads them anew.
        if (JSON.stringify(manifest.parameters) !== JSON.stringify(parametersOf(workspace)))
          throw new ApiProblem(409, "stale_preview", PREVIEW_READ_OTHERWISE_MESSAGE);
        // One file goes into the table chosen (by default the one its name names); several, each into
        // the table its name names. Files that name no table were listed by the preview, and stay out.
        // The tables as the preview matched them (null: no such table in the dictionary).
        const matched = manifest.files.map((f, i) => ({ ...f, table: manifest.preview.files[i]?.table ?? null }));
        const single = matched.length === 1;
        const wanted = single ? [{ ...matched[0]!, table: parsed.data.table || matched[0]!.table || "" }] : matched.filter((f) => f.table);
        if (wanted.length === 0)
          throw validationProblem({ file: ["No file of this upload is named after a table of the dictionary: name each file after its table"] });
        // Checked before the files are taken, so a refused form leaves the preview as it was.
        const { tables: dictionaryTables } = await dictionaryOf(db, workspace.id);
        const tables = wanted.map((f) => tableOf(dictionaryTables, f.table!));
        // A preview read again after the dictionary changed may match two files to one table: refused, as the upload would have been.
        oneFilePerTable(wanted.map((f, i) => ({ name: f.name, table: tables[i]!.name })));
        const taken = await takeStaged(dataDir, manifest);
        const files = wanted.map((f, i) => ({ file: taken.files.find((t) => t.name === f.name)!, table: tables[i]! }));
        // The entry names the files it leaves out, as the preview did.
        // By name: a single file's `wanted` is a copy of it (with the table chosen), never the same object.
        const skipped = matched.filter((f) => !wanted.some((w) => w.name === f.name)).map((f) => f.name);
        try {
          return await started(await startLoad(files, parsed.data, { discard: taken.remove, refused: taken.giveBack, skipped }));
        } catch (err) {
          if (!(err instanceof ApiProblem && err.status === 409)) await taken.giveBack().catch(() => undefined);
          throw err;
        }
      }

      const maxBytes = maxUploadBytesOf(c.var.deps);
      // No table chosen: the one the file's name names (Employee.csv → Employee).
      const formOf = (fields: Readonly<Record<string, string>>, fileName: string | undefined) =>
        loadFormSchema.safeParse({
          table: fields.table?.trim() || (fileName === undefined ? undefined : tableNameOf(fileName)),
          // Absent: the defaults; sent empty (no option of the form): refused at the field, never read as the first option.
          mode: fields.mode,
          onRejected: fields.onRejected,
        });
      // The load started as its file arrives: every choice of the form came before the file (a browser
      // sends the fields in the form's order) and the body's declared length fits. Then the backup and
      // the reading of the file go along with the upload, not after it (decision 016).
      const declared = Number(c.req.header("content-length"));
      let early: { arrival: ArrivingFile; file: ReceivedFile; loadId: string; job: { id: string } } | undefined;
      const startEarly = (part: { name: string; path: string }, fields: Readonly<Record<string, string>>) =>
        echoingChoices(fields, CHOICE_FIELDS, async () => {
          // A form for several files (the portal's "Multiple files") is received whole: a second file would
          // refuse a load already started, and leave it in the history.
          if (!LOAD_FORM_FIELDS.every((name) => name in fields) || fields.uploadType === "MultipleFiles") return undefined;
          const form = formOf(fields, part.name);
          const table = form.success ? tableNamed((await dictionaryOf(db, workspace.id)).tables, form.data.table) : null;
          // A form refused is refused once the upload is in, with every field's message, as before.
          if (!form.success || !table) return undefined;
          const arrival = new ArrivingFile();
          const file = { path: part.path, name: part.name, size: declared };
          early = { arrival, file, ...(await startLoad([{ file, table, arriving: arrival.shared }], form.data, {})) };
          return arrival;
        });
      const fits = Number.isSafeInteger(declared) && declared > 0 && declared <= maxBytes;
      let upload: Awaited<ReturnType<typeof receiveUpload>>;
      try {
        upload = await receiveEchoingChoices(c.req.raw, dataDir, maxBytes, fits ? startEarly : undefined);
      } catch (err) {
        // The load reading it fails, and says the upload stopped: nothing is loaded.
        early?.arrival.stop();
        throw err;
      }
      return echoingChoices(upload.fields, CHOICE_FIELDS, async () => {
        if (early) {
          try {
            if (upload.files.length > 1) throw validationProblem({ file: [SEVERAL_FILES_MESSAGE] });
            early.file.size = upload.file!.size;
            await setLoadFileBytes(db, early.loadId, early.file.size);
            early.arrival.complete(early.file.size);
            return await started(early);
          } finally {
            // Refused after all: the load stops, the files go (the job's too, as its end would).
            if (!early.arrival.ended) {
              early.arrival.stop();
              upload.remove();
            }
          }
        }
        let loading = false;
        try {
          const file = upload.file;
          const form = formOf(upload.fields, file?.name);
          const fieldErrors = form.success ? {} : fieldErrorsOf(form.error.issues, "form");
          if (upload.files.length > 1) fieldErrors.file = [SEVERAL_FILES_MESSAGE];
          else if (!file) fieldErrors.file = [CHOOSE_LOAD_FILE_MESSAGE];
          else if (file.size === 0) fieldErrors.file = ["The file is empty"];
          if (!form.success || !file || fieldErrors.file) throw validationProblem(fieldErrors);
          const { tables } = await dictionaryOf(db, workspace.id);
          const load = await startLoad([{ file, table: tableOf(tables, form.data.table) }], form.data, {});
          loading = true;
          return await started(load);
        } finally {
          // The job owns the file once started; else it goes now.
          if (!loading) upload.remove();
        }
      });
    })
    .openapi(stage, async (c) => {
      const { workspace } = await requireWorkspace(c, kind, c.req.valid("param").id, { write: true });
      requireDatabases(workspace);
      const { db, dataDir } = c.var.deps;
      const maxBytes = maxUploadBytesOf(c.var.deps);
      // Previews nobody loaded go as new ones come: no timer needed.
      await removeExpiredStaged(dataDir, new Date(Date.now() - STAGED_UPLOAD_TTL_MS));
      const upload = await receiveEchoingChoices(c.req.raw, dataDir, maxBytes);
      let stagedId: string | undefined;
      try {
        return await echoingChoices(upload.fields, CHOICE_FIELDS, async () => {
          const uploadType = upload.fields.uploadType || workspace.upload_type || "SingleFile";
          if (!UPLOAD_TYPES.includes(uploadType as (typeof UPLOAD_TYPES)[number])) throw validationProblem({ uploadType: ["Choose an upload type"] });
          const files = upload.files;
          if (files.length === 0) throw validationProblem({ file: [CHOOSE_LOAD_FILE_MESSAGE] });
          const empty = files.find((f) => f.size === 0);
          if (empty) throw validationProblem({ file: [files.length === 1 ? "The file is empty" : `The file ${empty.name} is empty`] });
          if (uploadType === "SingleFile" && files.length > 1)
            throw validationProblem({ file: ["Choose one file, or choose Multiple files to load several at once"] });
          const choices = stageChoicesSchema.safeParse({ mode: upload.fields.mode, onRejected: upload.fields.onRejected });
          if (!choices.success) throw validationProblem(fieldErrorsOf(choices.error.issues, "form"));
          const dictionary = await dictionaryOf(db, workspace.id);
          const chosen = upload.fields.table?.trim();
          if (chosen) tableOf(dictionary.tables, chosen);
          if (uploadType === "SingleFile" && files.some(isZip))
            throw validationProblem({ file: ["A .zip holds several files: choose Multiple files to load it"] });
          const staged = await stageFiles(dataDir, files);
          stagedId = staged.id;
          const unpacked = await unpackZips(staged, maxBytes);
          // Each file's table: the one chosen for a single file, else the one its name names (Employee.csv → Employee).
          const matched = unpacked.map((f) => ({
            name: f.name,
            size: f.size,
            path: f.path,
            table: uploadType === "SingleFile" && chosen ? chosen : tableNameOf(f.name),
          }));
          oneFilePerTable(matched.map((f) => ({ name: f.name, table: tableNamed(dictionary.tables, f.table)?.name ?? null })));
          const manifest = await previewed(dataDir, workspace, dictionary, {
            id: staged.id,
            projectId: workspace.id,
            userId: c.var.caller.userId,
            createdAt: new Date().toISOString(),
            multipleFiles: uploadType === "MultipleFiles",
            ...choices.data,
            files: matched,
          });
          const preview = manifest.preview;
          stagedId = undefined;
          return c.json(preview, 201);
        });
      } finally {
        upload.remove();
        if (stagedId) await removeStaged(dataDir, stagedId);
      }
    })
    .openapi(stagedOne, async (c) => {
      const { id, uploadId } = c.req.valid("param");
      const { workspace } = await requireWorkspace(c, kind, id, { write: false });
      const manifest = await readManifest(c.var.deps.dataDir, workspace.id, uploadId);
      if (!manifest) throw new NotFoundError(STAGED_UPLOAD_GONE_MESSAGE);
      // Read again when what it was read with changed since (the parameters, or the dictionary: a
      // column added from this preview, say); else as it was.
      // The version alone says whether the dictionary changed: its tables are read only to read the files again.
      const version = (await findProjectDictionaryRef(c.var.deps.db, workspace.id))?.version ?? 0;
      if (manifest.dictionaryVersion === version && JSON.stringify(manifest.parameters) === JSON.stringify(parametersOf(workspace)))
        return c.json(manifest.preview, 200);
      return c.json((await previewed(c.var.deps.dataDir, workspace, await dictionaryOf(c.var.deps.db, workspace.id), manifest)).preview, 200);
    })
    .openapi(one, async (c) => {
      const { id, loadId } = c.req.valid("param");
      const { workspace } = await requireWorkspace(c, kind, id, { write: false });
      const load = await findLoad(c.var.deps.db, workspace.id, loadId);
      if (!load) throw new NotFoundError(LOAD_NOT_FOUND_MESSAGE);
      return c.json(load, 200);
    });
}

/** The staged files with each .zip replaced by the files it holds (the archive itself removed). */
async function unpackZips(staged: { dir: string; files: ReceivedFile[] }, maxBytes: number): Promise<ReceivedFile[]> {
  const files: ReceivedFile[] = [];
  for (const [i, file] of staged.files.entries()) {
    if (!isZip(file)) {
      files.push(file);
      continue;
    }
    try {
      files.push(...(await unzipUpload(file, staged.dir, `zip${i}`, maxBytes)));
    } catch (err) {
      if (err instanceof FlatFileProblem) throw validationProblem({ file: [err.message] });
      throw err;
    }
    await fs.promises.rm(file.path, { force: true });
  }
  const names = new Set<string>();
  for (const f of files) {
    if (names.has(f.name.toLowerCase())) throw validationProblem({ file: [`Two files are named ${f.name}: each table takes one file`] });
    names.add(f.name.toLowerCase());
  }
  return files;
}

/** The table a file's name names: its name without its extension (Employee.csv → Employee), matched to the dictionary's in any case. */
function tableNameOf(fileName: string): string {
  return fileName.replace(/\.[^.]*$/, "");
}

/**
 * Refuses (400 at the file) files of one upload that go into the same table of the dictionary
 * (Customers.csv and customers.txt): a load fills each table from one file.
 */
function oneFilePerTable(files: readonly { name: string; table: string | null }[]) {
  const byTable = new Map<string, string>();
  for (const f of files) {
    if (f.table === null) continue;
    const first = byTable.get(f.table.toLowerCase());
    if (first === undefined) byTable.set(f.table.toLowerCase(), f.name);
    else throw validationProblem({ file: [`${first} and ${f.name} both go into the table ${f.table}: each table takes one file. Leave one of them out`] });
  }
}
