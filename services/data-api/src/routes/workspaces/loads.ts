/**
 * Flat-file loads into a workspace's source database (issue 9 §2), for projects and configurations
 * alike: upload and start a load (202: it runs as a job), and one load. Their history, with each
 * table's rejected rows, is history.ts's.
 */
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { loadFormSchema, loadSchema } from "../../../../../contracts/loads.ts";
import { LOAD_MODES, ON_REJECTED } from "../../../../../contracts/values/loads.ts";
import { DEFAULT_FLAT_FILE_PARAMETERS } from "../../../../../contracts/values/projects.ts";
import type { WorkspaceDescriptor } from "../../../../../contracts/workspaces.ts";
import { ApiProblem, NotFoundError } from "../../api-problem.ts";
import { startFlatFileLoad, LOAD_START_STATUSES } from "../../data-plane/flat-file/flat-file-load.ts";
import { receiveUpload, uploadsTmpDir } from "../../dictionary-bulk/receive-upload.ts";
import { JobRefusedError } from "../../jobs/start-job.ts";
import { createRouter, fieldErrorsOf, jsonContent } from "../../openapi.ts";
import { findProjectDictionaryRef } from "../../repositories/dictionaries.ts";
import { readTables } from "../../repositories/dictionary-tables.ts";
import { flatFileParametersOf } from "../../repositories/projects.ts";
import { findLoad } from "../../repositories/loads.ts";
import { requireWorkspace } from "../../workspace-access.ts";
import { collectionPath, jobDeps, readErrorsOf, writeErrorsOf } from "./shared.ts";
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

export const CHOOSE_LOAD_FILE_MESSAGE = "Choose a file to load";
export const LOAD_NOT_FOUND_MESSAGE = "No such load.";

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
    ].join(" "),
    // A plain schema object, not Zod: the route reads the body itself, as a stream (receiveUpload).
    request: { params: idParams, body: { required: true, content: { "multipart/form-data": { schema: LOAD_BODY } } } },
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
  return createRouter()
    .openapi(start, async (c) => {
      const { workspace } = await requireWorkspace(c, kind, c.req.valid("param").id, { write: true });
      // Refused before the body is read: a file of gigabytes is not received to answer 409.
      const serverId = workspace.database_server;
      if (!serverId || !LOAD_START_STATUSES.includes(workspace.status as (typeof LOAD_START_STATUSES)[number])) {
        throw new ApiProblem(409, "not_ready", `The ${noun}'s databases are not created yet: create them first.`);
      }
      const { db, dataPlane } = c.var.deps;
      const maxBytes = maxUploadBytesOf(c.var.deps);
      const upload = await receiveUpload(c.req.raw, uploadsTmpDir(c.var.deps.dataDir), maxBytes, uploadTooLargeMessage(maxBytes));
      let started = false;
      try {
        const form = loadFormSchema.safeParse({ table: upload.fields.table, mode: upload.fields.mode || undefined, onRejected: upload.fields.onRejected || undefined });
        const fieldErrors = form.success ? {} : fieldErrorsOf(form.error.issues, "form");
        const file = upload.file;
        if (!file || file.name === "") fieldErrors.file = [CHOOSE_LOAD_FILE_MESSAGE];
        else if (file.size === 0) fieldErrors.file = ["The file is empty"];
        if (!form.success || !file || fieldErrors.file) {
          const [first] = Object.values(fieldErrors).flat();
          throw new ApiProblem(400, "validation_failed", first ?? "Invalid", fieldErrors);
        }
        const dictionary = await findProjectDictionaryRef(db, workspace.id);
        const tables = dictionary ? await readTables(db, dictionary.id) : [];
        const table = tables.find((t) => t.name.toLowerCase() === form.data.table.toLowerCase());
        if (!table) throw new ApiProblem(400, "validation_failed", `The ${noun}'s dictionary has no table '${form.data.table}'`, { table: [`The ${noun}'s dictionary has no table '${form.data.table}'`] });
        try {
          const { loadId, job } = await startFlatFileLoad({ ...jobDeps(c), dataPlane }, kind, {
            projectId: workspace.id,
            serverId,
            userId: c.var.caller.userId,
            file: { path: file.path, name: file.name, size: file.size },
            form: form.data,
            table,
            parameters: flatFileParametersOf(workspace) ?? DEFAULT_FLAT_FILE_PARAMETERS,
          });
          started = true;
          const load = await findLoad(db, workspace.id, loadId);
          return c.json({ load: load!, jobId: job.id }, 202);
        } catch (err) {
          if (err instanceof JobRefusedError) throw new ApiProblem(409, "project_locked", err.message);
          throw err;
        }
      } finally {
        // The job owns the file once started; else it goes now.
        if (!started) upload.remove();
      }
    })
    .openapi(one, async (c) => {
      const { id, loadId } = c.req.valid("param");
      const { workspace } = await requireWorkspace(c, kind, id, { write: false });
      const load = await findLoad(c.var.deps.db, workspace.id, loadId);
      if (!load) throw new NotFoundError(LOAD_NOT_FOUND_MESSAGE);
      return c.json(load, 200);
    });
}
