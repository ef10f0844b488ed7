/**
 * The data API's workspace endpoints (spec §7: /api/v1/projects/… and /api/v1/audit-projects/…), as
 * the portal's pages call them. The data API serves both kinds with the same handlers, so this module
 * builds every path from the workspace's descriptor: route modules never build an API path.
 */
import { z } from "zod";
import { companyUsersPageSchema, USER_IDS_AT_ONCE, type CompanyUser } from "../../../contracts/client-portal";
import {
  checkDefaultResponseSchema,
  configurationSchema,
  configurationSearchResponseSchema,
  workspaceDatabasesResponseSchema,
  type workspaceDatabasesQuerySchema,
  type createConfigurationSchema,
  type updateConfigurationSchema,
} from "../../../contracts/configurations";
import { adminDataSourcesResponseSchema } from "../../../contracts/data-api";
import {
  describedTableSchema,
  mappingTableSchema,
  sampleResultSchema,
  translationPageSchema,
  translationDetailSchema,
  translationSchema,
  valueMapImportSchema,
  valueMapPageSchema,
  type addValueSchema,
  type columnSettingsSchema,
  type createMappingProjectSchema,
  type saveValuesSchema,
  type TranslationQuery,
  type valueMapQuerySchema,
} from "../../../contracts/mappings";
import { projectDictionarySchema, tableSchema, tablesPageSchema } from "../../../contracts/dictionary";
import {
  jobSchema,
  projectAccessSchema,
  projectJobsSchema,
  projectSchema,
  projectSearchResponseSchema,
  projectUsersPageSchema,
  setProjectUserSchema,
  type createProjectSchema,
  type columnWidthsQuerySchema,
  columnWidthsResponseSchema,
  type UpdateFlatFileParameters,
  type projectSearchQuerySchema,
  type updateProjectSchema,
  type tryCreateDatabasesBodySchema,
  type uploadTypeBodySchema,
} from "../../../contracts/projects";
import {
  backupPageSchema,
  comparisonBodySchema,
  comparisonPageSchema,
  historyEntryDetailsSchema,
  restoreBodySchema,
  startedWorkSchema,
  type ComparisonQuery,
} from "../../../contracts/backups";
import {
  historyPageSchema,
  loadSchema,
  rejectedRowsPageSchema,
  stagedUploadSchema,
  tableRowsSchema,
  type HistoryQuery,
  type stagedLoadSchema,
} from "../../../contracts/loads";
import type { WorkspaceDescriptor } from "../../../contracts/workspaces";
import { SERVICE_WORKSPACES } from "../../../contracts/workspaces.server";
import { savedSqlPermissionsSchema, sqlPermissionsSchema, type setSqlPermissionsSchema } from "../../../contracts/sql-access";
import {
  runDetailsSchema,
  runPageSchema,
  runProgressSchema,
  startedRunSchema,
  type runStepsQuerySchema,
  type runsQuerySchema,
  type startRunSchema,
} from "../../../contracts/runs";
import { callService, callServiceStream, type Caller, type StreamedUpload } from "../api.server";
import { confirming, dictionaryEndpoints } from "./dictionary-tables.server";

const enc = encodeURIComponent;
/** Writes answer the changed object; the pages redirect and reload, so any JSON will do. */
const anything = z.unknown();

/** A workspace as every page reads it: a configuration's schemes and default flag when it is one. */
export const workspaceSchema = projectSchema.extend({
  schemes: configurationSchema.shape.schemes.optional(),
  isDefault: z.boolean().optional(),
});
export type Workspace = z.infer<typeof workspaceSchema>;

export type WorkspaceCreate =
  | { kind: "migration"; body: z.input<typeof createProjectSchema> }
  | { kind: "onboarding"; body: z.input<typeof createConfigurationSchema> }
  | { kind: "translation"; body: z.input<typeof createMappingProjectSchema> };

const startedLoadSchema = z.object({ load: loadSchema, jobId: z.string() });
/** A write's answer when the page needs only the version it moved the workspace to (the next write is based on it). */
const versionedSchema = projectSchema.pick({ version: true });
/** A setup step's answer when the page needs only the status it moved the workspace to (where the wizard goes next). */
const setupMoveSchema = projectSchema.pick({ id: true, status: true });

export function workspaceApi(ws: WorkspaceDescriptor, as: Caller) {
  const { apiBase } = SERVICE_WORKSPACES[ws.kind];
  const at = (id: string, ...rest: string[]) => [apiBase, enc(id), ...rest.map(enc)].join("/");
  const searchSchema = ws.kind === "onboarding" ? configurationSearchResponseSchema : projectSearchResponseSchema;
  return {
    search: (query: z.output<typeof projectSearchQuerySchema> | (Omit<z.output<typeof projectSearchQuerySchema>, "name"> & { name?: string })) =>
      callService("data-api", `${apiBase}/search`, as, { schema: searchSchema, query }),
    create: (body: WorkspaceCreate["body"]) => callService("data-api", apiBase, as, { method: "POST", body, schema: workspaceSchema }),

    /** The calls about one workspace. */
    one: (id: string) => ({
      get: () => callService("data-api", at(id), as, { schema: workspaceSchema }),
      access: () => callService("data-api", at(id, "access"), as, { schema: projectAccessSchema }),
      update: (body: z.input<typeof updateProjectSchema> | z.input<typeof updateConfigurationSchema>) =>
        callService("data-api", at(id), as, { method: "PATCH", body, schema: anything }),

      /** A page of who may read and write it, the latest grant first. */
      users: (query: { page: number; pageSize: number; userId?: string[] }) =>
        callService("data-api", at(id, "users"), as, { schema: projectUsersPageSchema, query }),
      setUser: (userId: string, grant: z.input<typeof setProjectUserSchema>) =>
        callService("data-api", at(id, "users", userId), as, { method: "PUT", body: setProjectUserSchema.parse(grant), schema: anything }),
      removeUser: (userId: string) => callService("data-api", at(id, "users", userId), as, { method: "DELETE", schema: anything }),
      /** SQL credentials' levels in the workspace's databases (issue 13). */
      sqlPermissions: () => callService("data-api", at(id, "sql-permissions"), as, { schema: sqlPermissionsSchema }),
      setSqlPermissions: (body: z.input<typeof setSqlPermissionsSchema>) =>
        callService("data-api", at(id, "sql-permissions"), as, { method: "PUT", body, schema: savedSqlPermissionsSchema }),

      jobs: () => callService("data-api", at(id, "jobs"), as, { schema: projectJobsSchema }),
      /** The lock and the running jobs only: what a job's page polls while a job runs. */
      runningJobs: () => callService("data-api", at(id, "jobs", "progress"), as, { schema: projectJobsSchema }),
      cancelJob: (jobId: string) => callService("data-api", at(id, "jobs", jobId, "cancel"), as, { method: "POST", schema: anything }),
      forceUnlock: (reason: string) => callService("data-api", at(id, "force-unlock"), as, { method: "POST", body: { reason }, schema: anything }),
      /**
       * A mapping project's value maps (issue 12): per table and column of its file data structure. A write names
       * the column's table as its page's URL does (the data API answers 404 for a column of another table).
       */
      valueMaps: {
        table: (tableId: string) => callService("data-api", at(id, "mapping-tables", tableId), as, { schema: mappingTableSchema }),
        saveSettings: (tableId: string, columnId: string, body: z.input<typeof columnSettingsSchema>) =>
          callService("data-api", at(id, "mapping-columns", columnId, "settings"), as, { method: "PUT", query: { tableId }, body, schema: mappingTableSchema }),
        values: (columnId: string, query: z.output<typeof valueMapQuerySchema>) =>
          callService("data-api", at(id, "mapping-columns", columnId, "values"), as, { schema: valueMapPageSchema, query }),
        saveValues: (tableId: string, columnId: string, body: z.input<typeof saveValuesSchema>) =>
          callService("data-api", at(id, "mapping-columns", columnId, "values"), as, { method: "POST", query: { tableId }, body, schema: anything }),
        /** A source value the map does not hold yet; one it holds is refused (409 at sourceValue). */
        addValue: (tableId: string, columnId: string, body: z.input<typeof addValueSchema>) =>
          callService("data-api", at(id, "mapping-columns", columnId, "values", "add"), as, { method: "POST", query: { tableId }, body, schema: anything }),
        /** The map as CSV, streamed through. */
        exportCsv: (columnId: string) => callServiceStream("data-api", at(id, "mapping-columns", columnId, "values.csv"), as),
        /** A map CSV streamed through to be previewed (nothing applied). */
        startImport: (tableId: string, columnId: string, upload: StreamedUpload) =>
          callService("data-api", at(id, "mapping-columns", columnId, "imports"), as, {
            method: "POST",
            query: { tableId },
            stream: upload,
            schema: valueMapImportSchema,
          }),
        getImport: (columnId: string, importId: string) =>
          callService("data-api", at(id, "mapping-columns", columnId, "imports", importId), as, { schema: valueMapImportSchema }),
        applyImport: (tableId: string, columnId: string, importId: string, version: number) =>
          callService("data-api", at(id, "mapping-columns", columnId, "imports", importId, "apply"), as, {
            method: "POST",
            query: { tableId },
            body: { version },
            schema: anything,
          }),
        discardImport: (tableId: string, columnId: string, importId: string) =>
          callService("data-api", at(id, "mapping-columns", columnId, "imports", importId), as, { method: "DELETE", query: { tableId }, schema: anything }),
        /** A sample file streamed through: a new table of the file data structure, its columns from the file. */
        describeTable: (upload: StreamedUpload) =>
          callService("data-api", at(id, "file-data-structure", "samples"), as, { method: "POST", stream: upload, schema: describedTableSchema }),
        /** A sample file of the table streamed through: its translated columns' values join their maps. */
        addSample: (tableId: string, upload: StreamedUpload) =>
          callService("data-api", at(id, "mapping-tables", tableId, "samples"), as, { method: "POST", stream: upload, schema: sampleResultSchema }),
      },
      /** A mapping project's "Translate a file": started from an upload streamed through, then followed. */
      translations: {
        start: (upload: StreamedUpload) => callService("data-api", at(id, "translations"), as, { method: "POST", stream: upload, schema: translationSchema }),
        list: (query: TranslationQuery) => callService("data-api", at(id, "translations"), as, { schema: translationPageSchema, query }),
        get: (translationId: string) => callService("data-api", at(id, "translations", translationId), as, { schema: translationDetailSchema }),
        file: (translationId: string) => callServiceStream("data-api", at(id, "translations", translationId, "file"), as),
      },
      /** A mapping project: the wizard's file-data-structure step is done; its status after (Active when it had templates already). */
      completeStructure: (version: number) =>
        callService("data-api", at(id, "file-data-structure", "complete"), as, { method: "POST", body: { version }, schema: setupMoveSchema }),
      /** Based on the workspace's `version` the page showed, when given (the databases step's settings): a stale one is refused (409), nothing started. */
      tryCreateDatabases: (body: z.input<typeof tryCreateDatabasesBodySchema> = {}) =>
        callService("data-api", at(id, "try-create-databases"), as, { method: "POST", body, schema: jobSchema }),

      /** Runs of the workspace's templates (spec §7: POST …/run, GET …/runs, GET …/runs/{runId}). */
      runs: {
        start: (body: z.input<typeof startRunSchema>) => callService("data-api", at(id, "run"), as, { method: "POST", body, schema: startedRunSchema }),
        list: (query: z.output<typeof runsQuerySchema>) => callService("data-api", at(id, "runs"), as, { schema: runPageSchema, query }),
        /** The run with a page of its steps (the first page of all of them by default). */
        get: (runId: string, steps?: z.output<typeof runStepsQuerySchema>) =>
          callService("data-api", at(id, "runs", runId), as, { schema: runDetailsSchema, ...(steps ? { query: steps } : {}) }),
        /** The same page of steps without their SQL: what the run's page polls while the run goes on. */
        progress: (runId: string, steps: z.output<typeof runStepsQuerySchema>) =>
          callService("data-api", at(id, "runs", runId, "progress"), as, { schema: runProgressSchema, query: steps }),
      },
      /** Based on the project's `version` the form showed: a stale one is refused (409), nothing changed. */
      setUploadType: (body: z.input<typeof uploadTypeBodySchema>) =>
        callService("data-api", at(id, "upload-type"), as, { method: "POST", body, schema: anything }),
      /** Based on the workspace's `version` the form showed: a stale one is refused (409), nothing changed. Answers the version it moved to. */
      setFlatFileParameters: (body: UpdateFlatFileParameters) =>
        callService("data-api", at(id, "updateFlatFileParameters"), as, { method: "POST", body, schema: versionedSchema }),
      /** Each dictionary table's fixed-length widths: the dictionary's and those saved. */
      columnWidths: (query: z.output<typeof columnWidthsQuerySchema>) =>
        callService("data-api", at(id, "flat-file", "column-widths"), as, { schema: columnWidthsResponseSchema, query }),
      /** `rows: "estimated"` for a page that needs only the tables' names: no table is read to count its rows. */
      databases: (query: Partial<z.output<typeof workspaceDatabasesQuerySchema>> = {}) =>
        callService("data-api", at(id, "databases"), as, { schema: workspaceDatabasesResponseSchema, query }),

      /** A page of one table's rows, as stored, sorted and filtered by the data API. */
      tableRows: (
        kind: "source" | "destination",
        table: string,
        query: { page: number; pageSize: number; sort?: string; column?: string; contains?: string },
      ) => callService("data-api", at(id, "databases", kind, "tables", table, "rows"), as, { schema: tableRowsSchema, query }),

      /** Flat-file loads into the source database, started from an upload streamed through. */
      loads: {
        start: (upload: StreamedUpload) =>
          callService("data-api", at(id, "flat-file", "loads"), as, { method: "POST", stream: upload, schema: startedLoadSchema }),
        /** Uploads files to preview them; they stay on the data API for a load without sending them again. */
        stage: (upload: StreamedUpload) =>
          callService("data-api", at(id, "flat-file", "uploads"), as, { method: "POST", stream: upload, schema: stagedUploadSchema }),
        staged: (uploadId: string) => callService("data-api", at(id, "flat-file", "uploads", uploadId), as, { schema: stagedUploadSchema }),
        startStaged: (body: z.input<typeof stagedLoadSchema>) =>
          callService("data-api", at(id, "flat-file", "loads"), as, { method: "POST", body, schema: startedLoadSchema }),
      },

      /** The history of loads (and later restores, backups, comparisons): a page, one entry, a page of a comparison's tables, a table's rejected rows. */
      history: {
        list: (query: HistoryQuery) => callService("data-api", at(id, "history"), as, { schema: historyPageSchema, query }),
        get: (historyId: string) => callService("data-api", at(id, "history", historyId), as, { schema: historyEntryDetailsSchema }),
        /** A page of a comparison's tables (`differing`: only those that differ); an entry that compared nothing, an empty one. */
        comparison: (historyId: string, query: ComparisonQuery) =>
          callService("data-api", at(id, "history", historyId, "comparison"), as, { schema: comparisonPageSchema, query }),
        rejectedRows: (historyId: string, table: string, query: { page: number; pageSize: number }) =>
          callService("data-api", at(id, "history", historyId, "tables", table, "rejected-rows"), as, { schema: rejectedRowsPageSchema, query }),
        rejectedRowsCsv: (historyId: string, table: string) =>
          callServiceStream("data-api", at(id, "history", historyId, "tables", table, "rejected-rows.csv"), as),
      },

      /** Backups of both databases: a page of them, "Back up now", one streamed for download. */
      backups: {
        list: (query: { page: number; pageSize: number; deliveries?: boolean }) =>
          callService("data-api", at(id, "backups"), as, { schema: backupPageSchema, query }),
        create: () => callService("data-api", at(id, "backups"), as, { method: "POST", schema: startedWorkSchema }),
        download: (backupId: string) => callServiceStream("data-api", at(id, "backups", backupId, "download"), as),
      },
      /** Restores into the source database (from a backup, an undo, or an uploaded file streamed through) and comparisons. */
      restores: {
        start: (body: z.input<typeof restoreBodySchema>) =>
          callService("data-api", at(id, "restores"), as, { method: "POST", body, schema: startedWorkSchema }),
        upload: (upload: StreamedUpload) => callService("data-api", at(id, "restores"), as, { method: "POST", stream: upload, schema: startedWorkSchema }),
      },
      compare: (body: z.input<typeof comparisonBodySchema>) =>
        callService("data-api", at(id, "comparisons"), as, { method: "POST", body, schema: startedWorkSchema }),

      /** The workspace's own data dictionary: its copy, edited without touching the master it may have come from. */
      dictionary: {
        get: () => callService("data-api", at(id, "data-dictionary"), as, { schema: projectDictionarySchema }),
        tables: (query: { name?: string; page: number; pageSize: number }) =>
          callService("data-api", at(id, "data-dictionary", "tables"), as, { schema: tablesPageSchema, query }),
        table: (tableId: string) => callService("data-api", at(id, "data-dictionary", "tables", tableId, "table-details"), as, { schema: tableSchema }),
        /** Replaces the tables: a mapping project's whose value maps hold values, only once `write` confirms it. */
        assign: (dictionaryId: string, version: number, write?: { confirmDataLoss: boolean }) =>
          callService("data-api", at(id, "data-dictionary", dictionaryId, "assign"), as, {
            method: "POST",
            body: { version },
            query: confirming(write),
            schema: anything,
          }),
        ...dictionaryEndpoints(as, at(id, "data-dictionary")),
      },
    }),
  };
}

/** GET /api/v1/audit-projects/checkdefaultproject/{companyId}: whether the company has its default configuration. */
export const checkDefaultConfiguration = (as: Caller, companyId: string) =>
  callService("data-api", `/api/v1/audit-projects/checkdefaultproject/${enc(companyId)}`, as, { schema: checkDefaultResponseSchema });

/** GET /api/v1/companies/{id}/admin-data-sources: the schemes a configuration may serve. */
export const adminDataSources = (as: Caller, companyId: string) =>
  callService("data-api", `/api/v1/companies/${enc(companyId)}/admin-data-sources`, as, { schema: adminDataSourcesResponseSchema });

/** A page of the company's people (client portal), searched and counted there in SQL, with their product role in it; `id`: only those. */
export const companyUsersPage = (as: Caller, companyId: string, query: { name?: string | undefined; page?: number; pageSize?: number; id?: string[] }) =>
  callService("client-portal", `/api/v1/companies/${enc(companyId)}/users/page`, as, {
    schema: companyUsersPageSchema,
    query: { ...query, include: "roles" },
  });

/**
 * The company's people with these ids (client portal), for the names a page shows ("started by", a
 * page of grants): asked by id, never the company's whole list; no ids, no call. Callers pass a
 * page's ids; more than the client portal answers at once are asked in batches side by side.
 */
export async function companyUsersByIds(as: Caller, companyId: string, ids: readonly string[]): Promise<CompanyUser[]> {
  const unique = [...new Set(ids)];
  const batches: string[][] = [];
  for (let i = 0; i < unique.length; i += USER_IDS_AT_ONCE) batches.push(unique.slice(i, i + USER_IDS_AT_ONCE));
  const pages = await Promise.all(batches.map((id) => companyUsersPage(as, companyId, { id, pageSize: USER_IDS_AT_ONCE })));
  return pages.flatMap((p) => p.items);
}
