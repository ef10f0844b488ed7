import { sql, type Kysely } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createKysely } from "../../../shared/db.ts";
import { createTestDatabase, type TestDatabase } from "../../../shared/testing/databases.ts";
import { createProgressDb } from "./progress-db.ts";

type Db = { progress: { id: string; rows_read: number } };

describe("the progress connection", () => {
  let database: TestDatabase;
  let db: Kysely<Db>;
  let progressDb: Kysely<Db>;
  beforeEach(async () => {
    database = await createTestDatabase("sqlite");
    db = createKysely<Db>(database.url);
    await sql`create table progress (id text primary key, rows_read integer not null)`.execute(db);
    await db.insertInto("progress").values({ id: "job", rows_read: 0 }).execute();
    progressDb = createProgressDb<Db>(database.url)!;
  });
  afterEach(async () => {
    await progressDb?.destroy();
    await db.destroy();
    await database.drop();
  });

  it("writes what the data API's own connection then reads, and answers how many rows it changed", async () => {
    const changed = await progressDb.updateTable("progress").set({ rows_read: 1200 }).where("id", "=", "job").executeTakeFirst();
    expect(changed.numUpdatedRows).toBe(1n);
    expect(await db.selectFrom("progress").select("rows_read").where("id", "=", "job").executeTakeFirst()).toEqual({ rows_read: 1200 });
    const none = await progressDb.updateTable("progress").set({ rows_read: 5 }).where("id", "=", "gone").executeTakeFirst();
    expect(none.numUpdatedRows).toBe(0n);
  });

  it("waits for a lock on its own thread: the data API's thread goes on meanwhile", async () => {
    // The data API's connection holds the write lock. On the same thread, better-sqlite3 would wait
    // for it synchronously (busy_timeout), and no timer could fire before it was released.
    await sql`begin immediate`.execute(db);
    const written = progressDb.updateTable("progress").set({ rows_read: 7 }).where("id", "=", "job").execute();
    let settled = false;
    void written.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled).toBe(false);
    await sql`commit`.execute(db);
    await written;
    expect(await db.selectFrom("progress").select("rows_read").where("id", "=", "job").executeTakeFirst()).toEqual({ rows_read: 7 });
  });

  it("answers a failed statement with its error, and goes on with the next", async () => {
    await expect(progressDb.insertInto("progress").values({ id: "job", rows_read: 1 }).execute()).rejects.toThrow(/UNIQUE constraint failed/);
    await progressDb.updateTable("progress").set({ rows_read: 9 }).where("id", "=", "job").execute();
    expect(await db.selectFrom("progress").select("rows_read").where("id", "=", "job").executeTakeFirst()).toEqual({ rows_read: 9 });
  });

  it("keeps a transaction's statements together", async () => {
    await progressDb.transaction().execute(async (trx) => {
      await trx.updateTable("progress").set({ rows_read: 10 }).where("id", "=", "job").execute();
      await trx.insertInto("progress").values({ id: "other", rows_read: 1 }).execute();
    });
    await expect(
      progressDb.transaction().execute(async (trx) => {
        await trx.updateTable("progress").set({ rows_read: 99 }).where("id", "=", "job").execute();
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(await db.selectFrom("progress").select(["id", "rows_read"]).orderBy("id").execute()).toEqual([
      { id: "job", rows_read: 10 },
      { id: "other", rows_read: 1 },
    ]);
  });

  it("is not made for PostgreSQL nor an in-memory database: the data API's connection serves them", () => {
    expect(createProgressDb("postgres://localhost/x")).toBeUndefined();
    expect(createProgressDb(":memory:")).toBeUndefined();
  });
});
