import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKysely } from "../../../shared/db.ts";
import { TEST_DATABASE_KINDS, createTestDatabase, type TestDatabase } from "../../../shared/testing/databases.ts";
import { insertJsonRows } from "./bulk-insert.ts";

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

  it("does nothing for no rows", async () => {
    await insertJsonRows(db, "t", [{ name: "id", type: "text" }], []);
  });
});
