import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminDataSourceSchema, companySchema } from "../../../contracts/data-api.ts";
import { createKysely } from "../../shared/db.ts";
import { createLogger } from "../../shared/logger.ts";
import { TEST_DATABASE_KINDS, createTestDatabase } from "../../shared/testing/databases.ts";
import { createTestSigner } from "../../shared/testing/tokens.ts";
import { ApiProblem, NotFoundError } from "./api-problem.ts";
import { createJobRunner } from "./jobs/runner.ts";
import { createRouter } from "./openapi.ts";
import { createApp } from "./app.ts";
import { migrateDatabase } from "./db/migrate.ts";
import type { Database } from "./db/schema.ts";
import { USERS, createTestApi, type TestApi, createTestDataPlane } from "./testing/harness.ts";
// After the app: the OpenAPI document names this schema, which needs it evaluated once zod is extended.
import { apiErrorSchema } from "../../../contracts/errors.ts";

describe.each(TEST_DATABASE_KINDS)("data API app on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api?.close());

  it("reports healthy at /healthz without a token", async () => {
    const res = await api.get("/healthz");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
  });

  it("publishes the OpenAPI document without a token, generated from the contract schemas", async () => {
    const res = await api.get("/api/v1/openapi.json");
    expect(res.status).toBe(200);
    // Every resource publishes its paths; these are the ones this spec names.
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        "/api/v1/companies/all",
        "/api/v1/companies/{id}/admin-data-sources",
        "/api/v1/productInfo",
        "/api/v1/applications",
        "/api/v1/data-dictionaries",
        "/api/v1/projects",
        "/api/v1/projects/search",
        "/api/v1/projects/{id}/try-create-databases",
        "/api/v1/projects/{id}/history/{historyId}/comparison",
        "/api/v1/audit-projects/{id}/history/{historyId}/comparison",
      ]),
    );
    const ok = (path: string) => res.body.paths[path].get.responses["200"].content["application/json"].schema;
    // A history entry says its comparison in all; the comparison's tables come a page at a time, filtered by `differing`.
    expect(Object.keys(ok("/api/v1/projects/{id}/history/{historyId}").properties.comparison.properties).sort()).toEqual([
      "added",
      "changed",
      "differing",
      "removed",
      "tables",
    ]);
    const comparison = res.body.paths["/api/v1/projects/{id}/history/{historyId}/comparison"].get;
    expect(comparison.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(["page", "pageSize", "differing"]));
    expect(Object.keys(comparison.responses["200"].content["application/json"].schema.properties).sort()).toEqual(["items", "page", "pageSize", "total"]);
    expect(ok("/api/v1/companies/all")).toMatchObject({
      type: "array",
      items: { properties: { id: { type: "string" }, name: { type: "string" } }, required: Object.keys(companySchema.shape) },
    });
    // The company's schemes, as the client portal keeps them: no `engine` since migration 0004.
    const source = ok("/api/v1/companies/{id}/admin-data-sources").items;
    expect(Object.keys(source.properties).sort()).toEqual(Object.keys(adminDataSourceSchema.shape).sort());
    expect(source.properties.engine).toBeUndefined();
    expect(res.body.paths["/api/v1/companies/{id}/admin-data-sources"].get.responses["404"]).toBeDefined();
    expect(res.body.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("answers an ApiProblem thrown from any router with the JSON error body and its field errors", async () => {
    // A router mounted like every resource router, with no error handler of its own.
    const app = api.appWith({});
    app.route(
      "/api/v1",
      createRouter().get("/probe/:kind", (c) => {
        if (c.req.param("kind") === "fields") throw new ApiProblem(409, "duplicate_name", "Taken.", { name: ["Taken."] });
        throw new NotFoundError("Probe not found.");
      }),
    );
    const token = await api.tokenFor(USERS.superAdmin);
    const fields = await app.request("/api/v1/probe/fields", { headers: { authorization: `Bearer ${token}` } });
    expect(fields.status).toBe(409);
    expect(apiErrorSchema.parse(await fields.json())).toMatchObject({ status: 409, code: "duplicate_name", errors: ["Taken."], fieldErrors: { name: ["Taken."] } });
    const notFound = await app.request("/api/v1/probe/other", { headers: { authorization: `Bearer ${token}` } });
    expect(await notFound.json()).toMatchObject({ status: 404, code: "not_found", errors: ["Probe not found."] });
    // And from a real router that never installed one: the company rule's refusals.
    const company = await api.get("/api/v1/companies/no-such-company/admin-data-sources", token);
    expect(company.body).toMatchObject({ status: 404, code: "not_found", errors: ["Company not found."] });
  });

  it("echoes the caller's request id, or makes one", async () => {
    const given = await api.app.request("/healthz", { headers: { "x-request-id": "req-42" } });
    expect(given.headers.get("x-request-id")).toBe("req-42");
    const made = await api.app.request("/healthz");
    expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("answers an unknown path with a JSON 404", async () => {
    const res = await api.get("/api/v1/no-such-thing", await api.tokenFor(USERS.superAdmin));
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 404, code: "not_found", errors: ["Not found."] });
  });

  it("answers 503 at /healthz when the database is gone, with no stack in the body", async () => {
    const database = await createTestDatabase(kind);
    const db = createKysely<Database>(database.url);
    await migrateDatabase(db);
    const signer = await createTestSigner();
    const app = createApp({
      db,
      logger: createLogger("data-api-test", "silent"),
      bearer: signer.bearer,
      permissions: { forCaller: async () => [] },
      version: "0.0.0",
      dataDir: database.url + ".projects",
      dataPlane: createTestDataPlane(),
      jobs: createJobRunner(),
      companyUsers: { find: async () => null },
      adminDataSources: { list: async () => [] },
    });
    await db.destroy();
    await database.drop();

    const res = await app.request("/healthz");
    expect(res.status).toBe(503);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ status: 503, errors: ["The database is not reachable."] });
    expect(text).not.toMatch(/\bat .+:\d+:\d+/);
  });
});
