import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DATABASE_KINDS, TEST_POSTGRES_ADMIN_URL } from "../../../../shared/testing/databases.ts";
import { TEST_VERSION, USERS, createTestApi, type TestApi } from "../../testing/harness.ts";

describe.skipIf(!TEST_POSTGRES_ADMIN_URL).each(TEST_DATABASE_KINDS)("product info details on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api?.close());

  it("tells a SuperAdmin the version, uptime, control plane, cloud target and each project database server's PostgreSQL version", async () => {
    const res = await api.get("/api/v1/productInfo/details", await api.tokenFor(USERS.superAdmin));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      version: TEST_VERSION,
      controlPlane: kind === "postgres" ? "PostgreSQL" : "SQLite",
      cloudTarget: "AWS",
      databaseServers: [{ id: "test", version: expect.stringMatching(/^\d+(\.\d+)?/), error: null }],
    });
    expect(res.body.uptimeSeconds).toBeGreaterThanOrEqual(0);
    expect(Date.parse(res.body.startedAt)).toBeLessThanOrEqual(Date.now());
  });

  it("is refused to anyone else; the footer's version stays open to every signed-in user", async () => {
    const analyst = await api.tokenFor(USERS.analyst);
    expect((await api.get("/api/v1/productInfo/details", analyst)).status).toBe(403);
    expect((await api.get("/api/v1/productInfo", analyst)).body).toEqual({ version: TEST_VERSION });
  });
});
