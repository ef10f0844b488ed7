import { describe, expect, it } from "vitest";
import { DEMO_ADMIN_DATA_SOURCES, DEMO_PASSWORD } from "../../../scripts/demo-data.ts";
import { listAdminDataSources } from "./db/admin-data-sources.ts";
import { TEST_DATABASE_KINDS } from "../../shared/testing/databases.ts";
import { findUserByEmail, listPermissions } from "./db/users.ts";
import { verifyPassword } from "./passwords.ts";
import { seedDemo } from "./seed.ts";
import { createMigratedDatabase } from "./test-support.ts";

describe.each(TEST_DATABASE_KINDS)("demo seed on %s", (kind) => {
  it("creates the seven demo users with password demo, their permissions and the branding row", async () => {
    const { db, drop } = await createMigratedDatabase(kind);
    try {
      expect(await seedDemo(db, "Custom_TranslationAnalyst")).toEqual({ usersCreated: 7 });
      const translator = (await findUserByEmail(db, "Translator@Demo.Test"))!;
      expect(translator.roles).toBe("Custom_TranslationAnalyst");
      expect(await verifyPassword(DEMO_PASSWORD, translator.password_hash)).toBe(true);
      expect(await listPermissions(db, translator.id)).toEqual([
        { companyId: "2b7d9e13-5a8c-4f60-b2d4-7e91c3a5f802", productRoleName: "Custom_TranslationAnalyst" },
      ]);
      const { count } = await db.selectFrom("permissions").select((eb) => eb.fn.countAll<string>().as("count")).executeTakeFirstOrThrow();
      expect(Number(count)).toBe(7);
      expect(await db.selectFrom("branding").selectAll().execute()).toHaveLength(1);
    } finally {
      await drop();
    }
  });

  it("is idempotent and never overwrites an existing user", async () => {
    const { db, drop } = await createMigratedDatabase(kind);
    try {
      await seedDemo(db, "FusionPSI_TranslationAnalyst");
      await db.updateTable("users").set({ name: "Ann Renamed", roles: "SuperAdmin" }).where("email", "=", "analyst@demo.test").execute();
      await db.updateTable("branding").set({ name: "Acme Portal" }).execute();
      const before = await db.selectFrom("users").select(["id", "password_hash"]).orderBy("id").execute();

      expect(await seedDemo(db, "FusionPSI_TranslationAnalyst")).toEqual({ usersCreated: 0 });

      const analyst = (await findUserByEmail(db, "analyst@demo.test"))!;
      expect(analyst).toMatchObject({ name: "Ann Renamed", roles: "SuperAdmin" });
      expect(await db.selectFrom("users").select(["id", "password_hash"]).orderBy("id").execute()).toEqual(before);
      expect((await db.selectFrom("branding").select("name").executeTakeFirstOrThrow()).name).toBe("Acme Portal");
    } finally {
      await drop();
    }
  });

  it("gives every demo company its two or three schemes, once, keeping a renamed one as it is", async () => {
    const { db, drop } = await createMigratedDatabase(kind);
    try {
      await seedDemo(db, "FusionPSI_TranslationAnalyst");
      const first = DEMO_ADMIN_DATA_SOURCES[0];
      await db.updateTable("admin_data_sources").set({ name: "Renamed Scheme" }).where("id", "=", first.id).execute();
      await seedDemo(db, "FusionPSI_TranslationAnalyst");
      for (const companyId of new Set(DEMO_ADMIN_DATA_SOURCES.map((s) => s.companyId))) {
        const sources = await listAdminDataSources(db, companyId);
        expect(sources.length).toBeGreaterThanOrEqual(2);
        expect(sources.length).toBeLessThanOrEqual(3);
      }
      const { count } = await db.selectFrom("admin_data_sources").select((eb) => eb.fn.countAll<string>().as("count")).executeTakeFirstOrThrow();
      expect(Number(count)).toBe(DEMO_ADMIN_DATA_SOURCES.length);
      expect((await listAdminDataSources(db, first.companyId)).find((s) => s.id === first.id)?.name).toBe("Renamed Scheme");
    } finally {
      await drop();
    }
  });
});
