/**
 * Where a project's own databases live and how they are made: `${dataDir}/projects/{projectId}/`
 * holds `source.sqlite` (the legacy data as loaded) and `destination.sqlite` (what the scripts
 * produce). ARCHITECTURE.md §5: at scale these become PostgreSQL schemas or files on a shared
 * volume; only this module knows where they are.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { createTableStatement, quoteIdentifier, type DdlTable } from "./sqlite-ddl.ts";

export const PROJECT_DATABASE_KINDS = ["source", "destination"] as const;
export type ProjectDatabaseKind = (typeof PROJECT_DATABASE_KINDS)[number];

/** Ids come from us (UUIDs), but a path is built from it: refuse anything that could leave the folder. */
const SAFE_ID = /^[A-Za-z0-9-]+$/;

export function projectDirectory(dataDir: string, projectId: string): string {
  if (!SAFE_ID.test(projectId)) throw new Error(`Unsafe project id for a path: ${projectId}`);
  return path.join(dataDir, "projects", projectId);
}

export function projectDatabasePath(dataDir: string, projectId: string, kind: ProjectDatabaseKind): string {
  return path.join(projectDirectory(dataDir, projectId), `${kind}.sqlite`);
}

/**
 * Creates the database at `file` with one table per dictionary table, all or nothing: it is built
 * in a temporary file beside the target and renamed into place (atomic on one file system), so a
 * failure or a killed process never leaves half a database under the real name. An existing
 * database at `file` is replaced (a retry after a failed creation).
 */
export function createProjectDatabase(file: string, tables: readonly DdlTable[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    const db = new Database(temporary);
    try {
      db.transaction(() => {
        for (const table of tables) db.exec(createTableStatement(table));
      })();
    } finally {
      db.close();
    }
    fs.renameSync(temporary, file);
  } catch (err) {
    fs.rmSync(temporary, { force: true });
    throw err;
  }
}

/** Removes what a failed creation made, so a failed project has no database that looks usable. */
export function removeProjectDatabases(dataDir: string, projectId: string): void {
  for (const kind of PROJECT_DATABASE_KINDS) fs.rmSync(projectDatabasePath(dataDir, projectId, kind), { force: true });
}

export type DatabaseTableSummary = { name: string; columnCount: number; rowCount: number };
export type DatabaseSummary = { kind: ProjectDatabaseKind; exists: boolean; tables: DatabaseTableSummary[] };

/**
 * What a workspace's databases hold right now (the databases/current page): for each of source and
 * destination whether it exists, and its tables by name with their column and row counts. `table`
 * keeps the tables whose name contains it (any case). Read-only: opening never creates a file.
 */
export function describeProjectDatabases(dataDir: string, projectId: string, table?: string): DatabaseSummary[] {
  const contains = table?.trim().toLowerCase() || undefined;
  return PROJECT_DATABASE_KINDS.map((kind) => {
    const file = projectDatabasePath(dataDir, projectId, kind);
    if (!fs.existsSync(file)) return { kind, exists: false, tables: [] };
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const names = db
        .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' order by lower(name), name")
        .pluck()
        .all() as string[];
      const tables = names
        .filter((name) => !contains || name.toLowerCase().includes(contains))
        .map((name) => ({
          name,
          columnCount: (db.prepare(`select count(*) from pragma_table_info(?)`).pluck().get(name) as number) ?? 0,
          rowCount: Number(db.prepare(`select count(*) from ${quoteIdentifier(name)}`).pluck().get()),
        }));
      return { kind, exists: true, tables };
    } finally {
      db.close();
    }
  });
}
