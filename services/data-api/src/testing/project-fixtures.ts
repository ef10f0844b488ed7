/** Test data for the project routes: applications, projects made through the API, dictionary tables. */
import { randomUUID } from "node:crypto";
import type { ColumnInput, TableInput } from "../../../../contracts/dictionary.ts";
import type { Configuration } from "../../../../contracts/configurations.ts";
import type { Project } from "../../../../contracts/projects.ts";
import { createApplication } from "../repositories/applications.ts";
import { createTable, findProjectDictionaryRef } from "../repositories/dictionaries.ts";
import type { TestApi } from "./harness.ts";

export async function makeApplication(api: TestApi, companyId: string, name = `App ${randomUUID().slice(0, 8)}`) {
  return createApplication(api.db, { companyId, name, description: null });
}

export type ProjectInput = { companyId: string; applicationId: string; name?: string; sourceType?: "BackUp" | "FlatFile"; description?: string };

/** A project created through POST /api/v1/projects by `token`'s user (who gets read and write). */
export async function makeProject(api: TestApi, token: string, input: ProjectInput): Promise<Project> {
  const res = await api.send("POST", "/api/v1/projects", token, {
    name: `Project ${randomUUID().slice(0, 8)}`,
    sourceType: "BackUp",
    ...input,
  });
  if (res.status !== 201) throw new Error(`creating a project answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as Project;
}

export type ConfigurationInput = { companyId: string; applicationId: string; schemeIds: string[]; name?: string; description?: string; isDefault?: boolean };

/** A configuration created through POST /api/v1/audit-projects by `token`'s user (who gets read and write). */
export async function makeConfiguration(api: TestApi, token: string, input: ConfigurationInput): Promise<Configuration> {
  const res = await api.send("POST", "/api/v1/audit-projects", token, { name: `Configuration ${randomUUID().slice(0, 8)}`, ...input });
  if (res.status !== 201) throw new Error(`creating a configuration answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as Configuration;
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
export async function addProjectTable(api: TestApi, projectId: string, table: Omit<TableInput, "description"> & { description?: string | null }) {
  const ref = await findProjectDictionaryRef(api.db, projectId);
  if (!ref) throw new Error(`project ${projectId} has no dictionary`);
  return createTable(api.db, ref.id, { description: null, ...table }, { expectedVersion: ref.version, userId: "fixture" });
}

/**
 * Makes the databases of a project whose dictionary is ready (upload type SingleFile, then
 * try-create-databases) and waits for the job: the project ends at "Setup: load source data".
 */
export async function createProjectDatabases(api: TestApi, token: string, projectId: string, beforeCreate?: () => Promise<void>): Promise<Project> {
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
export async function loadableProject(api: TestApi, token: string, input: ProjectInput, beforeCreate?: (project: Project) => Promise<void>): Promise<Project> {
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
export async function makeMappingProject(api: TestApi, token: string, input: MappingProjectInput): Promise<Project> {
  const res = await api.send("POST", "/api/v1/mapping-projects", token, { ...input, name: input.name ?? `Mapping ${randomUUID().slice(0, 8)}` });
  if (res.status !== 201) throw new Error(`creating a mapping project answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as Project;
}
