import { afterAll, describe, expect, it, vi } from "vitest";
import { DEMO_COMPANIES } from "../../../../scripts/demo-data";
import { isRedirect, startLiveServices } from "~/test/live-services";
import { flashOf } from "~/test/flash-of";

const live = await startLiveServices();
afterAll(() => live.stop());

const { actionAnswer, createHarness, form } = await import("~/routes/workspace/test-support");
const list = await import("./list");
const create = await import("./create");
const layout = await import("./layout");

const [cedar, acme, birch] = DEMO_COMPANIES;
const { call } = await createHarness();
const ANALYST = "analyst@demo.test";

type ListData = Awaited<ReturnType<typeof list.loader>>;
const listOf = async (email: string, companyId: string, search = "") =>
  (await call(email, `/migration/application?companyId=${companyId}${search}`, list.loader)) as ListData;

const post = (email: string, companyId: string, fields: Record<string, string>) =>
  call(email, `/migration/application/create?companyId=${companyId}`, create.action, { method: "POST", body: form(fields) });

describe("/migration/application", () => {
  it("has the Applications breadcrumb on its layout", () => {
    expect(layout.handle.breadcrumb).toBe("Applications");
  });

  it("creates an application and goes back to the list, which says so and highlights it", async () => {
    const res = await post(ANALYST, acme.id, { name: "Legacy ERP", description: "The old ERP" });
    expect(isRedirect(res, new RegExp(`^/migration/application\\?companyId=${acme.id}&created=[\\w-]+$`))).toBe(true);
    const createdId = new URL((res as Response).headers.get("Location")!, "http://x").searchParams.get("created");
    expect(await flashOf(res)).toEqual({ kind: "success", text: "Application Legacy ERP created." });

    const data = await listOf(ANALYST, acme.id, `&created=${createdId}`);
    expect(data.created).toEqual({ id: createdId, name: "Legacy ERP" });
    expect(data.canWrite).toBe(true);
    const app = data.result.items.find((a) => a.name === "Legacy ERP");
    expect(app).toMatchObject({ description: "The old ERP", dictionaryCount: 0, projectCount: 0 });
  });

  it("passes the search, sort and page from the URL to the data API and shows the page it answers", async () => {
    for (const name of ["Search alpha 100%", "Search beta 100 percent", "Search gamma"]) await post(ANALYST, acme.id, { name, description: "" });
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    try {
      const data = await listOf(ANALYST, acme.id, `&name=${encodeURIComponent(" search ")}&sort=-name&page=1&pageSize=10`);
      const calls = fetchSpy.mock.calls.map(([url]) => new URL(String(url))).filter((u) => u.pathname === "/api/v1/applications");
      expect(calls.map((u) => Object.fromEntries(u.searchParams))).toEqual([{ companyId: acme.id, name: "search", sort: "-name", page: "1", pageSize: "10" }]);
      expect(data.search).toEqual({ name: "search", sort: "-name", page: 1, pageSize: 10 });
      expect(data.result.items.map((a) => a.name)).toEqual(["Search gamma", "Search beta 100 percent", "Search alpha 100%"]);
      expect(data.result).toMatchObject({ total: 3, page: 1, pageSize: 10 });
    } finally {
      fetchSpy.mockRestore();
    }
    // "%" matches itself, not anything.
    expect((await listOf(ANALYST, acme.id, `&name=${encodeURIComponent("100%")}`)).result.items.map((a) => a.name)).toEqual(["Search alpha 100%"]);
    // The next page holds what the first did not.
    const second = await listOf(ANALYST, acme.id, "&name=search&sort=name&pageSize=10&page=2");
    expect(second.result).toMatchObject({ items: [], total: 3, page: 2 });
  });

  it("falls back to the defaults for sort, page and page size values it does not know, instead of failing", async () => {
    const data = await listOf(ANALYST, acme.id, "&sort=bogus&page=-2&pageSize=7");
    expect(data.search).toEqual({ name: "", sort: "name", page: 1, pageSize: 25 });
    expect(data.result.page).toBe(1);
  });

  it("highlights nothing when the application just created is not on the page shown (the flash message names it)", async () => {
    const res = await post(ANALYST, acme.id, { name: "Zulu off the page", description: "" });
    const createdId = new URL((res as Response).headers.get("Location")!, "http://x").searchParams.get("created");
    const data = await listOf(ANALYST, acme.id, `&created=${createdId}&name=nothing-matches-this`);
    expect(data.result.items).toEqual([]);
    expect(data.created).toBeNull();
  });

  it("refuses a duplicate name (any case) with the message next to Name, and creates nothing", async () => {
    await post(ANALYST, acme.id, { name: "Payroll", description: "" });
    const answer = actionAnswer(await post(ANALYST, acme.id, { name: "PAYROLL", description: "again" }));
    expect(answer.status).toBe(409);
    expect(answer.result.error?.name).toEqual(["An application with this name already exists"]);
    expect(answer.result.initialValue).toMatchObject({ name: "PAYROLL", description: "again" });
    const names = (await listOf(ANALYST, acme.id)).result.items.map((a) => a.name.toLowerCase());
    expect(names.filter((n) => n === "payroll")).toHaveLength(1);
  });

  it("answers empty and oversized fields with 400 and the messages next to the fields", async () => {
    const empty = actionAnswer(await post(ANALYST, acme.id, { name: "   ", description: "" }));
    expect(empty.status).toBe(400);
    expect(empty.result.error?.name).toEqual(["Required"]);
    const long = actionAnswer(await post(ANALYST, acme.id, { name: "x".repeat(101), description: "d".repeat(1001) }));
    expect(long.status).toBe(400);
    expect(long.result.error?.name).toEqual(["At most 100 characters"]);
    expect(long.result.error?.description).toEqual(["At most 1000 characters"]);
  });

  it("refuses a name holding a line break, a tab or a zero-width space with the message next to Name, before asking the data API, and creates nothing", async () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    try {
      for (const name of ["Look\nalike", "Look\talike", "Look\u200balike"]) {
        const answer = actionAnswer(await post(ANALYST, acme.id, { name, description: "" }));
        expect(answer.status).toBe(400);
        expect(answer.result.error?.name).toEqual(["A name cannot hold line breaks, tabs or invisible characters."]);
        expect(answer.result.initialValue).toMatchObject({ name });
      }
      const posts = fetchSpy.mock.calls.filter(([url, init]) => new URL(String(url)).pathname === "/api/v1/applications" && init?.method === "POST");
      expect(posts).toEqual([]);
    } finally {
      fetchSpy.mockRestore();
    }
    expect((await listOf(ANALYST, acme.id, "&name=alike")).result.items).toEqual([]);
  });

  it("keeps applications to their company: the same name is free in another, and lists never mix", async () => {
    const res = await post(ANALYST, birch.id, { name: "Legacy ERP", description: "" });
    expect(isRedirect(res, new RegExp(`^/migration/application\\?companyId=${birch.id}&`))).toBe(true);
    const birchApps = (await listOf(ANALYST, birch.id)).result.items;
    expect(birchApps.map((a) => a.name)).toEqual(["Legacy ERP"]);
    expect(birchApps.every((a) => a.companyId === birch.id)).toBe(true);
  });

  it("takes the company from the URL, never from the form", async () => {
    const res = await post(ANALYST, acme.id, { name: "Sneaky", companyId: cedar.id });
    expect(isRedirect(res, new RegExp(`companyId=${acme.id}`))).toBe(true);
    expect((await listOf(ANALYST, acme.id)).result.items.some((a) => a.name === "Sneaky")).toBe(true);
  });

  it("lets a ClientAdmin create in the company where the role is held", async () => {
    const res = await post("clientadmin@demo.test", birch.id, { name: "Warehouse", description: "" });
    expect(isRedirect(res, new RegExp(`^/migration/application\\?companyId=${birch.id}&created=`))).toBe(true);
  });

  it("sends a Viewer to /permission-denied before the action runs", async () => {
    const res = await post("viewer@demo.test", acme.id, { name: "Nope", description: "" });
    expect(isRedirect(res, `/permission-denied?companyId=${acme.id}`)).toBe(true);
    expect((await listOf(ANALYST, acme.id)).result.items.some((a) => a.name === "Nope")).toBe(false);
  });

  it("answers a body that cannot be read with 400, not 500", async () => {
    const res = await call(ANALYST, `/migration/application/create?companyId=${acme.id}`, create.action, {
      method: "POST",
      body: form({ name: "x", __intent__: "not json" }),
    });
    expect((res as { init?: { status?: number } }).init?.status).toBe(400);
  });
});
