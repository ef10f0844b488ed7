import { sql, type Compilable, type CompiledQuery, type Kysely, type RawBuilder } from "kysely";
import { alreadyMadeMessage } from "../../../../contracts/values/common.ts";
import { ApiProblem } from "../api-problem.ts";

/**
 * What a top-level transaction does before it commits, beside its own work: the audit entry of the
 * request that runs it (audit-writes.ts), so the entry commits exactly with the write; the check that
 * no job took the lock of the workspace the request writes (workspace-write-guard.ts). A hook that
 * throws rolls the transaction back. `written()` is called once the transaction has committed.
 */
export type TransactionHook = (trx: Kysely<any>) => Promise<{ written(): void } | undefined>;
const transactionHooks: TransactionHook[] = [];
/** Registered once per module; they run in the order they were added. */
export function addTransactionHook(hook: TransactionHook) {
  transactionHooks.push(hook);
}

/**
 * Runs `fn` in a transaction, or inside the caller's when `db` already is one: repository writes
 * stay atomic on their own and still compose into a larger transaction (Kysely does not nest).
 */
export async function inTransaction<DB, T>(db: Kysely<DB>, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  const hooked: { written(): void }[] = [];
  const result = await db.transaction().execute(async (trx) => {
    const value = await fn(trx);
    for (const hook of transactionHooks) {
      const done = await hook(trx);
      if (done) hooked.push(done);
    }
    return value;
  });
  for (const done of hooked) done.written();
  return result;
}

/** True for a unique-constraint violation on SQLite (better-sqlite3) or PostgreSQL (pg). */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const code = (err as { code?: unknown }).code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "23505";
}

/**
 * Makes, once, a row whose id the form chose (madeIdSchema): a form sent again (a reload of the page
 * that answered it, Back and resubmit) finds the row made and is answered `again(row)` (which answers
 * what the first sending did, or throws its refusal) rather than making a second. `found` reads the row
 * of that id; `make` writes it in a transaction. The same form sent twice at once passes the first look
 * in both requests: the loser's failure (the id's unique violation, or a check that met the winner's
 * row, such as its name taken) is answered the same way, once its transaction is rolled back.
 */
export async function makeOnce<DB, Row, T>(
  db: Kysely<DB>,
  found: () => Promise<Row | undefined>,
  again: (row: Row) => T | Promise<T>,
  make: (trx: Kysely<DB>) => Promise<T>,
): Promise<T> {
  const before = await found();
  if (before) return again(before);
  return inTransaction(db, make).catch(async (err: unknown) => {
    const other = await found();
    if (other) return again(other);
    throw err;
  });
}

/** A create form sent again whose row is not the caller's to be answered (sentAgain): it is not named. */
export const FORM_SENT_ALREADY_MESSAGE = "This form was sent already: nothing more was made. Reload the page to create another.";

/**
 * makeOnce's `again` for a create whose first answer was a redirect to what it made (a workspace, a master
 * dictionary), so that a form sent twice (a double click without JavaScript, a reload that resends it, Back and
 * submit) goes where the first sending went: answers the id of `made` when it is `mine` (the caller's, of this kind
 * and company), made from the values sent now (`same`) and has not moved on (still at version 1: nothing changed
 * since). Else 409 already_made, nothing made: in alreadyMadeMessage's words naming `what` to its maker; in words
 * naming nothing to anyone else, so that an id never tells them the row exists.
 */
export function sentAgain(made: { id: string; version: number | string; created_at: string }, check: { mine: boolean; same: boolean; what: string }): string {
  if (!check.mine) throw new ApiProblem(409, "already_made", FORM_SENT_ALREADY_MESSAGE);
  if (check.same && Number(made.version) === 1) return made.id;
  throw new ApiProblem(409, "already_made", alreadyMadeMessage(check.what, made.created_at, "reload the page to create another."));
}

/** The lower-cased name that unique constraints compare (names are unique case-insensitively). */
export function nameKey(name: string): string {
  return name.trim().toLowerCase();
}

/**
 * The key a name sorts by in natural order ("app 2" before "app 10"), in SQL on both engines alike:
 * the name's key (nameKey) with each run of digits, its leading zeros dropped, written after its
 * length in three digits ("app 10" is "app 00210"), so a longer number sorts after a shorter one
 * under any collation. Stored beside the name when it is written.
 */
export function naturalSortKey(name: string): string {
  return nameKey(name).replace(/\d+/g, (run) => {
    const digits = run.replace(/^0+(?=\d)/, "");
    return String(digits.length).padStart(3, "0") + digits;
  });
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

/**
 * The same for a column of any case (a name as typed, a JSON summary): it is lower-cased in SQL. The
 * text is lower-cased both in SQL, as the column is (SQLite's lower() only lowers ASCII letters, so a
 * name written Überweisungen is found as typed, or in capitals), and here (PostgreSQL's lower() and
 * JavaScript's lower every letter, so either one finds it in any case there).
 */
export function textContains(column: string, text: string): RawBuilder<boolean> {
  const trimmed = text.trim();
  const asTyped = `%${escapeLike(trimmed)}%`;
  const lowered = `%${escapeLike(trimmed.toLowerCase())}%`;
  const ref = sql.ref(column);
  if (asTyped === lowered) return sql<boolean>`lower(${ref}) like ${lowered} escape '\\'`;
  return sql<boolean>`(lower(${ref}) like lower(${asTyped}) escape '\\' or lower(${ref}) like ${lowered} escape '\\')`;
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

/**
 * A hot read compiled once per query *shape* instead of built and compiled on every call: Kysely's
 * immutable builders and its compiler cost more than running a small query (decision 011).
 *
 *   const byName = compiledByShape((db, shape: { sorted: boolean }, param) => …where("name", "=", param("name"))…);
 *   const rows = await byName(db, { sorted: true }, { name: "x" });
 *
 * `build` sees only the shape (what decides the SQL text: which filters, which sort) and `param`,
 * never a request's values, so the SQL cannot depend on anything the cache key leaves out. Every
 * value goes in as a named parameter and is filled in by its name on each call: a value written
 * into the builder instead (a tenant's id, say, that would then be served to every later call)
 * makes compiling throw, and so does a call whose values are not exactly the names the query has.
 * The SQL comes from the db's own compiler (`?` on SQLite, `$1` on PostgreSQL), kept per db.
 */
export function compiledByShape<Shape extends Record<string, string | number | boolean>, Row>(
  build: (db: Kysely<any>, shape: Shape, param: (name: string) => any) => Compilable<Row>,
): (db: Kysely<any>, shape: Shape, values: Record<string, unknown>) => Promise<Row[]> {
  const byDb = new WeakMap<Kysely<any>, Map<string, Shaped<Row>>>();
  return async (db, shape, values) => {
    let shapes = byDb.get(db);
    if (!shapes) byDb.set(db, (shapes = new Map()));
    const key = JSON.stringify(shape);
    let query = shapes.get(key);
    if (!query) {
      query = compileShape(build(db, shape, (name) => new Parameter(name)));
      // Shapes are few by construction (flags and enum values); the bound only guards a mistake.
      if (shapes.size < MAX_SHAPES) shapes.set(key, query);
    }
    const { rows } = await db.executeQuery<Row>({ ...query.compiled, parameters: query.fill(values) });
    return rows;
  };
}

const MAX_SHAPES = 1000;

/** A named hole in a query compiled by compiledByShape. */
class Parameter {
  constructor(readonly name: string) {}
}

type Shaped<Row> = { compiled: CompiledQuery<Row>; fill: (values: Record<string, unknown>) => unknown[] };

function compileShape<Row>(query: Compilable<Row>): Shaped<Row> {
  const compiled = query.compile();
  const names = compiled.parameters.map((p) => {
    if (!(p instanceof Parameter)) throw new Error(`a value was built into a query compiled by shape (${compiled.sql}): pass it with param()`);
    return p.name;
  });
  const distinct = new Set(names).size;
  return {
    compiled,
    fill(values) {
      // As many values as names, each of them there: a value nobody asked for is a filter left out.
      if (Object.keys(values).length !== distinct) throw new Error(`the values ${Object.keys(values)} do not match the parameters ${[...new Set(names)]}`);
      return names.map((name) => {
        if (!Object.hasOwn(values, name) || values[name] === undefined) throw new Error(`no value for the parameter ${name}`);
        return values[name];
      });
    },
  };
}
