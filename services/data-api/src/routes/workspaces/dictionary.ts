import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { confirmDataLossQuerySchema, projectDictionarySchema, tableSchema, type ProjectDictionary } from "../../../../../contracts/dictionary.ts";
import { assignDictionarySchema } from "../../../../../contracts/projects.ts";
import type { ProjectStatus } from "../../../../../contracts/projects.ts";
import { setupStepOpen, type WorkspaceDescriptor } from "../../../../../contracts/workspaces.ts";
import { ApiProblem, NotFoundError } from "../../api-problem.ts";
import { createRouter, jsonBody, jsonContent } from "../../openapi.ts";
import { recomputeSetupStatus } from "../../project-setup.ts";
import { inTransaction } from "../../repositories/db-helpers.ts";
import { copyTables, dictionaryStats, findDictionaryRef, findProjectDictionaryRef, getTable } from "../../repositories/dictionaries.ts";
import { TABLE_NOT_FOUND_MESSAGE } from "../../repositories/dictionary-tables.ts";
import { projectDictionarySource, setSourceDictionary } from "../../repositories/projects.ts";
import { requireWorkspace } from "../../workspace-access.ts";
import { createBulkUploadRoutes } from "../dictionaries/bulk-uploads.ts";
import {
  DICTIONARY_NOT_FOUND_MESSAGE,
  type AfterDictionaryWrite,
  type AnyContext,
  type DictionaryResolver,
  type DictionaryWriter,
} from "../dictionaries/shared.ts";
import { createDictionaryTableRoutes } from "../dictionaries/tables.ts";
import { capitalised, collectionPath, jobDeps, readErrorsOf, workspaceIdParams, writeErrorsOf } from "./shared.ts";
import { changeWorkspaceDictionary, type DictionaryEdit } from "../../data-plane/dictionary-changes.ts";
import { findWorkspaceRow } from "../../repositories/workspaces.ts";

/**
 * A workspace's own data dictionary: a copy it edits without touching the master. The table and
 * bulk-upload routes are the master dictionary's (D1's factories), mounted here with the workspace
 * rule (requireWorkspace: kind, company, area role, access list, lock), a wizard-status update
 * after each write, and, once the databases exist, the databases following each write.
 */
export function createWorkspaceDictionaryRouter(descriptor: WorkspaceDescriptor) {
  const { kind, noun } = descriptor;
  const tag = `${capitalised(noun)} data dictionary`;
  const basePath = `${collectionPath(descriptor)}/{id}/data-dictionary`;
  const readErrors = readErrorsOf(descriptor);
  const writeErrors = writeErrorsOf(descriptor);
  /**
   * Whether a master dictionary may still be assigned: while the wizard's dictionary step is open (setupStepOpen, the
   * rule the portal's step follows), that is before the databases exist, and for a mapping project (no databases) until
   * its templates are assigned, as long as its file data structure can be changed there.
   */
  const assignable = (status: string) => setupStepOpen(kind, status as ProjectStatus, descriptor.dictionaryStep);
  const pastSetup = `A master dictionary can only be assigned while the ${noun} is being set up, ${
    descriptor.features.databases ? "before its databases exist" : "before its templates are assigned"
  }.`;

  const resolve: DictionaryResolver = async (c, id, access) => {
    const { workspace } = await requireWorkspace(c, kind, id, access);
    const ref = await findProjectDictionaryRef(c.var.deps.db, workspace.id);
    if (!ref) throw new NotFoundError(DICTIONARY_NOT_FOUND_MESSAGE);
    return ref.id;
  };

  /** Once the workspace's databases exist, they follow every write (decision 017). */
  const write: DictionaryWriter = async (c, dictionaryId, edit, { confirmDataLoss }) => {
    const { db, dataPlane } = c.var.deps;
    const ref = await findDictionaryRef(db, dictionaryId);
    const workspace = ref?.projectId ? await findWorkspaceRow(db, ref.projectId) : undefined;
    if (!workspace) throw new NotFoundError(DICTIONARY_NOT_FOUND_MESSAGE);
    await changeWorkspaceDictionary({ ...jobDeps(c), dataPlane }, { kind, workspace, dictionaryId, userId: c.var.caller.userId, confirmDataLoss, edit });
  };

  /** The dictionary step follows the dictionary: no tables, a table without columns, or ready for the databases. */
  const updateSetupStatus: AfterDictionaryWrite = async (c, dictionaryId) => {
    const { db } = c.var.deps;
    const ref = await findDictionaryRef(db, dictionaryId);
    const stats = await dictionaryStats(db, dictionaryId);
    if (ref?.projectId && stats) await recomputeSetupStatus(db, kind, ref.projectId, stats, c.var.caller.userId);
  };

  const read = createRoute({
    method: "get",
    path: basePath,
    tags: [tag],
    summary: `The ${noun}'s own dictionary: version, where it came from, and its counts`,
    request: { params: workspaceIdParams },
    responses: { 200: jsonContent(projectDictionarySchema, `The ${noun}'s dictionary.`), ...readErrors },
  });

  const tableDetails = createRoute({
    method: "get",
    path: `${basePath}/tables/{tableId}/table-details`,
    tags: [tag],
    summary: `One table of the ${noun}'s dictionary with its columns in order`,
    request: { params: workspaceIdParams.extend({ tableId: z.string().min(1) }) },
    responses: { 200: jsonContent(tableSchema, "The table."), ...readErrors },
  });

  const assign = createRoute({
    method: "post",
    path: `${basePath}/{dictionaryId}/assign`,
    tags: [tag],
    summary: `Copy a master dictionary of the ${noun}'s application into the ${noun}'s own`,
    description: `Replaces every table of the ${noun}'s dictionary (based on its \`version\`). Only master dictionaries of the ${noun}'s application; any other id answers 404. Only while the ${noun} is being set up (409 afterwards), and only a dictionary with tables (409 \`dictionary_empty\`), each with a column (409 \`dictionary_incomplete\`). A mapping project's tables whose value maps hold values are replaced only once confirmed (409 \`value_map_loss\` listing them, then \`confirmDataLoss=true\`), as a table's deletion is.`,
    request: {
      params: workspaceIdParams.extend({ dictionaryId: z.string().min(1) }),
      query: confirmDataLossQuerySchema,
      body: jsonBody(assignDictionarySchema),
    },
    responses: { 200: jsonContent(projectDictionarySchema, `The ${noun}'s dictionary after the copy.`), ...writeErrors },
  });

  const router = createRouter()
    .openapi(read, async (c) => {
      const dictionaryId = await resolve(c, c.req.valid("param").id, { write: false });
      return c.json(await workspaceDictionary(c, dictionaryId), 200);
    })
    .openapi(tableDetails, async (c) => {
      const { id, tableId } = c.req.valid("param");
      const dictionaryId = await resolve(c, id, { write: false });
      const table = await getTable(c.var.deps.db, dictionaryId, tableId);
      if (!table) throw new NotFoundError(TABLE_NOT_FOUND_MESSAGE);
      return c.json(table, 200);
    })
    .openapi(assign, async (c) => {
      const { id, dictionaryId: masterId } = c.req.valid("param");
      const { workspace } = await requireWorkspace(c, kind, id, { write: true });
      const { db } = c.var.deps;
      const master = await findDictionaryRef(db, masterId);
      // Another company's, another application's, or a workspace's copy: all read as "no such dictionary".
      if (!master || master.projectId !== null || master.companyId !== workspace.company_id || master.applicationId !== workspace.application_id) {
        throw new NotFoundError(DICTIONARY_NOT_FOUND_MESSAGE);
      }
      if (!assignable(workspace.status)) throw new ApiProblem(409, "conflict", pastSetup);
      const own = await findProjectDictionaryRef(db, workspace.id);
      if (!own) throw new NotFoundError(DICTIONARY_NOT_FOUND_MESSAGE);
      // The copy replaces the workspace's tables: an empty master would leave it none (and its tables defined so far lost).
      const masterStats = await dictionaryStats(db, master.id);
      if (!masterStats?.tableCount) {
        throw new ApiProblem(
          409,
          "dictionary_empty",
          `This master dictionary has no tables yet: give it its tables first (Bulk update), or assign another one. The ${noun}'s tables are unchanged.`,
        );
      }
      // A master's table needs a column (createMasterTableSchema); one saved before that rule would leave the workspace waiting at "Setup: add columns".
      const { emptyTableCount: empty } = masterStats;
      if (empty > 0) {
        throw new ApiProblem(
          409,
          "dictionary_incomplete",
          `${empty === 1 ? "A table of this master dictionary has" : `${empty} tables of this master dictionary have`} no columns: give ${empty === 1 ? "it its" : "them their"} columns first (its data definition), or assign another one. The ${noun}'s tables are unchanged.`,
        );
      }
      const { version } = c.req.valid("json");
      const { confirmDataLoss = false } = c.req.valid("query");
      // The copy replaces the tables, and a mapping project's value maps with them: refused as a deletion of them is, until confirmed.
      const copy: DictionaryEdit = (db) =>
        inTransaction(db, async (trx) => {
          await copyTables(trx, master.id, own.id, { expectedVersion: version, userId: c.var.caller.userId });
          await setSourceDictionary(trx, workspace.id, master.id, c.var.caller.userId);
          const stats = await dictionaryStats(trx, own.id);
          if (stats) await recomputeSetupStatus(trx, kind, workspace.id, stats, c.var.caller.userId);
        });
      await write(c, own.id, copy, { confirmDataLoss });
      return c.json(await workspaceDictionary(c, own.id), 200);
    });

  const shared = { basePath, tag, resolve, write, afterWrite: updateSetupStatus };
  router.route("/", createDictionaryTableRoutes(shared));
  router.route("/", createBulkUploadRoutes(shared));
  return router;
}

async function workspaceDictionary(c: AnyContext, dictionaryId: string): Promise<ProjectDictionary> {
  const { db } = c.var.deps;
  const [source, stats] = await Promise.all([projectDictionarySource(db, dictionaryId), dictionaryStats(db, dictionaryId)]);
  if (!source || !stats) throw new NotFoundError(DICTIONARY_NOT_FOUND_MESSAGE);
  return { ...source, version: Number(stats.version), tableCount: stats.tableCount, columnCount: stats.columnCount, emptyTableCount: stats.emptyTableCount };
}
