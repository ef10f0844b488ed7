import http from "node:http";
import type { AddressInfo } from "node:net";
import { createRemoteJWKSet, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEYS_UNAVAILABLE_MESSAGE } from "../../shared/bearer.ts";
import { TEST_DATABASE_KINDS } from "../../shared/testing/databases.ts";
import { USERS, createTestApi, type TestApi } from "./testing/harness.ts";

// Every /api/v1 route sits behind the same bearerAuth; each protected endpoint is tried here.
const ID = "2b7d9e13-5a8c-4f60-b2d4-7e91c3a5f802";
const CONFIGURATION = `/api/v1/audit-projects/${ID}`;
const PROTECTED: [method: string, path: string][] = [
  ["GET", "/api/v1/productInfo"],
  ["GET", "/api/v1/companies/all"],
  ["GET", `/api/v1/companies/${ID}/admin-data-sources`],
  // Onboarding configurations (the API's audit projects).
  ["POST", "/api/v1/audit-projects"],
  ["GET", "/api/v1/audit-projects/search"],
  ["GET", `/api/v1/audit-projects/checkdefaultproject/${ID}`],
  ["GET", CONFIGURATION],
  ["PATCH", CONFIGURATION],
  ["GET", `${CONFIGURATION}/databases`],
  ["GET", `${CONFIGURATION}/access`],
  ["GET", `${CONFIGURATION}/users`],
  ["PUT", `${CONFIGURATION}/users/${ID}`],
  ["DELETE", `${CONFIGURATION}/users/${ID}`],
  ["GET", `${CONFIGURATION}/jobs`],
  ["POST", `${CONFIGURATION}/try-create-databases`],
  ["GET", `${CONFIGURATION}/data-dictionary`],
  ["POST", `${CONFIGURATION}/data-dictionary/${ID}/assign`],
  ["GET", `${CONFIGURATION}/data-dictionary/tables`],
  ["POST", `${CONFIGURATION}/data-dictionary/tables`],
  ["PATCH", `${CONFIGURATION}/data-dictionary/tables`],
  ["GET", `${CONFIGURATION}/data-dictionary/tables/${ID}`],
  ["DELETE", `${CONFIGURATION}/data-dictionary/tables/${ID}`],
  ["GET", `${CONFIGURATION}/data-dictionary/tables/${ID}/table-details`],
  ["GET", `${CONFIGURATION}/data-dictionary/bulk-uploads`],
  ["POST", `${CONFIGURATION}/data-dictionary/bulk-uploads`],
  ["GET", `${CONFIGURATION}/data-dictionary/bulk-uploads/${ID}`],
  ["DELETE", `${CONFIGURATION}/data-dictionary/bulk-uploads/${ID}`],
  ["POST", `${CONFIGURATION}/data-dictionary/bulk-uploads/${ID}/apply`],
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
    for (const [method, path] of PROTECTED) {
      const res = await api.send(method, path, token);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body).toEqual({ status: 401, code: "unauthorized", errors: [message], requestId: expect.any(String) });
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
  });

  // Without a token an unknown path answers 401 too: make sure each listed one is an endpoint.
  it("lists only endpoints of the OpenAPI document", async () => {
    const paths = (await api.get("/api/v1/openapi.json")).body.paths as Record<string, Record<string, unknown>>;
    const operations = Object.entries(paths).flatMap(([template, ops]) => {
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`);
      return Object.keys(ops).map((method) => ({ method: method.toUpperCase(), pattern }));
    });
    for (const [method, path] of PROTECTED) {
      expect(operations.some((op) => op.method === method && op.pattern.test(path)), `${method} ${path}`).toBe(true);
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

// The data API fetches the provider's keys (createRemoteJWKSet, as in server.ts). While it cannot, it
// knows nothing about a token: 503, which the portal answers without ending the session; 401 stays
// for tokens the keys it holds refuse.
describe("bearer tokens while the identity provider's keys cannot be fetched", () => {
  let api: TestApi;
  let jwksServer: http.Server;
  let jwksUrl: URL;
  /** What the JWKS URL does: serve the keys, answer 500, answer HTML, drop the connection or never answer. */
  let mode: "keys" | "error" | "html" | "drop" | "hang" = "keys";

  beforeAll(async () => {
    api = await createTestApi("sqlite");
    jwksServer = http.createServer((req, res) => {
      if (mode === "keys") res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(api.signer.jwks));
      else if (mode === "error") res.writeHead(500).end("down for maintenance");
      else if (mode === "html") res.writeHead(200, { "content-type": "text/html" }).end("<h1>Maintenance</h1>");
      else if (mode === "drop") req.socket.destroy();
      // "hang": no answer at all.
    });
    await new Promise<void>((resolve) => jwksServer.listen(0, "127.0.0.1", resolve));
    jwksUrl = new URL(`http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks`);
  });
  afterAll(async () => {
    jwksServer?.closeAllConnections();
    await new Promise((resolve) => jwksServer?.close(resolve));
    await api?.close();
  });

  /** An app whose key set is fetched from `url` (with `cacheMaxAge: 0`, fetched again on every request). */
  function appFetchingKeysFrom(url: URL, options: Parameters<typeof createRemoteJWKSet>[1] = {}) {
    return api.appWith({ bearer: { ...api.signer.bearer, getKey: createRemoteJWKSet(url, { timeoutDuration: 500, ...options }) } });
  }

  async function productInfo(app: ReturnType<typeof appFetchingKeysFrom>, token: string) {
    const res = await app.request("/api/v1/productInfo", { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  }

  const valid = () => api.tokenFor(USERS.superAdmin);
  const forged = async () => api.signer.token(USERS.superAdmin.id, USERS.superAdmin.roles, { key: (await generateKeyPair("RS256")).privateKey });

  function expectUnavailable(res: Awaited<ReturnType<typeof productInfo>>) {
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 503, code: "service_unavailable", errors: [KEYS_UNAVAILABLE_MESSAGE], requestId: expect.any(String) });
    expect(res.headers.get("www-authenticate")).toBeNull();
  }

  it("answers 503 to a valid token when nothing listens at the JWKS URL", async () => {
    expectUnavailable(await productInfo(appFetchingKeysFrom(new URL("http://127.0.0.1:9/jwks")), await valid()));
  });

  it.each([
    ["answers 500", "error"],
    ["answers 200 with a page that is not a key set", "html"],
    ["drops the connection", "drop"],
    ["does not answer in time", "hang"],
  ] as const)("answers 503 to a valid token when the JWKS URL %s", async (_what, how) => {
    mode = how;
    try {
      expectUnavailable(await productInfo(appFetchingKeysFrom(jwksUrl), await valid()));
    } finally {
      mode = "keys";
    }
  });

  it("keeps answering 503 once the cached keys expire during an outage, and serves the token again when the keys are back", async () => {
    const app = appFetchingKeysFrom(jwksUrl, { cacheMaxAge: 0 });
    const token = await valid();
    expect((await productInfo(app, token)).status).toBe(200);

    mode = "error";
    try {
      expectUnavailable(await productInfo(app, token));
    } finally {
      mode = "keys";
    }
    expect((await productInfo(app, token)).status).toBe(200);
  });

  it("answers 401 to a token the fetched keys refuse: another key, an unknown key id, expired", async () => {
    const app = appFetchingKeysFrom(jwksUrl);
    const user = USERS.superAdmin;
    const otherKid = (await api.signer.token(user.id, user.roles)).split(".");
    otherKid[0] = Buffer.from(JSON.stringify({ alg: "RS256", kid: "unknown-key" })).toString("base64url");
    const refused: [string, string][] = [
      [await forged(), "The access token is not valid."],
      [otherKid.join("."), "The access token is not valid."],
      [await api.signer.token(user.id, user.roles, { expiresIn: Math.floor(Date.now() / 1000) - 60 }), "The access token has expired."],
    ];
    for (const [token, message] of refused) {
      const res = await productInfo(app, token);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 401, code: "unauthorized", errors: [message], requestId: expect.any(String) });
    }
    expect((await productInfo(app, await valid())).status).toBe(200);
  });
});
