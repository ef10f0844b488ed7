/**
 * A workspace's history (issue 9 §3), for projects and configurations alike: its entries (loads
 * today; restores, backups, comparisons and undos share the list), filtered by type and status,
 * sorted and paged in SQL; one entry with the parameters it used, its job's steps and its tables'
 * counts; a comparison's tables, a page at a time; and a table's rejected rows (a page, or all of them
 * as a CSV to correct and load again).
 */
import { Readable } from "node:stream";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { attachment } from "../../../../shared/content-disposition.ts";
import { comparisonPageSchema, comparisonQuerySchema, historyEntryDetailsSchema, type HistoryEntryDetails } from "../../../../../contracts/backups.ts";
import { COMPARISON_SAMPLE_ROWS, COMPARISON_VALUE_MAX } from "../../../../../contracts/values/backups.ts";
import { CHANGING_TYPES } from "../../../../../contracts/values/loads.ts";
import {
  historyPageSchema,
  historyQuerySchema,
  rejectedRowsPageSchema,
  rejectedRowsQuerySchema,
} from "../../../../../contracts/loads.ts";
import type { FlatFileParameters } from "../../../../../contracts/projects.ts";
import type { WorkspaceDescriptor } from "../../../../../contracts/workspaces.ts";
import { NotFoundError } from "../../api-problem.ts";
import { findJob } from "../../jobs/job-store.ts";
import { createRouter, errorResponses, jsonContent } from "../../openapi.ts";
import { REJECTED_ROWS_COLUMNS } from "../../data-plane/flat-file/column-match.ts";
import { DELIMITER_CHARACTERS, QUOTES } from "../../data-plane/flat-file/read-flat-file.ts";
import { textWriter } from "../../data-plane/flat-file/text-encoding.ts";
import { allRejections, findHistoryEntry, findLoadTable, listHistory, rejectionsPage } from "../../repositories/loads.ts";
import { backupAfter, comparisonPage, comparisonSummary, findBackup } from "../../repositories/backups.ts";
import { requireWorkspace } from "../../workspace-access.ts";
import { collectionPath, readErrorsOf, workspaceIdParams } from "./shared.ts";

/**
 * An entry id the workspace does not hold (another company's, another workspace's, none at all): the
 * history's noun, not a load's, as the entry asked for may be a backup, a restore or a comparison.
 */
export const HISTORY_ENTRY_NOT_FOUND_MESSAGE = "No such history entry.";
export const LOAD_TABLE_NOT_FOUND_MESSAGE = "The load has no such table.";

export function createWorkspaceHistoryRouter(descriptor: WorkspaceDescriptor) {
  const { kind, noun } = descriptor;
  const base = `${collectionPath(descriptor)}/{id}/history`;
  const tags = kind === "migration" ? ["History"] : ["Configuration history"];
  const entryParams = z.object({ id: z.string().min(1), historyId: z.string().min(1) });
  // A table's name of any length: one longer than any table's (a hand-edited or cut link) is a table the
  // load did not have, 404 in the same words, never a rule of the request (as the rows page, 4d0dee7).
  const tableParams = entryParams.extend({ table: z.string().min(1) });

  const list = createRoute({
    method: "get",
    path: base,
    tags,
    summary: `The ${noun}'s history: its loads (and later restores, backups, comparisons, undos), newest first`,
    description:
      '`type` and `status` repeat their key to take several (none: all); `sort` is one of the listed columns, "-" first for descending. Each entry has its tables with their counts.',
    request: { params: workspaceIdParams, query: historyQuerySchema },
    responses: { 200: jsonContent(historyPageSchema, "A page of entries."), 400: errorResponses[400], ...readErrorsOf(descriptor) },
  });
  const details = createRoute({
    method: "get",
    path: `${base}/{historyId}`,
    tags,
    summary: "One entry: the parameters it read its files with, its job's steps, each table's counts, its backups and a comparison's result",
    description:
      "`backup`: the backup a Backup entry made, the automatic one a load or restore took before it changed the data, or the one a comparison compared; `undoBackup`: what Undo restores (a load or restore that changed the data, its backup kept); `afterBackup`: the data as the entry left it, when kept (what Compare with current compares); `comparison`: a comparison's summary, summed over its tables (null for an entry that compared nothing, or whose comparison has no result yet): its tables are a page at a time at …/comparison; `about`: the entry an undo undid or a comparison compared.",
    request: { params: entryParams },
    responses: { 200: jsonContent(historyEntryDetailsSchema, "The entry."), ...readErrorsOf(descriptor) },
  });
  const comparison = createRoute({
    method: "get",
    path: `${base}/{historyId}/comparison`,
    tags,
    summary: `A page of a comparison's tables, in the order compared: each one's counts, the columns that changed, and up to ${COMPARISON_SAMPLE_ROWS} rows of each kind`,
    description: `\`differing=true\`: only the tables that differ (a row added, removed or changed, or a column added, removed or retyped). A value of the samples longer than ${COMPARISON_VALUE_MAX} characters is cut, "…" where its text goes on (a changed value around where it first differs). An entry that compared nothing answers an empty page.`,
    request: { params: entryParams, query: comparisonQuerySchema },
    responses: {
      200: jsonContent(comparisonPageSchema, "A page of the comparison's tables."),
      400: errorResponses[400],
      ...readErrorsOf(descriptor),
    },
  });
  const rejected = createRoute({
    method: "get",
    path: `${base}/{historyId}/tables/{table}/rejected-rows`,
    tags,
    summary: "A page of one table's rejected rows, in file order",
    request: { params: tableParams, query: rejectedRowsQuerySchema },
    responses: {
      200: jsonContent(rejectedRowsPageSchema, "Rejected rows: row, column, value, reason."),
      400: errorResponses[400],
      ...readErrorsOf(descriptor),
    },
  });
  const download = createRoute({
    method: "get",
    path: `${base}/{historyId}/tables/{table}/rejected-rows.csv`,
    tags,
    summary: "Every rejected row of one table as the file had it, in its delimiter, with its row and reason (columns a load leaves out): to correct and load again",
    request: { params: tableParams },
    responses: { 200: { description: "CSV in the encoding the load read its file with (with a byte-order mark for UTF-8 and UTF-16; UTF-8 for Auto detect and a workbook), streamed.", content: { "text/csv": { schema: z.string() } } }, ...readErrorsOf(descriptor) },
  });

  /** The entry, if it is this workspace's (another company's workspace, or another workspace's entry: 404). */
  const entryOf = async (c: Parameters<typeof requireWorkspace>[0], id: string, historyId: string) => {
    const { workspace } = await requireWorkspace(c, kind, id, { write: false });
    const found = await findHistoryEntry(c.var.deps.db, workspace.id, historyId);
    if (!found) throw new NotFoundError(HISTORY_ENTRY_NOT_FOUND_MESSAGE);
    return found;
  };
  const tableOf = async (c: Parameters<typeof requireWorkspace>[0], params: z.infer<typeof tableParams>) => {
    const { entry, parameters } = await entryOf(c, params.id, params.historyId);
    const table = await findLoadTable(c.var.deps.db, entry.id, params.table);
    if (!table) throw new NotFoundError(LOAD_TABLE_NOT_FOUND_MESSAGE);
    return { entry, table, parameters };
  };

  return createRouter()
    .openapi(list, async (c) => {
      const { workspace } = await requireWorkspace(c, kind, c.req.valid("param").id, { write: false });
      return c.json(await listHistory(c.var.deps.db, workspace.id, c.req.valid("query")), 200);
    })
    .openapi(details, async (c) => {
      const { id, historyId } = c.req.valid("param");
      const { entry, parameters, backupId, aboutLoadId } = await entryOf(c, id, historyId);
      const db = c.var.deps.db;
      const [job, backup, comparison, about] = await Promise.all([
        entry.jobId ? findJob(db, entry.jobId) : undefined,
        backupId ? findBackup(db, entry.projectId, backupId) : undefined,
        comparisonSummary(db, entry.id),
        aboutLoadId ? findHistoryEntry(db, entry.projectId, aboutLoadId) : undefined,
      ]);
      const changedData = CHANGING_TYPES.includes(entry.type) && entry.status === "Loaded";
      const ready = backup?.status === "Ready" ? backup : null;
      const afterBackup = entry.type === "Backup" ? ready : changedData ? ((await backupAfter(db, entry.projectId, entry.id)) ?? null) : null;
      const details: HistoryEntryDetails = {
        entry,
        parameters,
        job: job ?? null,
        backup: backup ?? null,
        undoBackup: changedData ? ready : null,
        afterBackup,
        comparison,
        about: about?.entry ?? null,
      };
      return c.json(details, 200);
    })
    .openapi(comparison, async (c) => {
      const { id, historyId } = c.req.valid("param");
      const { entry } = await entryOf(c, id, historyId);
      return c.json(await comparisonPage(c.var.deps.db, entry.id, c.req.valid("query")), 200);
    })
    .openapi(rejected, async (c) => {
      const { entry, table } = await tableOf(c, c.req.valid("param"));
      return c.json(await rejectionsPage(c.var.deps.db, entry.id, table.table, c.req.valid("query"), table.rowsRejected), 200);
    })
    .openapi(download, async (c) => {
      const { entry, table, parameters } = await tableOf(c, c.req.valid("param"));
      const db = c.var.deps.db;
      const { line, text } = csvWriter(parameters);
      // The columns a download added, when the file loaded was itself one: left out, then written again, once.
      const header = table.header ?? [];
      const kept = (cells: readonly string[]) => cells.filter((_, i) => !REJECTED_ROWS_COLUMNS.some((name) => name.toLowerCase() === header[i]?.trim().toLowerCase()));
      async function* csv(): AsyncGenerator<Buffer> {
        yield Buffer.concat([text.start, text.encode(line([...kept(header), ...REJECTED_ROWS_COLUMNS]))]);
        // The reason names the column it is about, as the preview says it: a row may have several to correct.
        for await (const batch of allRejections(db, entry.id, table.table))
          yield text.encode(batch.map((r) => line([...kept(r.cells), String(r.line), r.column ? `${r.column}: ${r.reason}` : r.reason])).join(""));
      }
            return new Response(Readable.toWeb(Readable.from(csv())) as ReadableStream, {
        status: 200,
        headers: { "content-type": `text/csv; charset=${text.charset}`, "content-disposition": attachment(`${table.fileName.replace(/\.[^.]*$/, "")}-rejected-rows.csv`) },
      }) as never;
    });
}

/**
 * How a rejected-rows download writes a line: with the delimiter, text qualifier and encoding the load
 * read its file with, so that the rows, corrected, load again under the same parameters (the load leaves
 * out the two columns the download adds). A field holding the delimiter, the qualifier or a line break is
 * qualified, the qualifier doubled (RFC 4180); without a qualifier, such characters become spaces (the
 * file's own cells cannot hold them; a reason may). A workbook's, a fixed-length file's, or a load of an
 * older product without parameters: comma-separated, double quotes. A text file chosen as Windows-1252
 * or ISO-8859-1 is written so (as Excel opens a CSV on a Western system), one chosen as UTF-16 in it with
 * its byte-order mark; a workbook's, Auto detect's, an older load's in UTF-8 with a byte-order mark, so
 * that Excel opens it as UTF-8 (and a load reads it as such).
 */
function csvWriter(parameters: FlatFileParameters | null) {
  const named = parameters?.delimiter && parameters.delimiter in DELIMITER_CHARACTERS ? DELIMITER_CHARACTERS[parameters.delimiter as keyof typeof DELIMITER_CHARACTERS] : null;
  const text = textWriter(parameters && parameters.delimiter !== "Excel" && parameters.encoding !== "AutoDetect" ? parameters.encoding : "UTF-8");
  const delimiter = named ?? ",";
  const quote = named ? QUOTES[parameters!.textQualifier] : '"';
  const special = new RegExp(`[${escapeClass(delimiter)}${quote ? escapeClass(quote) : ""}\r\n]`);
  const field = (cell: string) => {
    if (!special.test(cell)) return cell;
    if (!quote) return cell.replace(new RegExp(special.source, "g"), " ");
    return `${quote}${cell.replaceAll(quote, quote + quote)}${quote}`;
  };
  return { line: (cells: readonly string[]) => `${cells.map(field).join(delimiter)}\r\n`, text };
}

const escapeClass = (c: string) => c.replace(/[\\\]^-]/g, "\\$&");
