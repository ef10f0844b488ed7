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

/** SQLite's files beside a database: the rollback journal, the write-ahead log and its index. */
const SQLITE_COMPANIONS = ["", "-journal", "-wal", "-shm"] as const;

/**
 * What a creation writes before renaming it into place: `${kind}.sqlite.{random}.tmp` and SQLite's
 * journal beside it. A process killed mid-creation leaves them behind (the recovery removes them).
 */
const TEMPORARY_FILE = /\.tmp(?:-journal|-wal|-shm)?$/;

/**
 * Removes what a failed creation made (both databases and their journals), so a failed project has
 * no database that looks usable and a retry starts clean. With `before`, only files last written
 * before then: a creation that started since keeps its own. Answers the paths removed.
 */
export function removeProjectDatabases(dataDir: string, projectId: string, before?: Date): string[] {
  const names = new Set(PROJECT_DATABASE_KINDS.flatMap((kind) => SQLITE_COMPANIONS.map((suffix) => `${kind}.sqlite${suffix}`)));
  return removeFiles(projectDirectory(dataDir, projectId), (name) => names.has(name), before);
}

/** Removes the temporary files of creations that never finished (same `before` rule); answers the paths removed. */
export function removeTemporaryFiles(dataDir: string, projectId: string, before?: Date): string[] {
  return removeFiles(projectDirectory(dataDir, projectId), (name) => TEMPORARY_FILE.test(name), before);
}

/** The projects that have a folder under `${dataDir}/projects`, by id. */
export function projectsWithFolders(dataDir: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(dataDir, "projects"), { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  return entries.filter((e) => e.isDirectory() && SAFE_ID.test(e.name)).map((e) => e.name);
}

function removeFiles(directory: string, matches: (name: string) => boolean, before: Date | undefined): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(directory);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  const removed: string[] = [];
  for (const name of names.filter(matches)) {
    const file = path.join(directory, name);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    // To the millisecond, as `before` is: a file written in the recovery's first millisecond is older
    // than it (file times come from the kernel's coarse clock and cannot order finer anyway).
    if (!stat?.isFile() || (before && Math.floor(stat.mtimeMs) > before.getTime())) continue;
    fs.rmSync(file, { force: true });
    removed.push(file);
  }
  return removed;
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
