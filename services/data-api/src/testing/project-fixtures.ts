/** Test data for the project routes: applications, projects made through the API, dictionary tables. */
import { randomUUID } from "node:crypto";
import type { ColumnInput, TableInput } from "../../../../contracts/dictionary.ts";
import type { TableComparisonResult } from "../../../../contracts/backups.ts";
import type { Configuration } from "../../../../contracts/configurations.ts";
import type { TranslationDetail } from "../../../../contracts/mappings.ts";
import type { Project } from "../../../../contracts/projects.ts";
import { createApplication } from "../repositories/applications.ts";
import { insertComparison } from "../repositories/backups.ts";
import { createTable, findProjectDictionaryRef } from "../repositories/dictionaries.ts";
import { finishLoad, insertLoad } from "../repositories/loads.ts";
import type { TestApi } from "./harness.ts";

/** What the fixtures use of a data API: the test app's (harness.ts), or one the portal's tests run (app/test/live-services.ts). */
export type FixtureApi = Pick<TestApi, "db" | "jobs" | "get" | "send" | "postForm">;

export async function makeApplication(api: FixtureApi, companyId: string, name = `App ${randomUUID().slice(0, 8)}`) {
  return createApplication(api.db, { companyId, name, description: null });
}

/** The body of an answer with status `status` (any success when not given); else fails naming `what` and the answer. */
function accepted(what: string, res: { status: number; body: any }, status?: number) {
  if (status ? res.status !== status : res.status >= 300) throw new Error(`${what} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

export type ProjectInput = { companyId: string; applicationId: string; name?: string; sourceType?: "BackUp" | "FlatFile"; description?: string };

/** A project created through POST /api/v1/projects by `token`'s user (who gets read and write). */
export async function makeProject(api: FixtureApi, token: string, input: ProjectInput): Promise<Project> {
  const res = await api.send("POST", "/api/v1/projects", token, {
    name: `Project ${randomUUID().slice(0, 8)}`,
    sourceType: "BackUp",
    ...input,
  });
  return accepted("creating a project", res, 201) as Project;
}

export type ConfigurationInput = { companyId: string; applicationId: string; schemeIds: string[]; name?: string; description?: string; isDefault?: boolean };

/** A configuration created through POST /api/v1/audit-projects by `token`'s user (who gets read and write). */
export async function makeConfiguration(api: FixtureApi, token: string, input: ConfigurationInput): Promise<Configuration> {
  const res = await api.send("POST", "/api/v1/audit-projects", token, { name: `Configuration ${randomUUID().slice(0, 8)}`, ...input });
  return accepted("creating a configuration", res, 201) as Configuration;
}

export const column = (name: string, type: ColumnInput["type"], extra: Partial<ColumnInput> = {}): ColumnInput => ({
  name,
  type,
  length: type === "nvarchar" ? 50 : null,
  precision: type === "decimal" ? 10 : null,
  scale: type === "decimal" ? 2 : null,
  nullable: true,
  isKey: false,
  description: null,
  ...extra,
});

/** Adds a table to the project's own dictionary directly (the repository, not the route). */
export async function addProjectTable(api: FixtureApi, projectId: string, table: Omit<TableInput, "description"> & { description?: string | null }) {
  const ref = await findProjectDictionaryRef(api.db, projectId);
  if (!ref) throw new Error(`project ${projectId} has no dictionary`);
  return createTable(api.db, ref.id, { description: null, ...table }, { expectedVersion: ref.version, userId: "fixture" });
}

/**
 * Makes the databases of a project whose dictionary is ready (upload type SingleFile, then
 * try-create-databases) and waits for the job: the project ends at "Setup: load source data".
 */
export async function createProjectDatabases(api: FixtureApi, token: string, projectId: string, beforeCreate?: () => Promise<void>): Promise<Project> {
  await api.db.updateTable("projects").set({ status: "SetupUploadTypeIncomplete" }).where("id", "=", projectId).execute();
  const { version } = (await api.get(`/api/v1/projects/${projectId}`, token)).body as Project;
  await api.send("POST", `/api/v1/projects/${projectId}/upload-type`, token, { uploadType: "SingleFile", version });
  await beforeCreate?.();
  await api.send("POST", `/api/v1/projects/${projectId}/try-create-databases`, token);
  await api.jobs.idle();
  const ready = (await api.get(`/api/v1/projects/${projectId}`, token)).body as Project;
  if (ready.status !== "SetupRestoreDatabaseIncomplete") {
    // The job's own error says why (a flaky failure here is otherwise a mystery: the tests log nothing).
    const jobs = (await api.get(`/api/v1/projects/${projectId}/jobs`, token)).body as { jobs?: { kind: string; error: string | null }[] };
    const error = jobs.jobs?.find((j) => j.kind === "DatabaseCreation")?.error;
    throw new Error(`creating the databases left the project at ${ready.status}${error ? `: ${error}` : ""}`);
  }
  return ready;
}

/**
 * A project whose databases exist, at "Setup: load source data", with Customers (key CustomerId,
 * Code nvarchar(10), Balance decimal(12,2), Since date) and Orders (key OrderId, Note); `beforeCreate`
 * runs once its upload type is set (a Flat file project's parameters, say).
 */
export async function loadableProject(
  api: FixtureApi,
  token: string,
  input: ProjectInput,
  beforeCreate?: (project: Project) => Promise<void>,
): Promise<Project> {
  const project = await makeProject(api, token, input);
  await addProjectTable(api, project.id, {
    name: "Customers",
    columns: [
      column("CustomerId", "int", { isKey: true, nullable: false }),
      column("Code", "nvarchar", { length: 10, nullable: false }),
      column("Balance", "decimal", { precision: 12, scale: 2 }),
      column("Since", "date"),
    ],
  });
  await addProjectTable(api, project.id, { name: "Orders", columns: [column("OrderId", "int", { isKey: true, nullable: false }), column("Note", "nvarchar")] });
  return createProjectDatabases(api, token, project.id, beforeCreate && (() => beforeCreate(project)));
}

export type MappingProjectInput = { companyId: string; applicationId: string; name?: string; description?: string };

/** A mapping project created through POST /api/v1/mapping-projects by `token`'s user. */
export async function makeMappingProject(api: FixtureApi, token: string, input: MappingProjectInput): Promise<Project> {
  const res = await api.send("POST", "/api/v1/mapping-projects", token, { ...input, name: input.name ?? `Mapping ${randomUUID().slice(0, 8)}` });
  return accepted("creating a mapping project", res, 201) as Project;
}

/**
 * Makes the databases of a configuration whose dictionary is ready (onboarding has no upload-type step:
 * try-create-databases) and waits for the job; fails with the job's error if it did not succeed.
 */
export async function createConfigurationDatabases(api: FixtureApi, token: string, configurationId: string): Promise<void> {
  const base = `/api/v1/audit-projects/${configurationId}`;
  accepted("creating the databases", await api.send("POST", `${base}/try-create-databases`, token), 202);
  await api.jobs.idle();
  const jobs = accepted("the jobs", await api.get(`${base}/jobs`, token)) as { jobs: { kind: string; status: string; error: string | null }[] };
  const job = jobs.jobs.find((j) => j.kind === "DatabaseCreation");
  if (job?.status !== "SUCCESS") throw new Error(`creating the databases of ${configurationId} ended ${job?.status}${job?.error ? `: ${job.error}` : ""}`);
}

/** What a project's databases hold after some work, by the path parameter that names each: see projectWorkOf. */
export type ProjectWork = { jobId: string; loadId: string; historyId: string; uploadId: string; runId: string; backupId: string };

/**
 * Work done through the API on a project (or, `collection` audit-projects, a configuration) with a table `table`
 * whose key `key` is an int: its databases created, a flat file loaded with one rejected row (the load, its history
 * entry and job, and the backup the load took first), a file staged for a preview and a Test run of its templates
 * (the project made Active first, as runs.test.ts does). The files are named `fileName` (.csv). Needs the test
 * run's PostgreSQL.
 */
export async function projectWorkOf(
  api: FixtureApi,
  token: string,
  projectId: string,
  table: { name: string; key: string },
  fileName: string,
  collection: "projects" | "audit-projects" = "projects",
): Promise<ProjectWork> {
  const base = `/api/v1/${collection}/${projectId}`;
  if (collection === "projects") await createProjectDatabases(api, token, projectId);
  else await createConfigurationDatabases(api, token, projectId);
  const file = { name: `${fileName}.csv`, content: `${table.key}\n1\nnot a number\n` };
  const loaded = accepted("a load", await api.postForm(`${base}/flat-file/loads`, token, { file, table: table.name, onRejected: "loadOthers" }));
  await api.jobs.idle();
  const staged = accepted("a staged upload", await api.postForm(`${base}/flat-file/uploads`, token, { file, table: table.name }));
  await api.db.updateTable("projects").set({ status: "Active" }).where("id", "=", projectId).execute();
  const run = accepted("a run", await api.send("POST", `${base}/run`, token, { type: "Test", onError: "stop" }));
  await api.jobs.idle();
  const [backup] = accepted("the backups", await api.get(`${base}/backups`, token)).items as { id: string }[];
  return {
    jobId: loaded.jobId,
    loadId: loaded.load.id,
    historyId: loaded.load.id,
    uploadId: staged.uploadId,
    runId: run.run.id,
    backupId: backup!.id,
  };
}

/**
 * What `read` answers once a translation has ended (its status no longer Running): asked every `everyMs` (50 ms),
 * as many times as fit in `withinMs` (10 s) of waits, then "the translation did not end".
 */
export async function whenTranslationEnded<T extends { status: string }>(
  read: () => Promise<T>,
  { everyMs = 50, withinMs = 10_000 }: { everyMs?: number; withinMs?: number } = {},
): Promise<T> {
  for (let i = 0; i * everyMs < withinMs; i++) {
    const translation = await read();
    if (translation.status !== "Running") return translation;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error("the translation did not end");
}

/** A mapping project's translation once it has ended, read through the API by `token`'s user. */
export const translationFinished = (api: FixtureApi, token: string, projectId: string, translationId: string): Promise<TranslationDetail> =>
  whenTranslationEnded(async () => (await api.get(`/api/v1/mapping-projects/${projectId}/translations/${translationId}`, token)).body as TranslationDetail);

/** A mapping project's table and what its maps hold, by the path parameter that names each: see mappingWorkOf. */
export type MappingWork = { tableId: string; columnId: string; importId: string; translationId: string };

/**
 * Work done through the API on a mapping project: a table `code` (one nvarchar column, `code`) in its file
 * data structure, the column translated with one value mapped, an import of its map previewed and left
 * waiting, and a file translated (`fileName`.csv), waited for.
 */
export async function mappingWorkOf(api: FixtureApi, token: string, projectId: string, fileName: string): Promise<MappingWork> {
  const base = `/api/v1/mapping-projects/${projectId}`;
  const { tableId } = await addProjectTable(api, projectId, { name: "code", columns: [column("code", "nvarchar")] });
  const [code] = accepted("the table", await api.get(`${base}/mapping-tables/${tableId}`, token)).columns as { id: string }[];
  const columnUrl = `${base}/mapping-columns/${code!.id}`;
  accepted("the column's settings", await api.send("PUT", `${columnUrl}/settings`, token, { version: 0, translate: true, unmappedRule: "Keep" }));
  accepted("the column's values", await api.send("POST", `${columnUrl}/values`, token, { version: 1, values: [{ sourceValue: "A", targetValue: "B" }] }));
  const imported = accepted(
    "an import",
    await api.postForm(`${columnUrl}/imports`, token, { file: { name: `${fileName}.csv`, content: "source_value,target_value\nA,C\n" } }),
  );
  const started = accepted(
    "a translation",
    await api.postForm(`${base}/translations`, token, { file: { name: `${fileName}.csv`, content: "code\nA\nZ\n" }, table: "code" }),
  );
  await translationFinished(api, token, projectId, started.id);
  return { tableId, columnId: code!.id, importId: imported.id, translationId: started.id };
}

/**
 * A comparison's entry in the workspace's history (Completed, by `userId`) whose result is `tables`, stored as a
 * comparison's job stores it, no database compared: for the pages of a comparison of many tables.
 */
export async function storedComparison(api: Pick<FixtureApi, "db">, workspaceId: string, userId: string, tables: readonly TableComparisonResult[]): Promise<string> {
  const id = await insertLoad(api.db, {
    projectId: workspaceId,
    type: "Comparison",
    fileName: "Earlier.backup.tar",
    fileBytes: 0,
    form: { table: "source", mode: "replace", onRejected: "loadNothing" },
    tables: [],
    parameters: null,
    userId,
    now: new Date(),
  });
  await insertComparison(api.db, id, tables);
  await finishLoad(api.db, id, { status: "Completed", rowsRead: 0, rowsLoaded: 0, rowsRejected: 0, message: null }, new Date());
  return id;
}

/**
 * `count` tables' results of a comparison, T001, T002…, keyed by Id, with a Note column: those `differs` picks have
 * `i` rows added (a sample of each, its Note `note`), one removed and one changed; the others are alike.
 */
export function comparedTables(count: number, differs: (i: number) => boolean, note = "a note"): TableComparisonResult[] {
  return Array.from({ length: count }, (_, index) => {
    const i = index + 1;
    const table = `T${String(i).padStart(3, "0")}`;
    const alike = { table, key: ["Id"], columns: ["Id", "Note"], earlierRows: 10, currentRows: 10, changedColumns: [], columnChanges: [] };
    if (!differs(i)) return { ...alike, added: 0, removed: 0, changed: 0, samples: { added: [], removed: [], changed: [] } };
    return {
      ...alike,
      currentRows: 10 + i - 1,
      added: i,
      removed: 1,
      changed: 1,
      changedColumns: [{ column: "Note", rows: 1 }],
      samples: {
        added: Array.from({ length: Math.min(i, 20) }, (_, r) => [String(100 + r), note]),
        removed: [["1", note]],
        changed: [{ key: ["2"], changes: [{ column: "Note", earlier: note, current: `${note}!` }] }],
      },
    };
  });
}
