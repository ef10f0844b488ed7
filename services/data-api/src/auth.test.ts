import { generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DATABASE_KINDS } from "../../shared/testing/databases.ts";
import { USERS, createTestApi, type TestApi } from "./testing/harness.ts";

// Every /api/v1 route sits behind the same bearerAuth; each protected endpoint is tried here.
const PROTECTED = [
  "/api/v1/productInfo",
  "/api/v1/companies/all",
  "/api/v1/companies/2b7d9e13-5a8c-4f60-b2d4-7e91c3a5f802/admin-data-sources",
];

describe.each(TEST_DATABASE_KINDS)("bearer tokens on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api?.close());

  const user = USERS.superAdmin;
  const badTokens: [string, () => Promise<string | undefined>, string][] = [
    ["no token", async () => undefined, "A bearer token is required."],
    ["a token that is not a JWT", async () => "not-a-jwt", "The access token is not valid."],
    [
      "a token signed with another key",
      async () => api.signer.token(user.id, user.roles, { key: (await generateKeyPair("RS256")).privateKey }),
      "The access token is not valid.",
    ],
    [
      "an expired token",
      async () => api.signer.token(user.id, user.roles, { expiresIn: Math.floor(Date.now() / 1000) - 60 }),
      "The access token has expired.",
    ],
    ["a token for another audience", async () => api.signer.token(user.id, user.roles, { audience: "urn:other:api" }), "The access token is not valid."],
    ["a token from another issuer", async () => api.signer.token(user.id, user.roles, { issuer: "http://evil.test" }), "The access token is not valid."],
  ];

  it.each(badTokens)("answers 401 with a JSON error to %s", async (_what, makeToken, message) => {
    const token = await makeToken();
    for (const path of PROTECTED) {
      const res = await api.get(path, token);
      expect(res.status, path).toBe(401);
      expect(res.body).toEqual({ status: 401, code: "unauthorized", errors: [message], requestId: expect.any(String) });
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
  });

  it("accepts a valid token", async () => {
    const res = await api.get("/api/v1/productInfo", await api.tokenFor(user));
    expect(res.status).toBe(200);
  });

  it("does not ask the client portal about callers it turned away", async () => {
    api.clientPortal.calls.length = 0;
    await api.get("/api/v1/companies/all", await api.signer.token(USERS.analyst.id, USERS.analyst.roles, { audience: "urn:other:api" }));
    expect(api.clientPortal.calls).toEqual([]);
  });
});
