import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKysely } from "../../../shared/db.ts";
import { TEST_DATABASE_KINDS, createTestDatabase, type TestDatabase } from "../../../shared/testing/databases.ts";
import { NUL_SHOWN, insertJsonRows, updateJsonRows, updateJsonRowsQuery } from "./bulk-insert.ts";

describe.each(TEST_DATABASE_KINDS)("insertJsonRows on %s", (kind) => {
  let database: TestDatabase;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let db: ReturnType<typeof createKysely<any>>;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    db = createKysely(database.url);
    await sql`create table t (id text not null, n integer, big bigint, note text)`.execute(db);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it("stores every value as given: quotes, backslashes, accents, emoji, newlines, nulls and integers", async () => {
    const texts = [`it's "quoted"`, "back\\slash", "Ünïcode ✓ 😀", "line\nbreak", "", "[1, 2]", '{"a": 1}'];
    const rows: (string | number | null)[][] = texts.map((note, i) => [`r${i}`, i - 3, 2 ** 40 + i, note]);
    rows.push(["nulls", null, null, null]);
    await insertJsonRows(db, "t", [{ name: "id", type: "text" }, { name: "n", type: "integer" }, { name: "big", type: "integer" }, { name: "note", type: "text" }], rows);
    const stored = await db.selectFrom("t").select(["id", "n", "big", "note"]).execute();
    const byId = new Map(stored.map((r) => [r.id, [r.id, r.n === null ? null : Number(r.n), r.big === null ? null : Number(r.big), r.note]]));
    expect(byId.size).toBe(rows.length);
    for (const row of rows) expect(byId.get(row[0])).toEqual(row);
  });

  it("keeps a NUL, which PostgreSQL's text cannot hold, as ␀, and text that only reads like its escape as it is", async () => {
    await insertJsonRows(db, "t", [{ name: "id", type: "text" }, { name: "note", type: "text" }], [
      ["nul", "A\u0000B\u0000"],
      ["escape", "back\\u0000slash"],
    ]);
    const stored = await db.selectFrom("t").select(["id", "note"]).where("id", "in", ["nul", "escape"]).orderBy("id").execute();
    expect(stored).toEqual([
      { id: "escape", note: "back\\u0000slash" },
      { id: "nul", note: `A${NUL_SHOWN}B${NUL_SHOWN}` },
    ]);
  });

  it("does nothing for no rows", async () => {
    await insertJsonRows(db, "t", [{ name: "id", type: "text" }], []);
  });
});

describe.each(TEST_DATABASE_KINDS)("updateJsonRows on %s", (kind) => {
  let database: TestDatabase;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let db: ReturnType<typeof createKysely<any>>;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    db = createKysely(database.url);
    await sql`create table steps (run_id text not null, position integer not null, status text not null, rows_affected bigint, note text)`.execute(db);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it("changes the rows each JSON row names, within its scope only, and leaves the others as they were", async () => {
    const insert = [
      ["a", 1, "Pending", null, null],
      ["a", 2, "Pending", null, null],
      ["a", 3, "Pending", null, null],
      ["b", 1, "Pending", null, null],
    ];
    const columns = [
      { name: "run_id", type: "text" },
      { name: "position", type: "integer" },
      { name: "status", type: "text" },
      { name: "rows_affected", type: "integer" },
      { name: "note", type: "text" },
    ] as const;
    await insertJsonRows(db, "steps", columns, insert);
    await updateJsonRows(
      db,
      "steps",
      { name: "run_id", value: "a" },
      [{ name: "position", type: "integer" }],
      [columns[2], columns[3], columns[4]],
      [
        [1, "Completed", 2 ** 40, `it's "done" ✓`],
        [3, "Failed", null, "line\nbreak"],
      ],
    );
    const stored = await db.selectFrom("steps").selectAll().orderBy("run_id").orderBy("position").execute();
    expect(stored.map((r) => [r.run_id, Number(r.position), r.status, r.rows_affected === null ? null : Number(r.rows_affected), r.note])).toEqual([
      ["a", 1, "Completed", 2 ** 40, `it's "done" ✓`],
      ["a", 2, "Pending", null, null],
      ["a", 3, "Failed", null, "line\nbreak"],
      ["b", 1, "Pending", null, null],
    ]);
  });

  it.skipIf(kind !== "sqlite")("reads the JSON rows once and looks each row up by its key, however many rows are in scope", async () => {
    await sql`create table keyed_steps (run_id text not null, position integer not null, status text, primary key (run_id, position))`.execute(db);
    const position = { name: "position", type: "integer" } as const;
    const query = updateJsonRowsQuery(db, "keyed_steps", { name: "run_id", value: "a" }, [position], [{ name: "status", type: "text" }], [[1, "Completed"]]);
    const plan = (await sql<{ detail: string }>`explain query plan ${query}`.execute(db)).rows.map((r) => r.detail);
    // Joined in one go, SQLite searched the table by run_id alone and scanned the whole JSON for each of its rows.
    expect(plan).toContainEqual(expect.stringMatching(/^SEARCH keyed_steps USING .*\(run_id=\? AND position=\?\)/));
  });
});
