import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../../scripts/demo-data.ts";
import { createKysely } from "../../../shared/db.ts";
import { TEST_DATABASE_KINDS, createTestDatabase, type TestDatabase } from "../../../shared/testing/databases.ts";
import { migrateDatabase } from "../db/migrate.ts";
import type { Database } from "../db/schema.ts";
import { seedDemo } from "../seed.ts";
import { createApplication } from "./applications.ts";
import { createDictionary } from "./dictionaries.ts";
import { bumpVersion } from "./dictionary-version.ts";
import { staleSave } from "./stale-saves.ts";

const [, acme] = DEMO_COMPANIES;
const at = new Date("2026-11-27T14:05:00Z");

describe.each(TEST_DATABASE_KINDS)("staleSave on %s", (kind) => {
  let database: TestDatabase;
  let db: Kysely<Database>;
  let dictionaryId: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    db = createKysely<Database>(database.url);
    await migrateDatabase(db);
    await seedDemo(db);
    const application = await createApplication(db, { companyId: acme!.id, name: "Stale saves", description: null });
    dictionaryId = await createDictionary(db, {
      companyId: acme!.id,
      applicationId: application.id,
      projectId: null,
      name: "Stale",
      description: null,
      userId: "ana",
    });
    await bumpVersion(db, dictionaryId, { expectedVersion: 1, userId: "ana", now: at });
  });

  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  const refusal = async (userId: string, id = dictionaryId) =>
    (await staleSave(db, { table: "dictionaries", key: "id", id }, userId, "this dictionary")).message;

  it("tells the writer of the version that is there now that it was their other tab, with when", async () => {
    expect(await refusal("ana")).toMatch(/^You changed this dictionary in another tab or window on 2026-11-27 at 14:05 UTC\. Nothing was saved.$/);
  });

  it("tells anyone else, and anyone about a row that is gone, that someone else changed it", async () => {
    expect(await refusal("ben")).toBe("This dictionary was changed by someone else. Nothing was saved.");
    expect(await refusal("ana", "no-such-dictionary")).toBe("This dictionary was changed by someone else. Nothing was saved.");
  });
});
