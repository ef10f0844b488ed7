import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../../scripts/demo-data.ts";
import { NAME_MAX } from "../../../../contracts/common.ts";
import { TEST_DATABASE_KINDS } from "../../../shared/testing/databases.ts";
import { FORBIDDEN_MESSAGE } from "../access.ts";
import { DUPLICATE_APPLICATION_MESSAGE } from "../repositories/applications.ts";
import { send } from "../testing/dictionary-fixtures.ts";
import { USERS, createTestApi, type TestApi } from "../testing/harness.ts";

const [cedar, acme, birch] = DEMO_COMPANIES;

describe.each(TEST_DATABASE_KINDS)("applications on %s", (kind) => {
  let api: TestApi;
  let analyst: string;
  beforeAll(async () => {
    api = await createTestApi(kind);
    analyst = await api.tokenFor(USERS.analyst);
  });
  afterAll(() => api?.close());

  const create = (token: string | undefined, body: unknown) => send(api, "POST", "/api/v1/applications", token, body);
  const list = (token: string | undefined, companyId: string) => api.get(`/api/v1/applications?companyId=${encodeURIComponent(companyId)}`, token);

  it("creates applications and lists the company's own, sorted by name (any case), with their counts", async () => {
    const created = await create(analyst, { companyId: acme.id, name: "  Sage 50 ", description: "Accounting" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      companyId: acme.id,
      name: "Sage 50",
      description: "Accounting",
      dictionaryCount: 0,
      projectCount: 0,
      createdAt: expect.any(String),
    });
    await create(analyst, { companyId: acme.id, name: "access db" });
    await create(analyst, { companyId: acme.id, name: "Navision", description: "" });
    await create(analyst, { companyId: birch.id, name: "Birch only" });

    const res = await list(analyst, acme.id);
    expect(res.status).toBe(200);
    expect(res.body.map((a: { name: string }) => a.name)).toEqual(["access db", "Navision", "Sage 50"]);
    expect(res.body.find((a: { name: string }) => a.name === "Navision").description).toBeNull();
  });

  it("counts the master dictionaries of each application", async () => {
    const app = await create(analyst, { companyId: birch.id, name: "Counted" });
    for (const name of ["One", "Two"]) {
      const dict = await send(api, "POST", "/api/v1/data-dictionaries", analyst, { companyId: birch.id, applicationId: app.body.id, name });
      expect(dict.status).toBe(201);
    }
    const res = await list(analyst, birch.id);
    expect(res.body.find((a: { id: string }) => a.id === app.body.id)).toMatchObject({ dictionaryCount: 2, projectCount: 0 });
  });

  it("refuses a name the company already uses, in any case, with a field error on name", async () => {
    await create(analyst, { companyId: acme.id, name: "Dynamics GP" });
    const res = await create(analyst, { companyId: acme.id, name: "DYNAMICS gp" });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ status: 409, errors: [DUPLICATE_APPLICATION_MESSAGE], fieldErrors: { name: [DUPLICATE_APPLICATION_MESSAGE] } });
    // Another company may use the same name.
    expect((await create(analyst, { companyId: birch.id, name: "Dynamics GP" })).status).toBe(201);
  });

  it.each([
    ["an empty name", { name: "   " }, "name"],
    ["an oversized name", { name: "x".repeat(NAME_MAX + 1) }, "name"],
    ["an oversized description", { name: "Long", description: "d".repeat(1001) }, "description"],
    ["no company", { companyId: "", name: "No company" }, "companyId"],
  ])("answers 400 naming the field for %s", async (_what, patch, field) => {
    const res = await create(analyst, { companyId: acme.id, ...patch });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors[field]).toHaveLength(1);
  });

  it("answers 404 for a company the caller cannot see, for both list and create", async () => {
    const clientAdmin = await api.tokenFor(USERS.clientAdmin);
    expect((await list(clientAdmin, acme.id)).status).toBe(404);
    expect((await create(clientAdmin, { companyId: acme.id, name: "Sneaky" })).status).toBe(404);
    expect((await list(analyst, "no-such-company")).status).toBe(404);
  });

  it.each([
    ["Viewer", USERS.viewer, acme.id],
    ["Manager", USERS.manager, cedar.id],
    ["a client admin who is only a viewer in this company", USERS.clientAdmin, cedar.id],
  ])("answers 403 to a %s, who sees the company but has no Migration role there", async (_who, user, companyId) => {
    const token = await api.tokenFor(user);
    for (const res of [await list(token, companyId), await create(token, { companyId, name: "Forbidden" })]) {
      expect(res.status).toBe(403);
      expect(res.body.errors).toEqual([FORBIDDEN_MESSAGE]);
    }
  });

  it("lets SuperAdmin, Support and a client admin work in their companies", async () => {
    for (const [user, companyId] of [
      [USERS.superAdmin, cedar.id],
      [USERS.support, acme.id],
      [USERS.clientAdmin, birch.id],
    ] as const) {
      const token = await api.tokenFor(user);
      expect((await create(token, { companyId, name: `By ${user.name}` })).status).toBe(201);
      expect((await list(token, companyId)).status).toBe(200);
    }
  });

  it("requires a bearer token", async () => {
    expect((await list(undefined, acme.id)).status).toBe(401);
    expect((await create(undefined, { companyId: acme.id, name: "Anonymous" })).status).toBe(401);
  });
});
