import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createKysely } from "../db.ts";
import { TEST_DATABASE_KINDS, createTestDatabase } from "./databases.ts";

describe.each(TEST_DATABASE_KINDS)("test databases on %s", (kind) => {
  it("gives each test a fresh, writable database", async () => {
    const t = await createTestDatabase(kind);
    const db = createKysely<any>(t.url);
    await db.schema.createTable("probe").addColumn("id", "integer").execute();
    await db.insertInto("probe").values({ id: 7 }).execute();
    const rows = await sql<{ id: number }>`select id from probe`.execute(db);
    expect(rows.rows).toEqual([{ id: 7 }]);
    await db.destroy();
    await t.drop();
  });
});
