import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../../scripts/demo-data.ts";
import { createKysely } from "../../../shared/db.ts";
import { TEST_DATABASE_KINDS, createTestDatabase, type TestDatabase } from "../../../shared/testing/databases.ts";
import { seedDemo } from "../seed.ts";
import { migrations } from "./migrations/index.ts";
import { migrateDatabase } from "./migrate.ts";
import type { Database } from "./schema.ts";

describe.each(TEST_DATABASE_KINDS)("migrations and demo seed on %s", (kind) => {
  let database: TestDatabase;
  let db: ReturnType<typeof createKysely<Database>>;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    db = createKysely<Database>(database.url);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it("migrates a fresh database, and a second start changes nothing", async () => {
    const first = await migrateDatabase(db);
    // Every registered migration runs once, in order, and all succeed.
    expect(first.map((r) => r.migrationName)).toEqual(Object.keys(migrations).sort());
    expect(first.every((r) => r.status === "Success")).toBe(true);
    expect(await migrateDatabase(db)).toEqual([]);
    const tables = (await db.introspection.getTables()).map((t) => t.name).sort();
    expect(tables).toEqual(expect.arrayContaining(["admin_data_sources", "companies"]));
  });

  it("seeds the demo companies with their fixed ids in their given order, once, however often it runs", async () => {
    await seedDemo(db);
    await seedDemo(db);
    // No ORDER BY on purpose: insertion order, which must be the demo list's, not alphabetical.
    const companies = await db.selectFrom("companies").select(["id", "name"]).execute();
    expect(companies).toEqual(DEMO_COMPANIES.map((c) => ({ id: c.id, name: c.name })));
    const sources = await db.selectFrom("admin_data_sources").select(["company_id", "name", "engine"]).execute();
    expect(sources).toHaveLength(3);
    for (const company of DEMO_COMPANIES) {
      expect(sources).toContainEqual({ company_id: company.id, name: "Embedded SQLite", engine: "sqlite" });
    }
  });

  it("refuses a data source for a company that does not exist", async () => {
    await expect(
      sql`insert into admin_data_sources (id, company_id, name, engine, created_at) values ('x', 'missing', 'n', 'sqlite', '2024-01-01T00:00:00.000Z')`.execute(db),
    ).rejects.toThrow(/foreign key/i);
  });
});
