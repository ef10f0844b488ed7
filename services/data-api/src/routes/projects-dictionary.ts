import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { projectDictionarySchema, tableSchema, type ProjectDictionary } from "../../../../contracts/dictionary.ts";
import { assignDictionarySchema } from "../../../../contracts/projects.ts";
import { ApiProblem, NotFoundError } from "../api-problem.ts";
import { createRouter, jsonContent } from "../openapi.ts";
import { requireProject } from "../project-access.ts";
import { DICTIONARY_SETUP_STATUSES, recomputeSetupStatus } from "../project-setup.ts";
import { inTransaction } from "../repositories/db-helpers.ts";
import { copyTables, dictionaryStats, findDictionaryRef, findProjectDictionaryRef, getTable } from "../repositories/dictionaries.ts";
import { TABLE_NOT_FOUND_MESSAGE } from "../repositories/dictionary-tables.ts";
import { projectDictionarySource, setSourceDictionary } from "../repositories/projects.ts";
import { createBulkUploadRoutes } from "./dictionary-bulk-uploads.ts";
import { DICTIONARY_NOT_FOUND_MESSAGE, type AfterDictionaryWrite, type AnyContext, type DictionaryResolver } from "./dictionary-routes-shared.ts";
import { createDictionaryTableRoutes } from "./dictionary-tables.ts";
import { projectErrors, projectIdParams, writeErrors } from "./projects-shared.ts";

/**
 * A project's own data dictionary: a copy it edits without touching the master. The table and
 * bulk-upload routes are the master dictionary's (D1's factories), mounted here with the project
 * rule (requireProject: company, access list, lock) and a wizard-status update after each write.
 */

const TAG = "Project data dictionary";
const BASE = "/projects/{id}/data-dictionary";

/** Statuses in which a master dictionary may still be assigned: before the databases exist. */
const ASSIGNABLE_STATUSES: readonly string[] = [...DICTIONARY_SETUP_STATUSES, "DatabaseCreationFailed"];

const resolveProjectDictionary: DictionaryResolver = async (c, projectId, access) => {
  const { project } = await requireProject(c, projectId, access);
  const ref = await findProjectDictionaryRef(c.var.deps.db, project.id);
  if (!ref) throw new NotFoundError(DICTIONARY_NOT_FOUND_MESSAGE);
  return ref.id;
};

/** Wizard step 2 follows the dictionary: no tables, a table without columns, or ready for step 3. */
const updateSetupStatus: AfterDictionaryWrite = async (c, dictionaryId) => {
  const { db } = c.var.deps;
  const ref = await findDictionaryRef(db, dictionaryId);
  const stats = await dictionaryStats(db, dictionaryId);
  if (ref?.projectId && stats) await recomputeSetupStatus(db, ref.projectId, stats);
};

const read = createRoute({
  method: "get",
  path: BASE,
  tags: [TAG],
  summary: "The project's own dictionary: version, where it came from, and its counts",
  request: { params: projectIdParams },
  responses: { 200: jsonContent(projectDictionarySchema, "The project's dictionary."), ...projectErrors },
});

const tableDetails = createRoute({
  method: "get",
  path: `${BASE}/tables/{tableId}/table-details`,
  tags: [TAG],
  summary: "One table of the project's dictionary with its columns in order",
  request: { params: projectIdParams.extend({ tableId: z.string().min(1) }) },
  responses: { 200: jsonContent(tableSchema, "The table."), ...projectErrors },
});

const assign = createRoute({
  method: "post",
  path: `${BASE}/{dictionaryId}/assign`,
  tags: [TAG],
  summary: "Copy a master dictionary of the project's application into the project's own",
  description:
    "Replaces every table of the project's dictionary (based on its `version`). Only master dictionaries of the project's application; any other id answers 404. Only while the project is being set up (409 afterwards).",
  request: {
    params: projectIdParams.extend({ dictionaryId: z.string().min(1) }),
    body: { required: true, content: { "application/json": { schema: assignDictionarySchema } } },
  },
  responses: { 200: jsonContent(projectDictionarySchema, "The project's dictionary after the copy."), ...writeErrors },
});

export function createProjectDictionaryRouter() {
  const router = createRouter()
    .openapi(read, async (c) => {
      const dictionaryId = await resolveProjectDictionary(c, c.req.valid("param").id, { write: false });
      return c.json(await projectDictionary(c, dictionaryId), 200);
    })
    .openapi(tableDetails, async (c) => {
      const { id, tableId } = c.req.valid("param");
      const dictionaryId = await resolveProjectDictionary(c, id, { write: false });
      const table = await getTable(c.var.deps.db, dictionaryId, tableId);
      if (!table) throw new NotFoundError(TABLE_NOT_FOUND_MESSAGE);
      return c.json(table, 200);
    })
    .openapi(assign, async (c) => {
      const { id, dictionaryId: masterId } = c.req.valid("param");
      const { project } = await requireProject(c, id, { write: true });
      const { db } = c.var.deps;
      const master = await findDictionaryRef(db, masterId);
      // Another company's, another application's, or a project's copy: all read as "no such dictionary".
      if (!master || master.projectId !== null || master.companyId !== project.company_id || master.applicationId !== project.application_id) {
        throw new NotFoundError(DICTIONARY_NOT_FOUND_MESSAGE);
      }
      if (!ASSIGNABLE_STATUSES.includes(project.status)) {
        throw new ApiProblem(409, "conflict", "A master dictionary can only be assigned while the project is being set up, before its databases exist.");
      }
      const own = await findProjectDictionaryRef(db, project.id);
      if (!own) throw new NotFoundError(DICTIONARY_NOT_FOUND_MESSAGE);
      const { version } = c.req.valid("json");
      await inTransaction(db, async (trx) => {
        await copyTables(trx, master.id, own.id, { expectedVersion: version, userId: c.var.caller.userId });
        await setSourceDictionary(trx, project.id, master.id);
        const stats = await dictionaryStats(trx, own.id);
        if (stats) await recomputeSetupStatus(trx, project.id, stats);
      });
      return c.json(await projectDictionary(c, own.id), 200);
    });

  const shared = { basePath: BASE, tag: TAG, resolve: resolveProjectDictionary, afterWrite: updateSetupStatus };
  router.route("/", createDictionaryTableRoutes(shared));
  router.route("/", createBulkUploadRoutes(shared));
  return router;
}

async function projectDictionary(c: AnyContext, dictionaryId: string): Promise<ProjectDictionary> {
  const { db } = c.var.deps;
  const [source, stats] = await Promise.all([projectDictionarySource(db, dictionaryId), dictionaryStats(db, dictionaryId)]);
  if (!source || !stats) throw new NotFoundError(DICTIONARY_NOT_FOUND_MESSAGE);
  return { ...source, version: Number(stats.version), tableCount: stats.tableCount, columnCount: stats.columnCount, emptyTableCount: stats.emptyTableCount };
}
