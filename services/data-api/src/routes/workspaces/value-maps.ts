import { createRoute } from "@hono/zod-openapi";
import { stream } from "hono/streaming";
import { z } from "zod";
import { attachment } from "../../../../shared/content-disposition.ts";
import {
  addValueSchema,
  applyImportSchema,
  columnSettingsSchema,
  describedTableSchema,
  mappingTableSchema,
  sampleResultSchema,
  saveValuesSchema,
  sourceValueProblem,
  valueMapImportSchema,
  valueMapPageSchema,
  valueMapQuerySchema,
} from "../../../../../contracts/mappings.ts";
import { identifierSchema } from "../../../../../contracts/common.ts";
import { DEFAULT_FLAT_FILE_PARAMETERS } from "../../../../../contracts/values/flat-files.ts";
import { VALUE_MAP_CSV_HEADER, VALUE_MAP_IMPORT_MAX_ROWS, VALUE_MAX_LENGTH } from "../../../../../contracts/values/mappings.ts";
import { WORKSPACES } from "../../../../../contracts/workspaces.ts";
import { ApiProblem, NotFoundError, validationProblem } from "../../api-problem.ts";
import { maxUploadBytesOf, uploadTooLargeMessage } from "../../body-limits.ts";
import { FlatFileProblem, readFlatFile } from "../../data-plane/flat-file/read-flat-file.ts";
import { DelimitedFormatError, readDelimitedRecords } from "../../data-plane/flat-file/read-delimited.ts";
import { readFileText } from "../../data-plane/flat-file/text-encoding.ts";
import { echoingChoices, receiveUpload, uploadsTmpDir, type ReceivedUpload } from "../../dictionary-bulk/receive-upload.ts";
import { createRouter, jsonBody, jsonContent } from "../../openapi.ts";
import { csvLine } from "../../translations/csv-line.ts";
import { translationFileProblem } from "../../translations/file-problem.ts";
import { matchTranslationColumns, translationHeaderProblem } from "../../translations/header-problem.ts";
import { findProjectDictionaryRef } from "../../repositories/dictionaries.ts";
import { createTable, readTables } from "../../repositories/dictionary-tables.ts";
import { columnName, describeSample, TYPE_SAMPLE_ROWS } from "../../translations/describe-sample.ts";
import * as maps from "../../repositories/value-maps.ts";
import { inTransaction } from "../../repositories/db-helpers.ts";
import { requireWorkspace } from "../../workspace-access.ts";
import type { AnyContext } from "../dictionaries/shared.ts";
import { collectionPath, readErrorsOf, writeErrorsOf } from "./shared.ts";

/**
 * A mapping project's value maps (issue 12): per column of its file data structure, whether it is
 * translated and what happens to an unmapped value; the column's distinct source values with their
 * targets (listed, edited in bulk, exported and imported as CSV, discovered from sample files).
 * Guarded as every mapping project route is (requireWorkspace "translation"); a table or column of
 * another project answers 404 like an unknown one.
 */

const descriptor = WORKSPACES.translation;
const BASE = `${collectionPath(descriptor)}/{id}`;
const TAGS = ["Value maps"];
const readErrors = readErrorsOf(descriptor);
const writeErrors = writeErrorsOf(descriptor);
const tableParams = z.object({ id: z.string().min(1), tableId: z.string().min(1) });
const columnParams = z.object({ id: z.string().min(1), columnId: z.string().min(1) });
const importParams = columnParams.extend({ importId: z.string().min(1) });
/**
 * `?tableId=`: the table a write's column belongs to, as the page that sends it names it (…/mappingTable/{id}/column/{columnId}).
 * A column of another table of the project then answers 404, as an unknown one: that page's write is not this column's.
 */
const inTableQuery = z.object({ tableId: z.string().min(1).optional() });

/** The most distinct values a sample may add to one column: more is not a code to translate. */
export const SAMPLE_DISTINCT_MAX = VALUE_MAP_IMPORT_MAX_ROWS;

async function dictionaryOf(c: AnyContext, id: string, write: boolean) {
  const { workspace } = await requireWorkspace(c, "translation", id, { write });
  const dictionary = await findProjectDictionaryRef(c.var.deps.db, workspace.id);
  if (!dictionary) throw new NotFoundError(descriptor.notFoundMessage);
  return { workspace, dictionaryId: dictionary.id };
}

/**
 * The column of the project named, and for a write of the table its page names (`?tableId=`, inTableQuery, which
 * every write route declares; read here, so that no write's handler leaves it out) when it names one: else 404.
 */
async function columnOf(c: AnyContext, params: { id: string; columnId: string }, write: boolean) {
  const tableId = write ? tableNamedBy(c) : undefined;
  const { workspace, dictionaryId } = await dictionaryOf(c, params.id, write);
  const ref = await maps.findMappingColumn(c.var.deps.db, dictionaryId, params.columnId);
  if (!ref || (tableId !== undefined && ref.tableId !== tableId)) throw new NotFoundError(maps.COLUMN_NOT_FOUND_MESSAGE);
  return { workspace, ref, writer: { projectId: workspace.id, userId: c.var.caller.userId } };
}

function tableNamedBy(c: AnyContext): string | undefined {
  const query = c.req.valid("query") as z.output<typeof inTableQuery> | undefined;
  // A write route without inTableQuery would skip the check unseen: a mistake of this file, not of the request.
  if (!query) throw new Error(`a write of a column is declared without inTableQuery: ${c.req.method} ${c.req.routePath}`);
  return query.tableId;
}

const getTable = createRoute({
  method: "get",
  path: `${BASE}/mapping-tables/{tableId}`,
  tags: TAGS,
  summary: "A table of the file data structure with its columns' maps",
  request: { params: tableParams },
  responses: { 200: jsonContent(mappingTableSchema, "The table, its columns in the file's order."), ...readErrors },
});
const putSettings = createRoute({
  method: "put",
  path: `${BASE}/mapping-columns/{columnId}/settings`,
  tags: TAGS,
  summary: "Translate a column or not, and what happens to an unmapped value",
  description: "Based on the column's map `version` (0 for a map never written): a stale one answers 409. A default value must fit the column.",
  request: { params: columnParams, query: inTableQuery, body: jsonBody(columnSettingsSchema) },
  responses: { 200: jsonContent(mappingTableSchema, "The column's table after."), ...writeErrors },
});
const listValues = createRoute({
  method: "get",
  path: `${BASE}/mapping-columns/{columnId}/values`,
  tags: TAGS,
  summary: "A page of the column's values: unmapped first, then by source value",
  request: { params: columnParams, query: valueMapQuerySchema },
  responses: { 200: jsonContent(valueMapPageSchema, "One page, with the total and the column."), ...readErrors },
});
const saveValues = createRoute({
  method: "post",
  path: `${BASE}/mapping-columns/{columnId}/values`,
  tags: TAGS,
  summary: "Save source → target pairs (an empty target unmaps); new source values are added",
  description: "All or none, based on the map's `version`. Every target must fit the column (400 at `values` naming it).",
  request: { params: columnParams, query: inTableQuery, body: jsonBody(saveValuesSchema) },
  responses: { 200: jsonContent(valueMapPageSchema.shape.column, "The column after."), ...writeErrors },
});
const addValue = createRoute({
  method: "post",
  path: `${BASE}/mapping-columns/{columnId}/values/add`,
  tags: TAGS,
  summary: "Add a source value with its target (or unmapped); one the map holds already is refused, never overwritten",
  description:
    "Based on the map's `version`. The source value is taken as sent, spaces and all. One the map holds answers 409 at `sourceValue`, naming its target: it is changed in the list (POST …/values). The target must fit the column (400 at `targetValue`).",
  request: { params: columnParams, query: inTableQuery, body: jsonBody(addValueSchema) },
  responses: { 200: jsonContent(valueMapPageSchema.shape.column, "The column after."), ...writeErrors },
});
const exportValues = createRoute({
  method: "get",
  path: `${BASE}/mapping-columns/{columnId}/values.csv`,
  tags: TAGS,
  summary: "The map as CSV (source_value,target_value; an unmapped value has an empty target), streamed",
  request: { params: columnParams },
  responses: { 200: { description: "text/csv", content: { "text/csv": { schema: z.string() } } }, ...readErrors },
});
const importValues = createRoute({
  method: "post",
  path: `${BASE}/mapping-columns/{columnId}/imports`,
  tags: TAGS,
  summary: "Upload a map CSV to preview what it adds, changes and leaves (nothing applied yet)",
  description: `multipart/form-data with \`file\`: UTF-8 CSV whose header is exactly ${VALUE_MAP_CSV_HEADER.join(",")}, each source value once and at most ${VALUE_MAX_LENGTH.toLocaleString("en-US")} characters long, at most ${VALUE_MAP_IMPORT_MAX_ROWS.toLocaleString("en-US")} values, every target fitting the column; else 400 at \`file\` naming the line, and nothing is staged.`,
  request: { params: columnParams, query: inTableQuery },
  responses: { 201: jsonContent(valueMapImportSchema, "The preview."), ...writeErrors },
});
const getImport = createRoute({
  method: "get",
  path: `${BASE}/mapping-columns/{columnId}/imports/{importId}`,
  tags: TAGS,
  summary: "An import's preview",
  request: { params: importParams },
  responses: { 200: jsonContent(valueMapImportSchema, "The preview."), ...readErrors },
});
const applyImport = createRoute({
  method: "post",
  path: `${BASE}/mapping-columns/{columnId}/imports/{importId}/apply`,
  tags: TAGS,
  summary: "Apply an import: its pairs go into the map, all or none",
  description:
    "Based on the map's `version` as previewed: a map changed since answers 409 and nothing is applied. Its targets are checked again against the column's type as it is now: one that no longer fits answers 400 at `file` naming its line, and nothing is applied.",
  request: { params: importParams, query: inTableQuery, body: jsonBody(applyImportSchema) },
  responses: { 200: jsonContent(valueMapPageSchema.shape.column, "The column after."), ...writeErrors },
});
const discardImport = createRoute({
  method: "delete",
  path: `${BASE}/mapping-columns/{columnId}/imports/{importId}`,
  tags: TAGS,
  summary: "Discard an import without applying it",
  description: "404 when it was applied or discarded already.",
  request: { params: importParams, query: inTableQuery },
  responses: { 204: { description: "Discarded." }, ...writeErrors },
});
const addSample = createRoute({
  method: "post",
  path: `${BASE}/mapping-tables/{tableId}/samples`,
  tags: TAGS,
  summary: "Read a sample file of the table: its translated columns' values join their maps, unmapped",
  description:
    "multipart/form-data with `file` (.csv, .txt, .dta or .xlsx; delimiter and encoding detected) and `hasHeaderRow` (default true: columns matched by name, else by position). " +
    `Values already in a map keep their targets; only their counts grow. A value longer than ${VALUE_MAX_LENGTH.toLocaleString("en-US")} characters is a 400 at \`file\` naming its row and column, and no map changes.`,
  request: { params: tableParams },
  responses: { 200: jsonContent(sampleResultSchema, "What the sample held per translated column."), ...writeErrors },
});

const describeTable = createRoute({
  method: "post",
  path: `${BASE}/file-data-structure/samples`,
  tags: TAGS,
  summary: "Describe a table from a sample file: its columns from the header (or by position), types suggested from its first rows",
  description:
    "multipart/form-data with `file` (.csv, .txt, .dta or .xlsx), `table` (the new table's name; else from the file's name) and `hasHeaderRow` (default true). " +
    `Types are suggested from the first ${TYPE_SAMPLE_ROWS.toLocaleString("en-US")} rows (int, bigint, decimal, date, else nvarchar as long as the longest value). A name taken is a 409 at \`table\`.`,
  request: { params: z.object({ id: z.string().min(1) }) },
  responses: { 201: jsonContent(describedTableSchema, "The table added to the file data structure."), ...writeErrors },
});

export function createValueMapRoutes() {
  return createRouter()
    .openapi(getTable, async (c) => {
      const params = c.req.valid("param");
      const { dictionaryId } = await dictionaryOf(c, params.id, false);
      const table = await maps.findMappingTable(c.var.deps.db, dictionaryId, params.tableId);
      if (!table) throw new NotFoundError(maps.TABLE_NOT_FOUND_MESSAGE);
      return c.json(table, 200);
    })
    .openapi(putSettings, async (c) => {
      const { ref, writer } = await columnOf(c, c.req.valid("param"), true);
      const { version, ...settings } = c.req.valid("json");
      const problem = settings.defaultValue === null ? null : maps.targetProblem(ref, settings.defaultValue);
      if (problem) throw validationProblem({ defaultValue: [problem.replace("The target value", "The default value")] });
      const { db } = c.var.deps;
      await maps.saveColumnSettings(db, ref, version, settings, writer);
      const { dictionaryId } = await dictionaryOf(c, c.req.valid("param").id, false);
      return c.json((await maps.findMappingTable(db, dictionaryId, ref.tableId))!, 200);
    })
    .openapi(listValues, async (c) => {
      const { ref } = await columnOf(c, c.req.valid("param"), false);
      const page = await maps.listValues(c.var.deps.db, ref.column.id, c.req.valid("query"));
      return c.json({ ...page, column: ref.column, tableId: ref.tableId, tableName: ref.tableName }, 200);
    })
    .openapi(saveValues, async (c) => {
      const params = c.req.valid("param");
      const { ref, writer } = await columnOf(c, params, true);
      const body = c.req.valid("json");
      const seen = new Set<string>();
      const problems: string[] = [];
      for (const v of body.values) {
        if (seen.has(v.sourceValue)) problems.push(`The source value "${v.sourceValue.slice(0, 60)}" is given twice`);
        seen.add(v.sourceValue);
        const problem = v.targetValue === null ? null : maps.targetProblem(ref, v.targetValue);
        if (problem) problems.push(problem);
      }
      if (problems.length) throw validationProblem({ values: problems.slice(0, 20) });
      await maps.saveValues(c.var.deps.db, ref, body.version, body.values, writer);
      return c.json((await maps.findMappingColumn(c.var.deps.db, (await dictionaryOf(c, params.id, false)).dictionaryId, ref.column.id))!.column, 200);
    })
    .openapi(addValue, async (c) => {
      const params = c.req.valid("param");
      const { ref, writer } = await columnOf(c, params, true);
      const { version, ...value } = c.req.valid("json");
      const problem = value.targetValue === null ? null : maps.targetProblem(ref, value.targetValue);
      if (problem) throw validationProblem({ targetValue: [problem] });
      await maps.addValue(c.var.deps.db, ref, version, value, writer);
      return c.json((await maps.findMappingColumn(c.var.deps.db, (await dictionaryOf(c, params.id, false)).dictionaryId, ref.column.id))!.column, 200);
    })
    .openapi(exportValues, async (c) => {
      const { ref } = await columnOf(c, c.req.valid("param"), false);
      const { db } = c.var.deps;
            c.header("content-type", "text/csv; charset=utf-8");
      c.header("content-disposition", attachment(`${ref.tableName}-${ref.column.name}-map.csv`));
      // A page of values at a time, by source value: the map is never held whole.
      return stream(c, async (out) => {
        await out.write(csvLine(VALUE_MAP_CSV_HEADER));
        let after: string | null = null;
        for (;;) {
          const rows = await maps.valuesAfter(db, ref.column.id, after, 1000);
          if (rows.length === 0) break;
          await out.write(rows.map((r) => csvLine([r.source_value, r.target_value ?? ""])).join(""));
          after = rows[rows.length - 1]!.source_value;
        }
      }) as never;
    })
    .openapi(importValues, async (c) => {
      const params = c.req.valid("param");
      const { ref } = await columnOf(c, params, true);
      const upload = await receive(c);
      try {
        const file = upload.file;
        if (!file) throw validationProblem({ file: ["Choose a CSV file of source_value,target_value"] });
        if (file.size === 0) throw validationProblem({ file: ["The file is empty"] });
        const id = await maps.stageImport(c.var.deps.db, ref, { fileName: file.name, userId: c.var.caller.userId, rows: importRows(file.path, ref) });
        return c.json((await maps.importPreview(c.var.deps.db, ref.column.id, id))!, 201);
      } finally {
        upload.remove();
      }
    })
    .openapi(getImport, async (c) => {
      const params = c.req.valid("param");
      const { ref } = await columnOf(c, params, false);
      const preview = await maps.importPreview(c.var.deps.db, ref.column.id, params.importId);
      if (!preview) throw new NotFoundError(maps.IMPORT_GONE_MESSAGE);
      return c.json(preview, 200);
    })
    .openapi(applyImport, async (c) => {
      const params = c.req.valid("param");
      const { ref, writer } = await columnOf(c, params, true);
      const { db } = c.var.deps;
      const preview = await maps.importPreview(db, ref.column.id, params.importId);
      if (!preview) throw new NotFoundError(maps.IMPORT_GONE_MESSAGE);
      const { version } = c.req.valid("json");
      // The preview showed the map at its base version: applying it to another map would do what nobody saw.
      if (version !== preview.baseVersion) throw await maps.staleMap(db, ref.column, writer.userId);
      await maps.applyImport(db, ref, preview.id, version, writer);
      return c.json((await maps.findMappingColumn(db, (await dictionaryOf(c, params.id, false)).dictionaryId, ref.column.id))!.column, 200);
    })
    .openapi(discardImport, async (c) => {
      const params = c.req.valid("param");
      const { ref } = await columnOf(c, params, true);
      // One applied meanwhile (another tab) is not "discarded": its pairs are in the map.
      if (!(await maps.discardImport(c.var.deps.db, ref.column.id, params.importId))) throw new NotFoundError(maps.IMPORT_GONE_MESSAGE);
      return c.body(null, 204);
    })
    .openapi(describeTable, async (c) => {
      const { workspace, dictionaryId } = await dictionaryOf(c, c.req.valid("param").id, true);
      const upload = await receive(c);
      try {
        return await echoingChoices(upload.fields, SAMPLE_TABLE_CHOICES, async () => {
          const file = upload.file;
          if (!file) throw validationProblem({ file: ["Choose a sample file of the table"] });
          if (file.size === 0) throw validationProblem({ file: ["The file is empty"] });
          // A name the user typed is checked as Define a table checks it; only one taken from the file's name is cleaned.
          const typed = upload.fields.table?.trim() ? identifierSchema.safeParse(upload.fields.table) : null;
          if (typed && !typed.success) throw validationProblem({ table: typed.error.issues.map((i) => i.message) });
          const name = typed ? typed.data : columnName(file.name.replace(/\.[^.]*$/, ""), 0);
          let described;
          try {
            described = await describeSample(file.path, file.name, name, upload.fields.hasHeaderRow !== "false");
          } catch (err) {
            if (err instanceof FlatFileProblem) throw fileProblem(translationFileProblem(err.message));
            if (err instanceof DelimitedFormatError) throw fileProblem(`The file could not be read: ${err.message}`);
            throw err;
          }
          if (described.columns.length === 0) throw fileProblem("The file is empty");
          const { db } = c.var.deps;
          // The version as it is now: describing a table adds one, whatever was edited before.
          const dictionary = await findProjectDictionaryRef(db, workspace.id);
          try {
            const { tableId } = await createTable(db, dictionaryId, described, { expectedVersion: dictionary!.version, userId: c.var.caller.userId });
            return c.json({ tableId, name: described.name, columnCount: described.columns.length }, 201);
          } catch (err) {
            // The dictionary's own refusals (a name taken) belong next to the table's name here.
            if (err instanceof ApiProblem && err.status === 409) throw new ApiProblem(409, err.code, err.message, { table: [err.message] });
            throw err;
          }
        });
      } finally {
        upload.remove();
      }
    })
    .openapi(addSample, async (c) => {
      const params = c.req.valid("param");
      const { workspace, dictionaryId } = await dictionaryOf(c, params.id, true);
      const { db } = c.var.deps;
      const table = (await readTables(db, dictionaryId)).find((t) => t.id === params.tableId);
      if (!table) throw new NotFoundError(maps.TABLE_NOT_FOUND_MESSAGE);
      const upload = await receive(c);
      try {
        const file = upload.file;
        if (!file) throw validationProblem({ file: ["Choose a sample file of the table"] });
        if (file.size === 0) throw validationProblem({ file: ["The file is empty"] });
        const translated = (await maps.findMappingTable(db, dictionaryId, table.id))!.columns.filter((col) => col.translate);
        if (translated.length === 0)
          throw validationProblem({ file: [`Mark at least one column of ${table.name} "Translate" first: a sample adds the values of translated columns.`] });
        const hasHeaderRow = upload.fields.hasHeaderRow !== "false";
        const counted = await countSampleValues(
          file.path,
          file.name,
          table,
          translated.map((t) => t.name),
          hasHeaderRow,
        );
        const writer = { projectId: workspace.id, userId: c.var.caller.userId };
        const columns = await inTransaction(db, async (trx) => {
          const result = [];
          for (const column of translated) {
            const counts = counted.values.get(column.name.toLowerCase())!;
            const ref = (await maps.findMappingColumn(trx, dictionaryId, column.id))!;
            await maps.claimForSample(trx, ref, ref.column.version, writer);
            await maps.addSampleValues(trx, column.id, counts, writer);
            const after = (await maps.findMappingColumn(trx, dictionaryId, column.id))!.column;
            result.push({ id: column.id, name: column.name, distinct: counts.size, added: after.distinctCount - ref.column.distinctCount });
          }
          return result;
        });
        return c.json({ fileName: file.name, rows: counted.rows, columns }, 200);
      } finally {
        upload.remove();
      }
    });
}

async function receive(c: AnyContext): Promise<ReceivedUpload> {
  const maxBytes = maxUploadBytesOf(c.var.deps);
  return receiveUpload(c.req.raw, uploadsTmpDir(c.var.deps.dataDir), maxBytes, uploadTooLargeMessage(maxBytes));
}

const fileProblem = (message: string) => validationProblem({ file: [message] });
/** The Describe a table form's choices besides its file: a refusal gives them back. */
const SAMPLE_TABLE_CHOICES = ["table", "hasHeaderRow"] as const;

/**
 * The rows of a map CSV, checked as they are read (the header, one source value per line, each
 * once, the limit, each target fitting the column): the first problem stops the import, naming its line.
 */
async function* importRows(path: string, ref: maps.MappingColumnRef): AsyncGenerator<{ line: number; sourceValue: string; targetValue: string | null }> {
  const seen = new Map<string, number>();
  let header = false;
  try {
    const text = await readFileText(path, "AutoDetect", () => {});
    for await (const record of readDelimitedRecords(text.texts, { delimiter: ",", quote: '"' })) {
      const cells = record.cells;
      if (!header) {
        const names = cells.map((cell) => cell.trim().toLowerCase());
        if (names.length !== 2 || names[0] !== VALUE_MAP_CSV_HEADER[0] || names[1] !== VALUE_MAP_CSV_HEADER[1]) {
          throw fileProblem(`The first line must be the header ${VALUE_MAP_CSV_HEADER.join(",")}`);
        }
        header = true;
        continue;
      }
      if (cells.length === 1 && cells[0] === "") continue;
      if (cells.length > 2) throw fileProblem(`Line ${record.row}: ${cells.length} values where a line has two (source_value,target_value)`);
      const [sourceValue = "", target = ""] = cells;
      if (sourceValue === "") throw fileProblem(`Line ${record.row}: the source value is empty`);
      // One the map's editor could neither save nor remove (too long, a NUL): nothing is staged.
      const refused = sourceValueProblem(sourceValue);
      if (refused) throw fileProblem(`Line ${record.row}: ${refused}`);
      const earlier = seen.get(sourceValue);
      if (earlier !== undefined) throw fileProblem(`Line ${record.row}: the source value "${sourceValue.slice(0, 60)}" is already on line ${earlier}`);
      if (seen.size >= VALUE_MAP_IMPORT_MAX_ROWS) {
        throw fileProblem(
          `The file holds more than ${VALUE_MAP_IMPORT_MAX_ROWS.toLocaleString("en-US")} values: import at most ${VALUE_MAP_IMPORT_MAX_ROWS.toLocaleString("en-US")} at once`,
        );
      }
      seen.set(sourceValue, record.row);
      const problem = target === "" ? null : maps.targetProblem(ref, target);
      if (problem) throw fileProblem(`Line ${record.row}: ${problem}`);
      yield { line: record.row, sourceValue, targetValue: target === "" ? null : target };
    }
  } catch (err) {
    if (err instanceof DelimitedFormatError) throw fileProblem(`The file is not valid CSV: on line ${err.row}, ${err.problem}`);
    if (err instanceof FlatFileProblem) throw fileProblem(translationFileProblem(err.message, true));
    throw err;
  }
  if (!header) throw fileProblem("The file is empty");
}

/** Each named column's distinct values in a sample file, with how often; empty cells are no value. */
async function countSampleValues(
  path: string,
  fileName: string,
  table: Awaited<ReturnType<typeof readTables>>[number],
  names: string[],
  hasHeaderRow: boolean,
) {
  const extension = /\.xlsx$/i.test(fileName) ? ".xlsx" : ".csv";
  const parameters = { ...DEFAULT_FLAT_FILE_PARAMETERS, extension, delimiter: extension === ".xlsx" ? "Excel" : "AutoDetect", hasHeaderRow } as const;
  const values = new Map(names.map((n) => [n.toLowerCase(), new Map<string, number>()]));
  let rows = 0;
  let positions: number[] | undefined;
  try {
    const reading = await readFlatFile(path, { ...parameters, columnWidths: {} }, table);
    for await (const record of reading.records) {
      if (!positions) {
        const match = matchTranslationColumns(hasHeaderRow ? record.cells : null, table.columns, record.cells.length);
        // Read as a translation reads it: the report sends the consultant here with the file they translated.
        const problem = hasHeaderRow ? translationHeaderProblem(record.cells, match, table.name) : null;
        if (problem) throw fileProblem(problem);
        const missing = names.filter((n) => !match.positions.some((p) => p?.name.toLowerCase() === n.toLowerCase()));
        if (missing.length) throw fileProblem(`The sample has no column ${missing.join(", ")}: its values cannot be read`);
        positions = names.map((n) => match.positions.findIndex((p) => p?.name.toLowerCase() === n.toLowerCase()));
        if (hasHeaderRow) continue;
      }
      rows++;
      names.forEach((name, i) => {
        const cell = record.cells[positions![i]!];
        if (cell === undefined || cell === "") return;
        const counts = values.get(name.toLowerCase())!;
        const seen = counts.get(cell);
        if (seen === undefined) {
          // A value the map's editor could neither save nor remove (too long, a NUL) refuses the sample: nothing is added.
          const refused = sourceValueProblem(cell);
          if (refused) throw fileProblem(`Row ${record.row}, column ${name}: ${refused}`);
        }
        counts.set(cell, (seen ?? 0) + 1);
        if (counts.size > SAMPLE_DISTINCT_MAX) {
          throw fileProblem(
            `The column ${name} holds more than ${SAMPLE_DISTINCT_MAX.toLocaleString("en-US")} distinct values in this sample: that is not a code to translate`,
          );
        }
      });
    }
  } catch (err) {
    if (err instanceof DelimitedFormatError) throw fileProblem(`The file is not valid CSV: on row ${err.row}, ${err.problem}`);
    if (err instanceof FlatFileProblem) throw fileProblem(translationFileProblem(err.message));
    throw err;
  }
  if (!positions) throw fileProblem("The file is empty");
  return { rows, values };
}
