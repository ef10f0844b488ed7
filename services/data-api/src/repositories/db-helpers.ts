import { sql, type Kysely, type RawBuilder } from "kysely";

/**
 * Runs `fn` in a transaction, or inside the caller's when `db` already is one: repository writes
 * stay atomic on their own and still compose into a larger transaction (Kysely does not nest).
 */
export function inTransaction<DB, T>(db: Kysely<DB>, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

/** True for a unique-constraint violation on SQLite (better-sqlite3) or PostgreSQL (pg). */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const code = (err as { code?: unknown }).code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "23505";
}

/** The lower-cased name that unique constraints compare (names are unique case-insensitively). */
export function nameKey(name: string): string {
  return name.trim().toLowerCase();
}

export function toFlag(value: boolean): number {
  return value ? 1 : 0;
}

/**
 * A "name contains" filter on a lower-cased `name_key` column, the same on SQLite and PostgreSQL:
 * the text is lower-cased and `%`, `_` and `\` in it match themselves. Answers undefined for no text.
 */
export function nameKeyContains(column: string, text: string | undefined): RawBuilder<boolean> | undefined {
  const contains = text?.trim().toLowerCase();
  if (!contains) return undefined;
  return sql<boolean>`${sql.ref(column)} like ${`%${escapeLike(contains)}%`} escape '\\'`;
}

export function escapeLike(text: string) {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** A list's `sort` parameter ("name" or "-name"): the key and the SQL direction. */
export function sortOf<K extends string>(sort: K | `-${K}`): { key: K; direction: "asc" | "desc" } {
  const descending = sort.startsWith("-");
  return { key: (descending ? sort.slice(1) : sort) as K, direction: descending ? "desc" : "asc" };
}

/**
 * A list's total, counted in SQL only when the page cannot tell it: a page that is neither empty
 * nor full is the list's last, so the total is its offset plus its rows. Most lists fit on their
 * first page, and the count costs as much as the page itself.
 */
export async function totalOf(rows: number, page: { page: number; pageSize: number }, count: () => Promise<{ n: number | string }>): Promise<number> {
  if (rows > 0 && rows < page.pageSize) return (page.page - 1) * page.pageSize + rows;
  if (rows === 0 && page.page === 1) return 0;
  return Number((await count()).n);
}
