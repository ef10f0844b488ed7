import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES, demoAdminDataSources } from "../../../../../scripts/demo-data.ts";
import { NAME_MAX } from "../../../../../contracts/common.ts";
import { TEST_DATABASE_KINDS } from "../../../../shared/testing/databases.ts";
import { FORBIDDEN_MESSAGE } from "../../access.ts";
import { DUPLICATE_APPLICATION_MESSAGE } from "../../repositories/applications.ts";
import { send } from "../../testing/dictionary-fixtures.ts";
import { makeConfiguration, makeMappingProject, makeProject } from "../../testing/project-fixtures.ts";
import { USERS, createTestApi, type TestApi } from "../../testing/harness.ts";

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
  const search = (token: string | undefined, query: Record<string, string>) => api.get(`/api/v1/applications?${new URLSearchParams(query)}`, token);
  const names = (res: { body: { items: { name: string }[] } }) => res.body.items.map((a) => a.name);

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
    expect(names(res)).toEqual(["access db", "Navision", "Sage 50"]);
    expect(res.body).toMatchObject({ total: 3, page: 1, pageSize: 25 });
    expect(res.body.items.find((a: { name: string }) => a.name === "Navision").description).toBeNull();
  });

  it("counts the master dictionaries of each application", async () => {
    const app = await create(analyst, { companyId: birch.id, name: "Counted" });
    for (const name of ["One", "Two"]) {
      const dict = await send(api, "POST", "/api/v1/data-dictionaries", analyst, { companyId: birch.id, applicationId: app.body.id, name });
      expect(dict.status).toBe(201);
    }
    const res = await list(analyst, birch.id);
    expect(res.body.items.find((a: { id: string }) => a.id === app.body.id)).toMatchObject({ dictionaryCount: 2, projectCount: 0 });
  });

  it("counts an application's migration projects as its projects, not the configurations or mapping projects of it", async () => {
    const app = await create(analyst, { companyId: birch.id, name: "Used three ways" });
    const input = { companyId: birch.id, applicationId: app.body.id };
    await makeProject(api, analyst, input);
    await makeProject(api, analyst, input);
    await makeConfiguration(api, analyst, { ...input, schemeIds: [demoAdminDataSources(birch.id)[0]!.id] });
    await makeMappingProject(api, analyst, input);
    const res = await list(analyst, birch.id);
    expect(res.body.items.find((a: { id: string }) => a.id === app.body.id)).toMatchObject({ projectCount: 2 });
  });

  it("filters by name (any case), sorts and paginates in SQL, answering the total", async () => {
    // Created out of name order, so the creation-time sort is told apart from the name sort.
    const created = [7, 3, 12, 1, 10, 5, 9, 2, 11, 4, 8, 6].map((n) => `${n % 2 ? "Paged" : "PAGED"} ${String(n).padStart(2, "0")}`);
    for (const name of created) {
      expect((await create(analyst, { companyId: acme.id, name })).status).toBe(201);
      // Distinct creation instants (timestamps have millisecond precision).
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    await create(analyst, { companyId: birch.id, name: "Paged elsewhere" });
    const byName = [...created].sort((a, b) => a.slice(-2).localeCompare(b.slice(-2)));

    const first = await search(analyst, { companyId: acme.id, name: "pAgEd", sort: "name", pageSize: "10" });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 12, page: 1, pageSize: 10 });
    expect(names(first)).toEqual(byName.slice(0, 10));
    const second = await search(analyst, { companyId: acme.id, name: "paged", sort: "name", pageSize: "10", page: "2" });
    expect(second.body).toMatchObject({ total: 12, page: 2, pageSize: 10 });
    expect(names(second)).toEqual(byName.slice(10));
    const past = await search(analyst, { companyId: acme.id, name: "paged", pageSize: "10", page: "3" });
    expect(past.body).toMatchObject({ items: [], total: 12, page: 3 });

    expect(names(await search(analyst, { companyId: acme.id, name: "paged", sort: "-name", pageSize: "25" }))).toEqual([...byName].reverse());
    expect(names(await search(analyst, { companyId: acme.id, name: "paged", sort: "createdAt" }))).toEqual(created);
    expect(names(await search(analyst, { companyId: acme.id, name: "paged", sort: "-createdAt" }))).toEqual([...created].reverse());
    // Only the company's own: Birch's match is never counted.
    expect((await search(analyst, { companyId: acme.id, name: "elsewhere" })).body).toMatchObject({ items: [], total: 0 });
  });

  it("sorts names in natural order, a number by its value (2 before 10), paging in SQL", async () => {
    const numbers = [12, 1, 10, 2, 11, 9, 3, 8, 4, 7, 5, 6];
    for (const n of numbers) expect((await create(analyst, { companyId: acme.id, name: `Bulk app ${n}` })).status).toBe(201);
    expect((await create(analyst, { companyId: acme.id, name: "Bulk app 010 spare" })).status).toBe(201);
    const inOrder = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, "010 spare", 11, 12].map((n) => `Bulk app ${n}`);
    const page = (sort: string, n: string) => search(analyst, { companyId: acme.id, name: "bulk app", sort, pageSize: "10", page: n });
    expect(names(await page("name", "1"))).toEqual(inOrder.slice(0, 10));
    expect(names(await page("name", "2"))).toEqual(inOrder.slice(10));
    expect(names(await page("-name", "1"))).toEqual([...inOrder].reverse().slice(0, 10));
    expect(names(await page("-name", "2"))).toEqual([...inOrder].reverse().slice(10));
  });

  it("matches %, _ and \\ in the name literally, not as wildcards", async () => {
    for (const name of ["Rate 50% off", "Rate 50 percent", "Code_A", "CodeXA", "Path\\One", "PathOne"]) {
      expect((await create(analyst, { companyId: birch.id, name })).status).toBe(201);
    }
    expect(names(await search(analyst, { companyId: birch.id, name: "50%" }))).toEqual(["Rate 50% off"]);
    expect(names(await search(analyst, { companyId: birch.id, name: "code_a" }))).toEqual(["Code_A"]);
    expect(names(await search(analyst, { companyId: birch.id, name: "h\\o" }))).toEqual(["Path\\One"]);
    expect((await search(analyst, { companyId: birch.id, name: "%" })).body.total).toBe(1);
    expect((await search(analyst, { companyId: birch.id, name: "_" })).body.total).toBe(1);
  });

  it.each([
    ["an unknown sort", { sort: "description" }, "sort"],
    ["a page size not offered", { pageSize: "7" }, "pageSize"],
    ["page 0", { page: "0" }, "page"],
  ])("answers 400 naming the parameter for %s", async (_what, query, field) => {
    const res = await search(analyst, { companyId: acme.id, ...query });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors[field]).toHaveLength(1);
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

  it("lets the translation module's analyst read them (a mapping project names one) but not create one", async () => {
    const translator = await api.tokenFor(USERS.translator);
    await create(analyst, { companyId: acme.id, name: "Read by the translator" });
    expect(names(await search(translator, { companyId: acme.id, name: "Read by the translator" }))).toEqual(["Read by the translator"]);
    const refused = await create(translator, { companyId: acme.id, name: "Made by the translator" });
    expect(refused.status).toBe(403);
    expect(refused.body.errors).toEqual([FORBIDDEN_MESSAGE]);
    // A Viewer holds no area's role: still refused.
    expect((await list(await api.tokenFor(USERS.viewer), acme.id)).status).toBe(403);
  });

  it("requires a bearer token", async () => {
    expect((await list(undefined, acme.id)).status).toBe(401);
    expect((await create(undefined, { companyId: acme.id, name: "Anonymous" })).status).toBe(401);
  });
});
