import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { attachment } from "../../../../shared/content-disposition.ts";
import type { Table } from "../../../../../contracts/dictionary.ts";
import { translationDetailSchema, translationPageSchema, translationQuerySchema, translationSchema } from "../../../../../contracts/mappings.ts";
import { DEFAULT_FLAT_FILE_PARAMETERS } from "../../../../../contracts/values/flat-files.ts";
import { WORKSPACES } from "../../../../../contracts/workspaces.ts";
import { ApiProblem, NotFoundError, validationProblem } from "../../api-problem.ts";
import { maxUploadBytesOf, uploadTooLargeMessage } from "../../body-limits.ts";
import { DelimitedFormatError } from "../../data-plane/flat-file/read-delimited.ts";
import { FlatFileProblem, readFlatFile } from "../../data-plane/flat-file/read-flat-file.ts";
import { receiveUpload, uploadsTmpDir } from "../../dictionary-bulk/receive-upload.ts";
import { createRouter, jsonContent } from "../../openapi.ts";
import { nameKey } from "../../repositories/db-helpers.ts";
import { findProjectDictionaryRef } from "../../repositories/dictionaries.ts";
import { tablesNamed } from "../../repositories/dictionary-tables.ts";
import * as store from "../../repositories/translations.ts";
import { findMappingTable, valuesAfter } from "../../repositories/value-maps.ts";
import { translationFileProblem } from "../../translations/file-problem.ts";
import { matchTranslationColumns, translationHeaderProblem } from "../../translations/header-problem.ts";
import { translateInWorker } from "../../translations/translate-in-worker.ts";
import type { TranslateRequest } from "../../translations/translate-messages.ts";
import { requireWorkspace } from "../../workspace-access.ts";
import type { AnyContext } from "../dictionaries/shared.ts";
import { collectionPath, readErrorsOf, writeErrorsOf } from "./shared.ts";

/**
 * "Translate a file" (issue 12): a client's file of a described table, uploaded, is translated with
 * the table's value maps in a worker thread; its row shows the progress, then the report (unmapped
 * values per column, rows rejected by the rules), and the translated CSV is downloaded from here.
 */

const descriptor = WORKSPACES.translation;
const BASE = `${collectionPath(descriptor)}/{id}/translations`;
const TAGS = ["Translations"];
const idParams = z.object({ id: z.string().min(1) });
const translationParams = idParams.extend({ translationId: z.string().min(1) });

const start = createRoute({
  method: "post",
  path: BASE,
  tags: TAGS,
  summary: "Translate a file of a described table (runs in the background)",
  description:
    "multipart/form-data: `file` (.csv, .txt, .dta or .xlsx; delimiter and encoding detected), `table` (a table of the file data structure, any case; else the file's name), `hasHeaderRow` (default true). " +
    "A header naming a column the table lacks, or a file without the translated columns, is a 400 at `file` and nothing starts. The answer (202) is the translation, Running; GET it for its progress and report.",
  request: { params: idParams },
  responses: { 202: jsonContent(translationSchema, "The translation, started."), ...writeErrorsOf(descriptor) },
});
const list = createRoute({
  method: "get",
  path: BASE,
  tags: TAGS,
  summary: "The mapping project's translations, newest first, a page at a time",
  request: { params: idParams, query: translationQuerySchema },
  responses: { 200: jsonContent(translationPageSchema, "A page of translations."), 400: { description: "A bad query." }, ...readErrorsOf(descriptor) },
});
const get = createRoute({
  method: "get",
  path: `${BASE}/{translationId}`,
  tags: TAGS,
  summary: "A translation: its progress while it runs, then its counts and report",
  description: "`tableId`: the id of its table in the file data structure now (null when no table has that name any more), for the way to its value maps.",
  request: { params: translationParams },
  responses: { 200: jsonContent(translationDetailSchema, "The translation."), ...readErrorsOf(descriptor) },
});
const file = createRoute({
  method: "get",
  path: `${BASE}/{translationId}/file`,
  tags: TAGS,
  summary: "The translated file (CSV), streamed",
  description: "409 while the translation runs, or when it failed.",
  request: { params: translationParams },
  responses: { 200: { description: "text/csv", content: { "text/csv": { schema: z.string() } } }, ...readErrorsOf(descriptor) },
});

export function createTranslationFileRoutes() {
  return createRouter()
    .openapi(start, async (c) => {
      const { workspace } = await requireWorkspace(c, "translation", c.req.valid("param").id, { write: true });
      const { db, dataDir } = c.var.deps;
      const dictionary = await findProjectDictionaryRef(db, workspace.id);
      if (!dictionary) throw new NotFoundError(descriptor.notFoundMessage);
      const maxBytes = maxUploadBytesOf(c.var.deps);
      const upload = await receiveUpload(c.req.raw, uploadsTmpDir(dataDir), maxBytes, uploadTooLargeMessage(maxBytes));
      let started = false;
      try {
        const received = upload.file;
        if (!received) throw validationProblem({ file: ["Choose the file to translate"] });
        if (received.size === 0) throw validationProblem({ file: ["The file is empty"] });
        const wanted = nameKey(upload.fields.table?.trim() || received.name.replace(/\.[^.]*$/, ""));
        // The one table named (any case), read by its name key: not the whole dictionary.
        const table = (await tablesNamed(db, dictionary.id, [wanted])).get(wanted);
        if (!table) throw validationProblem({ table: ["Choose a table of the file data structure"] });
        const columns = (await findMappingTable(db, dictionary.id, table.id))!.columns.filter((col) => col.translate);
        if (columns.length === 0) throw validationProblem({ table: [`No column of ${table.name} is translated: mark its coded columns "Translate" first`] });
        const extension = /\.xlsx$/i.test(received.name) ? ".xlsx" : ".csv";
        const parameters = {
          ...DEFAULT_FLAT_FILE_PARAMETERS,
          extension,
          delimiter: extension === ".xlsx" ? "Excel" : "AutoDetect",
          hasHeaderRow: upload.fields.hasHeaderRow !== "false",
          columnWidths: {},
        } as const;
        await checkColumns(
          received.path,
          parameters,
          table,
          columns.map((col) => col.name),
        );
        const request: TranslateRequest = {
          path: received.path,
          outPath: store.translatedFilePath(dataDir, "pending"),
          parameters,
          table,
          translated: await Promise.all(
            columns.map(async (col) => ({ name: col.name, rule: col.unmappedRule, defaultValue: col.defaultValue, pairs: await mappedPairs(c, col.id) })),
          ),
        };
        const id = await store.createTranslation(db, {
          projectId: workspace.id,
          tableName: table.name,
          fileName: received.name,
          bytesTotal: received.size,
          userId: c.var.caller.userId,
        });
        request.outPath = store.translatedFilePath(dataDir, id);
        await fs.promises.mkdir(path.dirname(request.outPath), { recursive: true });
        // Not awaited: the answer is the running translation; the upload goes when the worker is done.
        void translateInWorker(c.var.deps, id, request, () => upload.remove());
        started = true;
        return c.json((await store.findTranslation(db, workspace.id, id))!, 202);
      } finally {
        if (!started) upload.remove();
      }
    })
    .openapi(list, async (c) => {
      const { workspace } = await requireWorkspace(c, "translation", c.req.valid("param").id, { write: false });
      return c.json(await store.listTranslations(c.var.deps.db, workspace.id, c.req.valid("query")), 200);
    })
    .openapi(get, async (c) => {
      const params = c.req.valid("param");
      const { workspace } = await requireWorkspace(c, "translation", params.id, { write: false });
      const { db } = c.var.deps;
      const [found, dictionary] = await Promise.all([
        store.findTranslation(db, workspace.id, params.translationId),
        findProjectDictionaryRef(db, workspace.id),
      ]);
      if (!found) throw new NotFoundError(store.TRANSLATION_NOT_FOUND_MESSAGE);
      const table = dictionary && (await tablesNamed(db, dictionary.id, [found.tableName])).get(nameKey(found.tableName));
      return c.json({ ...found, tableId: table?.id ?? null }, 200);
    })
    .openapi(file, async (c) => {
      const params = c.req.valid("param");
      const { workspace } = await requireWorkspace(c, "translation", params.id, { write: false });
      const found = await store.findTranslation(c.var.deps.db, workspace.id, params.translationId);
      if (!found) throw new NotFoundError(store.TRANSLATION_NOT_FOUND_MESSAGE);
      if (found.status !== "Completed")
        throw new ApiProblem(
          409,
          "not_ready",
          found.status === "Running"
            ? "This translation is still running: its file can be downloaded once it is done."
            : "This translation failed, so there is nothing to download.",
        );
      const at = store.translatedFilePath(c.var.deps.dataDir, found.id);
      if (!fs.existsSync(at)) throw new NotFoundError("The translated file is no longer kept. Translate the file again.");
            return new Response(Readable.toWeb(fs.createReadStream(at)) as ReadableStream, {
        status: 200,
        headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": attachment(`${found.fileName.replace(/\.[^.]*$/, "")}-translated.csv`) },
      }) as never;
    });
}

/**
 * The column's mapped pairs, handed to the worker: read a page at a time by source value (keyset), so
 * the data API's thread is never held by one long query however large the map.
 */
async function mappedPairs(c: AnyContext, columnId: string): Promise<[string, string][]> {
  const pairs: [string, string][] = [];
  let after: string | null = null;
  for (;;) {
    const rows = await valuesAfter(c.var.deps.db, columnId, after, PAIRS_PAGE);
    for (const r of rows) if (r.target_value !== null) pairs.push([r.source_value, r.target_value]);
    if (rows.length < PAIRS_PAGE) return pairs;
    after = rows[rows.length - 1]!.source_value;
  }
}

const PAIRS_PAGE = 2_000;

/** Refuses (400 at `file`) a file whose header the table cannot match, or that lacks a translated column: before anything starts. */
async function checkColumns(at: string, parameters: Parameters<typeof readFlatFile>[1], table: Table, translated: string[]) {
  try {
    const reading = await readFlatFile(at, parameters, table);
    const first = await reading.records.next();
    await reading.records.return(undefined);
    if (first.done) throw validationProblem({ file: ["The file is empty"] });
    const match = matchTranslationColumns(parameters.hasHeaderRow ? first.value.cells : null, table.columns, first.value.cells.length);
    const problem = parameters.hasHeaderRow ? translationHeaderProblem(first.value.cells, match, table.name) : null;
    if (problem) throw validationProblem({ file: [problem] });
    const missing = translated.filter((name) => !match.positions.some((p) => p?.name.toLowerCase() === name.toLowerCase()));
    if (missing.length) throw validationProblem({ file: [`The file has no column ${missing.join(", ")}: the columns to translate must be in it`] });
  } catch (err) {
    if (err instanceof FlatFileProblem) throw validationProblem({ file: [translationFileProblem(err.message)] });
    if (err instanceof DelimitedFormatError) throw validationProblem({ file: [`The file could not be read: ${err.message}`] });
    throw err;
  }
}
