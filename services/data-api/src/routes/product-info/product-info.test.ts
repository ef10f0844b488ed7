import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DATABASE_KINDS } from "../../../../shared/testing/databases.ts";
import { TEST_VERSION, USERS, createTestApi, type TestApi } from "../../testing/harness.ts";
import { readProductVersion } from "../../version.ts";

describe.each(TEST_DATABASE_KINDS)("GET /api/v1/productInfo on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api?.close());

  it.each([
    ["an admin", USERS.superAdmin],
    ["a viewer", USERS.viewer],
  ])("answers the product version to %s", async (_who, user) => {
    const res = await api.get("/api/v1/productInfo", await api.tokenFor(user));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: TEST_VERSION });
  });
});

describe("the product version the server passes in", () => {
  it("is the root package.json's", () => {
    const root = JSON.parse(fs.readFileSync(new URL("../../../../../package.json", import.meta.url), "utf8"));
    expect(readProductVersion()).toBe(root.version);
    expect(readProductVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
