import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { LockEvent, MoveDirection, Script, ScriptVersion, ScriptVersionSummary } from "../../../../contracts/templates.ts";
import type { LockState } from "../../../../contracts/values/projects.ts";
import { staleSaveMessage } from "../../../../contracts/values/common.ts";
import { ApiProblem, DuplicateNameError, NotFoundError } from "../api-problem.ts";
import type { Database } from "../db/schema.ts";
import { inTransaction, nameKey, totalOf } from "./db-helpers.ts";
import { lastChangeOf } from "./stale-saves.ts";
import { bumpTemplate, insertScript, requireLevel, swapWithNeighbour, type TemplateWrite, type Writer } from "./templates.ts";

/**
 * Scripts of a template's levels, their versions and their lock (issue 11). A save is a new version
 * (never an update of one), based on the version the editor showed: a save on a stale version is
 * refused, so nothing anyone saved is ever lost. Only the lock's holder saves; a lock whose holder
 * went away lapses after the lock TTL (env SCRIPT_LOCK_TTL_MINUTES), and each save renews it.
 */

export const SCRIPT_NOT_FOUND_MESSAGE = "Script not found.";
export const VERSION_NOT_FOUND_MESSAGE = "Version not found.";
export const DUPLICATE_SCRIPT_MESSAGE = "A script with this name already exists in this level";

/** Lock rules depend on time: the TTL, and now. */
export type LockClock = { ttlMs: number; now?: Date };

type ScriptRow = Database["scripts"];

/** The lock as it stands now: a Locked row whose lock lapsed reads as Unlocked. */
function effectiveLock(row: Pick<ScriptRow, "lock_state" | "locked_by" | "locked_by_name" | "locked_at">, clock: LockClock) {
  const now = (clock.now ?? new Date()).getTime();
  const expiresAt = row.lock_state === "Locked" && row.locked_at ? Date.parse(row.locked_at) + clock.ttlMs : null;
  if (row.lock_state === "Locked" && expiresAt !== null && expiresAt > now)
    return { state: "Locked" as LockState, by: row.locked_by, byName: row.locked_by_name, at: row.locked_at, expiresAt: new Date(expiresAt).toISOString() };
  return { state: (row.lock_state === "Locked" ? "Unlocked" : row.lock_state) as LockState, by: null, byName: null, at: null, expiresAt: null };
}

/** A script of `templateId` (404 when it is another's), with its row. */
async function requireScript(db: Kysely<Database>, templateId: string, scriptId: string): Promise<ScriptRow> {
  const row = await db.selectFrom("scripts").selectAll().where("id", "=", scriptId).where("template_id", "=", templateId).executeTakeFirst();
  if (!row) throw new NotFoundError(SCRIPT_NOT_FOUND_MESSAGE);
  return row;
}

export async function getScript(db: Kysely<Database>, templateId: string, scriptId: string, clock: LockClock): Promise<Script> {
  const row = await db
    .selectFrom("scripts as s")
    .innerJoin("template_levels as l", "l.id", "s.level_id")
    .innerJoin("templates as t", "t.id", "s.template_id")
    .innerJoin("script_versions as v", (join) => join.onRef("v.script_id", "=", "s.id").onRef("v.version", "=", "s.version"))
    .selectAll("s")
    .select(["l.name as level_name", "t.name as template_name", "v.sql"])
    .where("s.id", "=", scriptId)
    .where("s.template_id", "=", templateId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError(SCRIPT_NOT_FOUND_MESSAGE);
  const order = await db
    .selectFrom("scripts")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("level_id", "=", row.level_id)
    .where("position", "<=", row.position)
    .executeTakeFirstOrThrow();
  const lock = effectiveLock(row, clock);
  return {
    id: row.id,
    templateId: row.template_id,
    templateName: row.template_name,
    levelId: row.level_id,
    levelName: row.level_name,
    name: row.name,
    order: Number(order.n),
    version: row.version,
    sql: row.sql,
    lockState: lock.state,
    lockedBy: lock.by,
    lockedByName: lock.byName,
    lockedAt: lock.at,
    lockExpiresAt: lock.expiresAt,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    updatedByName: row.updated_by_name,
  };
}

async function scriptNameTaken(db: Kysely<Database>, levelId: string, key: string, exceptId?: string) {
  let q = db.selectFrom("scripts").select("id").where("level_id", "=", levelId).where("name_key", "=", key);
  if (exceptId) q = q.where("id", "!=", exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** A new script at the end of its level, version 1, unlocked. The SQL was checked by the caller. */
export async function createScript(
  db: Kysely<Database>,
  templateId: string,
  levelId: string,
  write: TemplateWrite & { name: string; sql: string; comment: string | null },
): Promise<string> {
  return inTransaction(db, async (trx) => {
    await bumpTemplate(trx, templateId, write);
    await requireLevel(trx, templateId, levelId);
    const key = nameKey(write.name);
    if (await scriptNameTaken(trx, levelId, key)) throw new DuplicateNameError("name", DUPLICATE_SCRIPT_MESSAGE);
    const last = await trx
      .selectFrom("scripts")
      .select((eb) => eb.fn.max("position").as("p"))
      .where("level_id", "=", levelId)
      .executeTakeFirst();
    return insertScript(
      trx,
      { templateId, levelId, name: write.name, position: Number(last?.p ?? -1) + 1, sql: write.sql, comment: write.comment ?? "Created" },
      write,
    );
  });
}

/**
 * Refuses a change by anyone but the holder of a live lock. A writer whose lock was forced open or
 * lapsed while they edited is told so, not merely to lock first: their text is not saved.
 */
async function requireLockHolder(db: Kysely<Database>, row: ScriptRow, writer: Writer, clock: LockClock) {
  const lock = effectiveLock(row, clock);
  if (lock.state !== "Locked") throw new ApiProblem(409, "lock_required", await lockLostMessage(db, row, writer));
  if (lock.by !== writer.userId)
    throw new ApiProblem(409, "locked_by_other", `${lock.byName ?? "Someone else"} holds the lock on this script: only they can save it.`);
}

async function lockLostMessage(db: Kysely<Database>, row: ScriptRow, writer: Writer): Promise<string> {
  const again = "lock the script again, then save.";
  if (row.lock_state === "Locked") return row.locked_by === writer.userId ? `Your lock lapsed: ${again}` : "Lock the script for editing first.";
  if (row.lock_state !== "ForceUnlocked") return "Lock the script for editing first.";
  const [forced, before] = await db
    .selectFrom("script_lock_events")
    .selectAll()
    .where("script_id", "=", row.id)
    .orderBy("at", "desc")
    .orderBy("id")
    .limit(2)
    .execute();
  if (!forced || forced.state !== "ForceUnlocked") return "Lock the script for editing first.";
  const whose = before?.state === "Locked" && before.user_id === writer.userId ? "Your" : "The";
  return `${whose} lock was taken away by ${forced.user_name ?? "an administrator"}${forced.reason ? ` (“${forced.reason}”)` : ""}: ${again}`;
}

/**
 * A new version with `sql`, based on `baseVersion`: refused (409 stale_version) when someone saved
 * since, so the editor can show what changed meanwhile. Renews the holder's lock. `restored`: the
 * earlier version a restore makes the newest, based on the newest its page showed (its own words when stale).
 */
export async function saveScript(
  db: Kysely<Database>,
  templateId: string,
  scriptId: string,
  write: Writer & { baseVersion: number; sql: string; comment: string | null; restored?: number },
  clock: LockClock,
): Promise<number> {
  return inTransaction(db, async (trx) => {
    // The template's row first: on PostgreSQL its update locks it, so saves to one template queue.
    await bumpTemplate(trx, templateId, { ...write, expectedVersion: null });
    const row = await requireScript(trx, templateId, scriptId);
    await requireLockHolder(trx, row, write, clock);
    if (row.version !== write.baseVersion)
      throw new ApiProblem(
        409,
        "stale_version",
        staleSaveMessage(
          "this script",
          lastChangeOf(row, write.userId),
          write.restored === undefined
            ? `Version ${row.version} was saved after the version ${write.baseVersion} you edited: nothing was saved.`
            : `Version ${row.version} was saved after the version ${write.baseVersion} your restore was based on: version ${write.restored} was not restored.`,
        ),
      );
    const version = row.version + 1;
    const now = (write.now ?? new Date()).toISOString();
    await trx
      .insertInto("script_versions")
      .values({ script_id: scriptId, version, sql: write.sql, comment: write.comment, author: write.userId, author_name: write.userName, created_at: now })
      .execute();
    await trx
      .updateTable("scripts")
      .set({ version, updated_at: now, updated_by: write.userId, updated_by_name: write.userName, locked_at: now })
      .where("id", "=", scriptId)
      .execute();
    return version;
  });
}

export async function renameScript(db: Kysely<Database>, templateId: string, scriptId: string, write: TemplateWrite & { name: string }) {
  await inTransaction(db, async (trx) => {
    await bumpTemplate(trx, templateId, write);
    const row = await requireScript(trx, templateId, scriptId);
    const key = nameKey(write.name);
    if (await scriptNameTaken(trx, row.level_id, key, scriptId)) throw new DuplicateNameError("name", DUPLICATE_SCRIPT_MESSAGE);
    await trx.updateTable("scripts").set({ name: write.name, name_key: key }).where("id", "=", scriptId).execute();
  });
}

/** Deletes the script with its versions and lock audit; refused while someone else holds its lock. */
export async function deleteScript(db: Kysely<Database>, templateId: string, scriptId: string, write: TemplateWrite, clock: LockClock) {
  await inTransaction(db, async (trx) => {
    await bumpTemplate(trx, templateId, write);
    const row = await requireScript(trx, templateId, scriptId);
    const lock = effectiveLock(row, clock);
    if (lock.state === "Locked" && lock.by !== write.userId)
      throw new ApiProblem(409, "locked_by_other", `${lock.byName ?? "Someone else"} holds the lock on this script: it cannot be deleted now.`);
    await trx.deleteFrom("scripts").where("id", "=", scriptId).execute();
  });
}

export async function moveScript(db: Kysely<Database>, templateId: string, scriptId: string, write: TemplateWrite & { direction: MoveDirection }) {
  await inTransaction(db, async (trx) => {
    await bumpTemplate(trx, templateId, write);
    const row = await requireScript(trx, templateId, scriptId);
    const siblings = await trx.selectFrom("scripts").select(["id", "position"]).where("level_id", "=", row.level_id).orderBy("position").execute();
    await swapWithNeighbour(trx, "scripts", siblings, scriptId, write.direction);
  });
}

/* ---------- Versions ---------- */

export async function listVersions(db: Kysely<Database>, templateId: string, scriptId: string, page: { page: number; pageSize: number }) {
  await requireScript(db, templateId, scriptId);
  const rows = await db
    .selectFrom("script_versions")
    // Lines counted in SQL: a page of versions never reads their text (a script may be a megabyte).
    .select(["version", "comment", "author", "author_name", "created_at", sql<number>`length(sql) - length(replace(sql, ${"\n"}, '')) + 1`.as("lines")])
    .where("script_id", "=", scriptId)
    .orderBy("version", "desc")
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  const total = await totalOf(rows.length, page, () =>
    db
      .selectFrom("script_versions")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("script_id", "=", scriptId)
      .executeTakeFirstOrThrow(),
  );
  const items: ScriptVersionSummary[] = rows.map((r) => ({
    version: r.version,
    comment: r.comment,
    author: r.author,
    authorName: r.author_name,
    createdAt: r.created_at,
    lines: Number(r.lines),
  }));
  return { items, total, ...page };
}

/** `version` null: the path named none (versionInPath), so none is found, after the script is. */
export async function getVersion(db: Kysely<Database>, templateId: string, scriptId: string, version: number | null): Promise<ScriptVersion> {
  await requireScript(db, templateId, scriptId);
  if (version === null) throw new NotFoundError(VERSION_NOT_FOUND_MESSAGE);
  const r = await db.selectFrom("script_versions").selectAll().where("script_id", "=", scriptId).where("version", "=", version).executeTakeFirst();
  if (!r) throw new NotFoundError(VERSION_NOT_FOUND_MESSAGE);
  return {
    version: r.version,
    comment: r.comment,
    author: r.author,
    authorName: r.author_name,
    createdAt: r.created_at,
    lines: r.sql.split("\n").length,
    sql: r.sql,
  };
}

/* ---------- Lock ---------- */

async function recordLock(trx: Kysely<Database>, scriptId: string, state: LockState, writer: Writer, reason: string | null) {
  await trx
    .insertInto("script_lock_events")
    .values({
      id: randomUUID(),
      script_id: scriptId,
      state,
      user_id: writer.userId,
      user_name: writer.userName,
      reason,
      at: (writer.now ?? new Date()).toISOString(),
    })
    .execute();
}

/*
 * Lock changes do not move the template's version (a lock is not a change of the template): each is
 * one conditional UPDATE instead, so two people locking at once cannot both win.
 */

/** "Lock for editing": refused while another holds a live lock; a lapsed lock is taken over. Locking one's own lock again renews it. */
export async function lockScript(db: Kysely<Database>, templateId: string, scriptId: string, writer: Writer, clock: LockClock) {
  await inTransaction(db, async (trx) => {
    const now = writer.now ?? new Date();
    const lapsed = new Date(now.getTime() - clock.ttlMs).toISOString();
    const result = await trx
      .updateTable("scripts")
      .set({ lock_state: "Locked", locked_by: writer.userId, locked_by_name: writer.userName, locked_at: now.toISOString() })
      .where("id", "=", scriptId)
      .where("template_id", "=", templateId)
      .where((eb) => eb.or([eb("lock_state", "!=", "Locked"), eb("locked_by", "=", writer.userId), eb("locked_at", "<=", lapsed)]))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) {
      const row = await requireScript(trx, templateId, scriptId);
      // No time here: the page shows the lock, with its time in the reader's format, beside this message.
      throw new ApiProblem(409, "locked_by_other", `${row.locked_by_name ?? "Someone else"} holds the lock on this script: only they can save it.`);
    }
    await recordLock(trx, scriptId, "Locked", writer, null);
  });
}

/** "Unlock": only the holder (a lapsed lock needs no unlocking, but its holder may still say so). */
export async function unlockScript(db: Kysely<Database>, templateId: string, scriptId: string, writer: Writer) {
  await inTransaction(db, async (trx) => {
    const result = await trx
      .updateTable("scripts")
      .set({ lock_state: "Unlocked", locked_by: null, locked_by_name: null, locked_at: null })
      .where("id", "=", scriptId)
      .where("template_id", "=", templateId)
      .where("lock_state", "=", "Locked")
      .where("locked_by", "=", writer.userId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) {
      const row = await requireScript(trx, templateId, scriptId);
      if (row.lock_state !== "Locked") throw new ApiProblem(409, "not_locked", "This script is not locked.");
      throw new ApiProblem(
        409,
        "locked_by_other",
        `${row.locked_by_name ?? "Someone else"} holds the lock: only they, or an administrator with "Force unlock", can release it.`,
      );
    }
    await recordLock(trx, scriptId, "Unlocked", writer, null);
  });
}

/** "Force unlock" (SuperAdmin, Support; the caller checks the role): with a reason, recorded. */
export async function forceUnlockScript(db: Kysely<Database>, templateId: string, scriptId: string, writer: Writer & { reason: string }) {
  await inTransaction(db, async (trx) => {
    const result = await trx
      .updateTable("scripts")
      .set({ lock_state: "ForceUnlocked", locked_by: null, locked_by_name: null, locked_at: null })
      .where("id", "=", scriptId)
      .where("template_id", "=", templateId)
      .where("lock_state", "=", "Locked")
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) {
      await requireScript(trx, templateId, scriptId);
      throw new ApiProblem(409, "not_locked", "This script is not locked.");
    }
    await recordLock(trx, scriptId, "ForceUnlocked", writer, writer.reason);
  });
}

export async function listLockEvents(db: Kysely<Database>, templateId: string, scriptId: string, page: { page: number; pageSize: number }) {
  await requireScript(db, templateId, scriptId);
  const rows = await db
    .selectFrom("script_lock_events")
    .selectAll()
    .where("script_id", "=", scriptId)
    .orderBy("at", "desc")
    .orderBy("id")
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  const total = await totalOf(rows.length, page, () =>
    db
      .selectFrom("script_lock_events")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("script_id", "=", scriptId)
      .executeTakeFirstOrThrow(),
  );
  const items: LockEvent[] = rows.map((r) => ({ id: r.id, state: r.state as LockState, userId: r.user_id, userName: r.user_name, reason: r.reason, at: r.at }));
  return { items, total, ...page };
}
