import { sql, type Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createKysely } from "../../../shared/db.ts";
import { TEST_DATABASE_KINDS, createTestDatabase, type TestDatabase } from "../../../shared/testing/databases.ts";
import { compiledByShape, totalOf } from "./db-helpers.ts";

describe("totalOf", () => {
  const page = (n: number) => ({ page: n, pageSize: 25 });

  it("tells the total from a page that is neither empty nor full, without counting", async () => {
    const count = vi.fn(async () => ({ n: 999 }));
    expect(await totalOf(3, page(1), count)).toBe(3);
    expect(await totalOf(10, page(3), count)).toBe(60);
    expect(await totalOf(0, page(1), count)).toBe(0);
    expect(count).not.toHaveBeenCalled();
  });

  it("counts in SQL after a full page, and after an empty page past the first", async () => {
    expect(await totalOf(25, page(1), async () => ({ n: "80" }))).toBe(80);
    expect(await totalOf(0, page(9), async () => ({ n: 80 }))).toBe(80);
  });
});

type Items = { items: { id: number; owner: string; colour: string } };

describe.each(TEST_DATABASE_KINDS)("compiledByShape on %s", (kind) => {
  let database: TestDatabase;
  let db: Kysely<Items>;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    db = createKysely<Items>(database.url);
    await sql`create table items (id integer primary key, owner text not null, colour text not null)`.execute(db);
    await db
      .insertInto("items")
      .values([
        { id: 1, owner: "a", colour: "red" },
        { id: 2, owner: "a", colour: "blue" },
        { id: 3, owner: "b", colour: "red" },
        { id: 4, owner: "b", colour: "green" },
      ])
      .execute();
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  const items = compiledByShape((db: Kysely<Items>, shape: { colours: number }, param) => {
    let query = db.selectFrom("items").select("id").where("owner", "=", param("owner"));
    if (shape.colours) query = query.where("colour", "in", Array.from({ length: shape.colours }, (_, i) => param(`colour${i}`)));
    return query.orderBy("id");
  });
  const ids = (rows: { id: number }[]) => rows.map((r) => Number(r.id));

  it("fills each call's values by name into the query of its shape, even when calls of one shape run at once", async () => {
    const [a, b, aRed, bRed] = await Promise.all([
      items(db, { colours: 0 }, { owner: "a" }),
      items(db, { colours: 0 }, { owner: "b" }),
      items(db, { colours: 1 }, { owner: "a", colour0: "red" }),
      items(db, { colours: 1 }, { owner: "b", colour0: "red" }),
    ]);
    expect([ids(a), ids(b), ids(aRed), ids(bRed)]).toEqual([[1, 2], [3, 4], [1], [3]]);
    expect(ids(await items(db, { colours: 2 }, { owner: "b", colour0: "green", colour1: "red" }))).toEqual([3, 4]);
  });

  it("refuses a value built into the query, which every later call of the shape would get", async () => {
    const built = compiledByShape((db: Kysely<Items>, _shape: Record<string, never>) => db.selectFrom("items").select("id").where("owner", "=", "a"));
    await expect(built(db, {}, {})).rejects.toThrow(/a value was built into a query/);
  });

  it("refuses a call whose values are not exactly the query's parameters", async () => {
    await expect(items(db, { colours: 0 }, {})).rejects.toThrow(/owner/);
    await expect(items(db, { colours: 0 }, { owner: undefined })).rejects.toThrow(/no value for the parameter owner/);
    // A value the shape has no place for would be a filter silently left out.
    await expect(items(db, { colours: 0 }, { owner: "a", colour0: "red" })).rejects.toThrow(/do not match/);
  });
});
