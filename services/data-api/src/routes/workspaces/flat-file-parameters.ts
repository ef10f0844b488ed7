/**
 * How a workspace's flat files are read (spec §7 `POST /projects/{id}/updateFlatFileParameters`), for
 * projects and configurations alike: the contract checks the parameters; the fixed-length column
 * widths are checked here against the workspace's dictionary, which the contract cannot see.
 */
import { createRoute } from "@hono/zod-openapi";
import { configurationSchema } from "../../../../../contracts/configurations.ts";
import {
  columnWidthsQuerySchema,
  columnWidthsResponseSchema,
  defaultColumnWidth,
  projectSchema,
  updateFlatFileParametersSchema,
  type FlatFileParameters,
} from "../../../../../contracts/projects.ts";
import type { Table } from "../../../../../contracts/dictionary.ts";
import type { WorkspaceDescriptor } from "../../../../../contracts/workspaces.ts";
import { ApiProblem, validationProblem } from "../../api-problem.ts";
import { createRouter, jsonBody, jsonContent } from "../../openapi.ts";
import { getMappingProject } from "../../repositories/mapping-projects.ts";
import { getConfiguration } from "../../repositories/configurations.ts";
import { findProjectDictionaryRef } from "../../repositories/dictionaries.ts";
import { listTables, tablesNamed } from "../../repositories/dictionary-tables.ts";
import { nameKey } from "../../repositories/db-helpers.ts";
import { flatFileParametersOf, getProject } from "../../repositories/projects.ts";
import { updateWorkspace } from "../../repositories/workspaces.ts";
import { requireWorkspace } from "../../workspace-access.ts";
import { assertVersion } from "./rules.ts";
import { collectionPath, readErrorsOf, workspaceIdParams, writeErrorsOf } from "./shared.ts";

const READERS = { migration: getProject, onboarding: getConfiguration, translation: getMappingProject };

export function createWorkspaceFlatFileParametersRouter(descriptor: WorkspaceDescriptor) {
  const { kind, noun } = descriptor;
  const route = createRoute({
    method: "post",
    path: `${collectionPath(descriptor)}/{id}/updateFlatFileParameters`,
    tags: kind === "migration" ? ["Projects"] : ["Configurations"],
    summary: `Set how the ${noun}'s flat files are read (source type Flat file only)`,
    description: [
      "Extension, delimiter (Excel with .xlsx and only with it), text qualifier, encoding (AutoDetect: byte-order mark, then content), header row, date order, the .xlsx worksheet (empty: the first).",
      "Based on `version`: a stale one answers 409 and changes nothing.",
      "`columnWidths`: for Fixed Length, each table's widths in characters in the dictionary's column order, one per column (400 at `columnWidths.<table>` otherwise; the widths saved for a table the dictionary no longer has, sent as saved, are dropped); a table left out is read with its dictionary widths (nvarchar length, a display width for other types).",
    ].join(" "),
    request: { params: workspaceIdParams, body: jsonBody(updateFlatFileParametersSchema) },
    responses: { 200: jsonContent(kind === "migration" ? projectSchema : configurationSchema, `The changed ${noun}.`), ...writeErrorsOf(descriptor) },
  });

  const widths = createRoute({
    method: "get",
    path: `${collectionPath(descriptor)}/{id}/flat-file/column-widths`,
    tags: kind === "migration" ? ["Projects"] : ["Configurations"],
    summary: "A page of the dictionary's tables, each with its columns and default fixed-length widths (nvarchar length, a display width for other types)",
    description:
      "`name` keeps the tables whose name contains it (any case); a page of them in the dictionary's order, 25 by default, as the dictionary's tables list.",
    request: { params: workspaceIdParams, query: columnWidthsQuerySchema },
    responses: { 200: jsonContent(columnWidthsResponseSchema, "The page, in the dictionary's order."), ...readErrorsOf(descriptor) },
  });

  return createRouter()
    .openapi(widths, async (c) => {
      const { workspace } = await requireWorkspace(c, kind, c.req.valid("param").id, { write: false });
      const { db } = c.var.deps;
      const query = c.req.valid("query");
      const dictionary = await findProjectDictionaryRef(db, workspace.id);
      if (!dictionary) return c.json({ items: [], total: 0, page: query.page, pageSize: query.pageSize }, 200);
      const { items, ...page } = await listTables(db, dictionary.id, { ...query, columns: "all" });
      const tables = items.map((t) => ({
        name: t.name,
        columns: (t.columns ?? []).map((column) => column.name),
        defaultWidths: (t.columns ?? []).map(defaultColumnWidth),
      }));
      return c.json({ items: tables, ...page }, 200);
    })
    .openapi(route, async (c) => {
      const { workspace } = await requireWorkspace(c, kind, c.req.valid("param").id, { write: true });
      if (workspace.source_type !== "FlatFile") {
        throw new ApiProblem(400, "not_flat_file", `Flat file parameters are only for ${noun}s whose source type is Flat file.`);
      }
      const { db } = c.var.deps;
      const { version, ...parameters } = c.req.valid("json");
      const write = { expectedVersion: version, userId: c.var.caller.userId };
      // Before the widths' check: a stale tab hears "reload", not a rule about a dictionary it may not have seen.
      await assertVersion(db, descriptor, workspace, write);
      const saved = flatFileParametersOf(workspace)?.columnWidths ?? {};
      const columnWidths = await checkedWidths(db, workspace.id, parameters.columnWidths, noun, saved);
      await updateWorkspace(db, kind, workspace, write, { flatFileParameters: { ...parameters, columnWidths } });
      const changed = await READERS[kind](db, workspace.id);
      if (!changed) throw new ApiProblem(404, "not_found", descriptor.notFoundMessage);
      return c.json(changed, 200);
    });
}

/**
 * The widths keyed by the dictionary's own table names, each table's count matching its columns; else 400 at the table's
 * field. Widths saved for a table the dictionary no longer has (renamed or deleted since), sent back as they were saved
 * (the portal's forms send the saved widths of the tables they do not show), are dropped: never a save refused for them.
 */
async function checkedWidths(
  db: Parameters<typeof tablesNamed>[0],
  workspaceId: string,
  widths: FlatFileParameters["columnWidths"],
  noun: string,
  saved: FlatFileParameters["columnWidths"],
) {
  const entries = Object.entries(widths);
  if (entries.length === 0) return widths;
  const dictionary = await findProjectDictionaryRef(db, workspaceId);
  const tables = dictionary ? await tablesNamed(db, dictionary.id, Object.keys(widths)) : new Map<string, Table>();
  const fieldErrors: Record<string, string[]> = {};
  const checked: FlatFileParameters["columnWidths"] = {};
  for (const [name, list] of entries) {
    const table = tables.get(nameKey(name));
    if (!table) {
      if (Object.hasOwn(saved, name) && saved[name]!.join() === list.join()) continue;
      fieldErrors[`columnWidths.${name}`] = [`The ${noun}'s dictionary has no table '${name}'`];
    } else if (list.length !== table.columns.length) {
      fieldErrors[`columnWidths.${name}`] = [`${table.name} has ${table.columns.length} columns: give ${table.columns.length} widths (${list.length} given)`];
    } else checked[table.name] = list;
  }
  if (Object.keys(fieldErrors).length) throw validationProblem(fieldErrors);
  return checked;
}
