import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DATABASE_KINDS } from "../../../shared/testing/databases.ts";
import { createMigratedDatabase } from "../test-support.ts";
import { createOidcAdapterFactory, purgeExpiredOidcPayloads } from "./oidc-adapter.ts";

describe.each(TEST_DATABASE_KINDS)("oidc-provider storage on %s", (kind) => {
  let database: Awaited<ReturnType<typeof createMigratedDatabase>>;
  let adapter: ReturnType<typeof createOidcAdapterFactory>;

  beforeAll(async () => {
    database = await createMigratedDatabase(kind);
    adapter = createOidcAdapterFactory(database.db);
  });
  afterAll(async () => database?.drop());

  it("keeps a payload until it expires, per model", async () => {
    const sessions = adapter("Session");
    await sessions.upsert("s1", { uid: "u1", accountId: "acc", exp: 1 }, 60);
    expect(await sessions.find("s1")).toEqual({ uid: "u1", accountId: "acc", exp: 1 });
    expect(await sessions.findByUid("u1")).toMatchObject({ accountId: "acc" });
    expect(await adapter("Grant").find("s1")).toBeUndefined();

    await sessions.upsert("s1", { uid: "u1", accountId: "other" }, 60);
    expect(await sessions.find("s1")).toMatchObject({ accountId: "other" });

    await sessions.upsert("gone", { uid: "u2" }, -1);
    expect(await sessions.find("gone")).toBeUndefined();
    expect(await purgeExpiredOidcPayloads(database.db)).toBeGreaterThanOrEqual(1);
  });

  it("marks a consumed code, so a second use can be detected", async () => {
    const codes = adapter("AuthorizationCode");
    await codes.upsert("c1", { grantId: "g1" }, 60);
    expect((await codes.find("c1"))?.consumed).toBeUndefined();
    await codes.consume("c1");
    const consumed = (await codes.find("c1"))?.consumed;
    expect(typeof consumed).toBe("number");
    expect(Math.abs(consumed - Date.now() / 1000)).toBeLessThan(5);
  });

  it("revokes every token of a grant and nothing else", async () => {
    await adapter("RefreshToken").upsert("r1", { grantId: "g2" }, 60);
    await adapter("AccessToken").upsert("a1", { grantId: "g2" }, 60);
    await adapter("RefreshToken").upsert("r2", { grantId: "g3" }, 60);
    await adapter("Grant").upsert("g2", { accountId: "acc" }, 60);
    await adapter("RefreshToken").revokeByGrantId("g2");
    expect(await adapter("RefreshToken").find("r1")).toBeUndefined();
    expect(await adapter("AccessToken").find("a1")).toBeUndefined();
    expect(await adapter("RefreshToken").find("r2")).toBeDefined();
    await adapter("RefreshToken").destroy("r2");
    expect(await adapter("RefreshToken").find("r2")).toBeUndefined();
  });

  it("finds device codes by user code", async () => {
    await adapter("DeviceCode").upsert("d1", { userCode: "ABCD-EFGH" }, 60);
    expect(await adapter("DeviceCode").findByUserCode("ABCD-EFGH")).toMatchObject({ userCode: "ABCD-EFGH" });
  });
});
