import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEMO_COMPANIES } from "../../../../scripts/demo-data";
import { isRedirect, startLiveServices } from "~/test/live-services";

const live = await startLiveServices();
afterAll(() => live.stop());

const { actionAnswer, createHarness, form, thrownData } = await import("~/routes/workspace/test-support");
const { flashMiddleware, readFlash } = await import("~/lib/flash.server");
const shell = await import("~/routes/shell");
const applicationCreate = await import("../application/create");
const list = await import("./list");
const createNew = await import("./create-new");
const layout = await import("./dictionary-layout");
const dictionaryIndex = await import("./dictionary-index");
const applicationPage = await import("./application");
const uploadData = await import("./upload-data");
const review = await import("./review");
const definition = await import("./data-definition");
const table = await import("./table");
const { OTHER_TABLE } = await import("~/components/dictionary/schemas.server");
const { INCOMPLETE_REQUEST } = await import("~/lib/forms.server");
const { MASTER_TABLE_NEEDS_A_COLUMN } = await import("../../../../contracts/dictionary");
const { CLEANED_NAME_NOTE } = await import("../../../../contracts/common");

const [, acme, birch] = DEMO_COMPANIES;
const { call, cookieFor } = await createHarness();
const ANALYST = "analyst@demo.test";
const FIXTURES = path.resolve(import.meta.dirname, "../../../../services/data-api/test-fixtures");
const SAMPLE = fs.readFileSync(path.join(FIXTURES, "sample-dictionary.csv"));
const SAMPLE_ERRORS = fs.readFileSync(path.join(FIXTURES, "sample-dictionary-errors.csv"));

const q = (companyId: string, extra: Record<string, string> = {}) => `?${new URLSearchParams({ companyId, ...extra })}`;
const locationOf = (res: unknown) => {
  if (!(res instanceof Response)) throw new Error(`expected a redirect, got ${JSON.stringify(res)?.slice(0, 300)}`);
  return new URL(res.headers.get("Location")!, "http://portal.test");
};

/** A page below dictionary-layout: its middleware loads the dictionary first, as in the app. */
const onDictionary = (id: string, extra: { method?: string; body?: BodyInit; params?: Record<string, string>; headers?: Record<string, string> } = {}) => ({
  ...extra,
  params: { dataDictionaryId: id, ...extra.params },
  middleware: layout.middleware as never[],
});

type Loaded<T extends (...args: any) => any> = Awaited<ReturnType<T>>;

let applicationId = "";

beforeAll(async () => {
  const res = await call(ANALYST, `/migration/application/create${q(acme.id)}`, applicationCreate.action, {
    method: "POST",
    body: form({ name: "Dictionary ERP", description: "" }),
  });
  applicationId = locationOf(res).searchParams.get("created")!;
});

async function createDictionary(name: string, companyId = acme.id, appId = applicationId) {
  const res = await call(ANALYST, `/migration/data-dictionary/create/new/application${q(companyId)}`, createNew.action, {
    method: "POST",
    body: form({ applicationId: appId, name, description: "For the tests" }),
  });
  const to = locationOf(res);
  const id = /\/create\/([^/]+)\/upload-data$/.exec(to.pathname)?.[1];
  if (!id) throw new Error(`unexpected redirect ${to}`);
  return { id, to, res };
}

async function upload(id: string, file: File, mode: "create" | "edit" = "create", fields: Record<string, string> = {}, base = "/migration/data-dictionary") {
  const formData = new FormData();
  formData.set("file", file);
  for (const [name, value] of Object.entries(fields)) formData.set(name, value);
  // Sent as a browser sends it: a multipart body with its Content-Length.
  const encoded = new Response(formData);
  const body = await encoded.arrayBuffer();
  const headers = { "content-type": encoded.headers.get("content-type")!, "content-length": String(body.byteLength) };
  const page = mode === "create" ? `create/${id}/upload-data` : `edit/${id}/bulk-update`;
  return call(ANALYST, `${base}/${page}${q(acme.id)}`, uploadData.action, onDictionary(id, { method: "POST", body, headers }));
}

/** The `name=value` of the flash cookie a redirect sets, as the browser sends it back. */
const flashCookieOf = (res: unknown) => {
  const setCookie = (res as Response).headers.get("Set-Cookie") ?? "";
  if (!setCookie.startsWith("dt_flash=")) throw new Error(`no flash cookie on ${locationOf(res)}`);
  return setCookie.split(";")[0]!;
};

/** The flash message a redirect carries. */
const flashOf = async (res: unknown) => (await readFlash(new Request("http://portal.test/", { headers: { cookie: flashCookieOf(res) } })))?.text;

/**
 * The page after a redirect, as far as the shell goes: its middleware and loader (the flash message
 * it shows) with the cookies the browser holds, and the Set-Cookie of that page's response.
 */
async function nextShellPage(path: string, flashCookie: string | null) {
  let loaded: Loaded<typeof shell.loader> | undefined;
  const cookie = [await cookieFor(ANALYST), flashCookie].filter(Boolean).join("; ");
  const response = (await call(
    ANALYST,
    path,
    (args) =>
      flashMiddleware(args, async () => {
        loaded = await shell.loader(args);
        return new Response("the page");
      }),
    { headers: { cookie } },
  )) as Response;
  return { flash: loaded?.flash, setCookie: response.headers.get("Set-Cookie") };
}

async function loadDefinition(id: string, mode: "edit" | "view" = "view", extra: Record<string, string> = {}) {
  return (await call(ANALYST, `/migration/data-dictionary/${mode}/${id}/data-definition${q(acme.id, extra)}`, definition.loader, onDictionary(id))) as Loaded<
    typeof definition.loader
  >;
}

describe("create a data dictionary: application → upload → review → apply", () => {
  it("offers the company's applications, creates the dictionary and goes to its upload step", async () => {
    const page = (await call(ANALYST, `/migration/data-dictionary/create/new/application${q(acme.id)}`, createNew.loader)) as Loaded<typeof createNew.loader>;
    expect(page.applications).toContainEqual({ value: applicationId, label: "Dictionary ERP" });

    const { id, to, res } = await createDictionary("Main");
    expect(to.pathname).toBe(`/migration/data-dictionary/create/${id}/upload-data`);
    expect(await flashOf(res)).toBe("Data dictionary Main created.");
    expect(to.searchParams.get("companyId")).toBe(acme.id);

    const listed = (await call(ANALYST, `/migration/data-dictionary${q(acme.id)}`, list.loader)) as Loaded<typeof list.loader>;
    expect(listed.result.items.find((d) => d.id === id)).toMatchObject({ name: "Main", applicationName: "Dictionary ERP", tableCount: 0, columnCount: 0 });
  });

  it("sent twice (a double click without JavaScript, a reload that resends it, Back and submit) makes one dictionary and both go on to its upload step; the page read again makes another", async () => {
    const url = `/migration/data-dictionary/create/new/application${q(acme.id)}`;
    const page = (await call(ANALYST, url, createNew.loader)) as Loaded<typeof createNew.loader>;
    const fields = { id: page.madeId, applicationId, name: "Sent twice", description: "" };
    const first = await call(ANALYST, url, createNew.action, { method: "POST", body: form(fields) });
    const again = await call(ANALYST, url, createNew.action, { method: "POST", body: form(fields) });
    // Never the 409 "A data dictionary with this name already exists for this application" for the one the first made.
    expect(again instanceof Response ? null : actionAnswer(again).result.error).toBeNull();
    expect(locationOf(first).pathname).toBe(`/migration/data-dictionary/create/${page.madeId}/upload-data`);
    expect(locationOf(again).pathname).toBe(`/migration/data-dictionary/create/${page.madeId}/upload-data`);
    const named = async (name: string) =>
      ((await call(ANALYST, `/migration/data-dictionary${q(acme.id, { name })}`, list.loader)) as Loaded<typeof list.loader>).result.items.filter((d) => d.name === name);
    expect((await named("Sent twice")).map((d) => d.id)).toEqual([page.madeId]);
    const reloaded = (await call(ANALYST, url, createNew.loader)) as Loaded<typeof createNew.loader>;
    expect(reloaded.madeId).not.toBe(page.madeId);
    locationOf(await call(ANALYST, url, createNew.action, { method: "POST", body: form({ ...fields, id: reloaded.madeId, name: "Sent once" }) }));
    expect((await named("Sent once")).map((d) => d.id)).toEqual([reloaded.madeId]);
    // The first form sent again with another name (Back, the name changed) is refused at the top, naming what it made.
    const refused = actionAnswer(await call(ANALYST, url, createNew.action, { method: "POST", body: form({ ...fields, name: "Sent twice again" }) }));
    expect(refused.status).toBe(409);
    expect(refused.result.error).toEqual({ "": [expect.stringMatching(/^This form was sent already: the data dictionary Sent twice was made by it at /)] });
    expect(await named("Sent twice again")).toEqual([]);
  });

  it("refuses a missing application and a duplicate name with messages next to the fields", async () => {
    const missing = actionAnswer(
      await call(ANALYST, `/migration/data-dictionary/create/new/application${q(acme.id)}`, createNew.action, { method: "POST", body: form({ name: "X" }) }),
    );
    expect(missing.status).toBe(400);
    expect(missing.result.error?.applicationId).toEqual(["Choose an application"]);

    await createDictionary("Twice");
    const twice = actionAnswer(
      await call(ANALYST, `/migration/data-dictionary/create/new/application${q(acme.id)}`, createNew.action, {
        method: "POST",
        body: form({ applicationId, name: "twice" }),
      }),
    );
    expect(twice.status).toBe(409);
    expect(twice.result.error?.name?.[0]).toMatch(/already/i);
  });

  it("refuses another company's application (a forged post) next to the Application field, creating nothing", async () => {
    const made = await call(ANALYST, `/migration/application/create${q(birch.id)}`, applicationCreate.action, {
      method: "POST",
      body: form({ name: "Birch dictionary ERP", description: "" }),
    });
    const birchApplicationId = locationOf(made).searchParams.get("created")!;
    const count = async () => ((await call(ANALYST, `/migration/data-dictionary${q(acme.id)}`, list.loader)) as Loaded<typeof list.loader>).result.total;
    const before = await count();

    const refused = actionAnswer(
      await call(ANALYST, `/migration/data-dictionary/create/new/application${q(acme.id)}`, createNew.action, {
        method: "POST",
        body: form({ applicationId: birchApplicationId, name: "Borrowed" }),
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.result.error?.applicationId).toEqual(["Choose an application of this company."]);
    expect(await count()).toBe(before);
  });

  it("uploads the sample CSV, shows its review, and applies it", async () => {
    const { id } = await createDictionary("Sample");
    const uploaded = locationOf(await upload(id, new File([SAMPLE], "sample-dictionary.csv", { type: "text/csv" })));
    expect(uploaded.pathname).toBe(`/migration/data-dictionary/create/${id}/review/tables`);
    const reviewId = uploaded.searchParams.get("review")!;
    expect(reviewId).toBeTruthy();

    const page = (await call(ANALYST, `${uploaded.pathname}${uploaded.search}`, review.loader, onDictionary(id))) as Loaded<typeof review.loader>;
    expect(page.review.canApply).toBe(true);
    expect(page.problems.items).toEqual([]);
    expect(page.tables.items.map((t) => [t.name, t.status, t.added.length])).toEqual([
      ["Customers", "added", 5],
      ["Orders", "added", 5],
    ]);

    // Nothing is applied by the upload itself.
    expect((await loadDefinition(id)).summaries.items).toEqual([]);

    const applied = locationOf(
      await call(ANALYST, `${uploaded.pathname}${uploaded.search}`, review.action, onDictionary(id, { method: "POST", body: form({ intent: "apply", reviewId }) })),
    );
    expect(applied.pathname).toBe(`/migration/data-dictionary/view/${id}/data-definition`);
    expect(applied.searchParams.get("companyId")).toBe(acme.id);

    const view = await loadDefinition(id);
    expect(view.summaries.items.map((t) => [t.name, t.columnCount])).toEqual([
      ["Customers", 5],
      ["Orders", 5],
    ]);
    const customers = view.tables.find((t) => t.name === "Customers")!;
    expect(customers.columns.find((c) => c.name === "CreditLimit")).toMatchObject({ type: "decimal", precision: 18, scale: 2, nullable: true });
  });

  it("refuses a forged review post (no review, an unknown button) with a message at the top, and applies nothing", async () => {
    const { id } = await createDictionary("Forged review");
    const uploaded = locationOf(await upload(id, new File([SAMPLE], "sample-dictionary.csv", { type: "text/csv" })));
    const post = (body: Record<string, string>) =>
      call(ANALYST, `${uploaded.pathname}${uploaded.search}`, review.action, onDictionary(id, { method: "POST", body: form(body) }));
    const noReview = actionAnswer(await post({ intent: "apply" }));
    expect(noReview.status).toBe(400);
    expect(noReview.result.error).toEqual({ "": [INCOMPLETE_REQUEST] });
    const unknown = thrownData(await post({ intent: "publish", reviewId: uploaded.searchParams.get("review")! }));
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ errors: ["Unknown action: publish."] });
    expect((await loadDefinition(id)).summaries.items).toEqual([]);
  });

  it("shows every row error of a bad file with its row and column, and Apply is refused", async () => {
    const { id } = await createDictionary("Bad upload");
    const uploaded = locationOf(await upload(id, new File([SAMPLE_ERRORS], "bad.csv", { type: "text/csv" })));
    const page = (await call(ANALYST, `${uploaded.pathname}${uploaded.search}`, review.loader, onDictionary(id))) as Loaded<typeof review.loader>;
    expect(page.review.canApply).toBe(false);
    // The file names one table (Customers), which its problems leave nothing to review of: the summary counts it (review-tables.test.tsx).
    expect(page.review).toMatchObject({ tableCount: 1, changingTableCount: 0 });
    expect(page.tables.total).toBe(0);
    expect(page.problems.items.length).toBeGreaterThanOrEqual(4);
    for (const e of page.problems.items) expect(e.row).toBeGreaterThan(1);
    expect(page.problems.items.some((e) => e.row === 3 && e.column === "type")).toBe(true);

    const refused = actionAnswer(
      await call(
        ANALYST,
        `${uploaded.pathname}${uploaded.search}`,
        review.action,
        onDictionary(id, { method: "POST", body: form({ intent: "apply", reviewId: uploaded.searchParams.get("review")! }) }),
      ),
    );
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect((await loadDefinition(id)).summaries.items).toEqual([]);
  });

  it("pages a long review through ?page=, the summary and both lists in one round trip", async () => {
    const { id } = await createDictionary("Long review");
    const rows = Array.from({ length: 120 }, (_, i) => `T${i},C,varchar2`);
    const uploaded = locationOf(await upload(id, new File([["table,column,type", ...rows].join("\n")], "long.csv")));
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const second = (await call(ANALYST, `${uploaded.pathname}${uploaded.search}&page=2`, review.loader, onDictionary(id))) as Loaded<typeof review.loader>;
    const reviewCalls = fetchSpy.mock.calls.map(([url]) => new URL(String(url)).pathname).filter((p) => p.includes("/bulk-uploads/"));
    fetchSpy.mockRestore();
    expect(reviewCalls.map((p) => p.split("/bulk-uploads/")[1]!.split("/")[1] ?? "summary").sort()).toEqual(["problems", "summary", "tables"]);
    expect(second.review).toMatchObject({ errorCount: 120, canApply: false });
    expect(second.problems).toMatchObject({ total: 120, page: 2 });
    expect(second.problems.items[0]!.row).toBe(2 + second.problems.pageSize);
    expect(second.problems.items.length).toBeLessThanOrEqual(second.problems.pageSize);
    // Past the end (an old link): an empty page, not an error.
    const past = (await call(ANALYST, `${uploaded.pathname}${uploaded.search}&page=9`, review.loader, onDictionary(id))) as Loaded<typeof review.loader>;
    expect(past.problems).toMatchObject({ total: 120, items: [] });
  });

  it("shows a dictionary's tables a page at a time: the list, and in view each table of the page with its columns", async () => {
    const { id } = await createDictionary("Many tables");
    const names = Array.from({ length: 30 }, (_, i) => `T${String(i + 1).padStart(2, "0")}`);
    const rows = names.map((t) => `${t},Id,int,,,,no,yes,`);
    const uploaded = locationOf(await upload(id, new File([["table,column,type,length,precision,scale,nullable,key,description", ...rows].join("\n")], "many.csv")));
    const reviewId = uploaded.searchParams.get("review")!;
    locationOf(await call(ANALYST, `${uploaded.pathname}${uploaded.search}`, review.action, onDictionary(id, { method: "POST", body: form({ intent: "apply", reviewId }) })));
    // The view: ten tables a page, each with its columns.
    const first = await loadDefinition(id);
    expect(first.summaries).toMatchObject({ total: 30, page: 1, pageSize: 10 });
    expect(first.summaries.items.map((t) => t.name)).toEqual(names.slice(0, 10));
    expect(first.tables.map((t) => [t.name, t.columns.map((c) => c.name)])).toEqual(names.slice(0, 10).map((t) => [t, ["Id"]]));
    const last = await loadDefinition(id, "view", { page: "2", pageSize: "25" });
    expect(last.summaries.items.map((t) => t.name)).toEqual(names.slice(25));
    expect(last.tables.map((t) => t.name)).toEqual(names.slice(25));
    // The edit list: 25 a page, without the columns.
    const edit = await loadDefinition(id, "edit", { page: "2" });
    expect(edit.summaries).toMatchObject({ total: 30, page: 2, pageSize: 25 });
    expect(edit.summaries.items.map((t) => t.name)).toEqual(names.slice(25));
    expect(edit.tables).toEqual([]);
  });

  it("discards a review and goes back to the upload step", async () => {
    const { id } = await createDictionary("Discarded");
    const uploaded = locationOf(await upload(id, new File([SAMPLE], "d.csv")));
    const reviewId = uploaded.searchParams.get("review")!;
    const discarded = await call(ANALYST, `${uploaded.pathname}${uploaded.search}`, review.action, onDictionary(id, { method: "POST", body: form({ intent: "discard", reviewId }) }));
    expect(locationOf(discarded).pathname).toBe(`/migration/data-dictionary/create/${id}/upload-data`);
    expect(await flashOf(discarded)).toBe("Upload of d.csv discarded. The dictionary has not changed.");
    const gone = thrownData(await call(ANALYST, `${uploaded.pathname}${uploaded.search}`, review.loader, onDictionary(id)));
    expect(gone.status).toBe(404);
  });

  it("answers files it cannot take next to the file field, without calling for a review", async () => {
    const { id } = await createDictionary("Refusals");
    const wrongType = actionAnswer(await upload(id, new File(["a,b"], "dictionary.txt")));
    expect(wrongType.status).toBe(400);
    expect(wrongType.result.error?.file).toEqual(["Upload a .csv or .xlsx file"]);

    const empty = actionAnswer(await upload(id, new File([], "empty.csv")));
    expect(empty.status).toBe(400);
    expect(empty.result.error?.file).toEqual(["The file is empty"]);

    const none = actionAnswer(await upload(id, new File([], "")));
    expect(none.result.error?.file).toEqual(["Choose a file to upload"]);

    // Just over the limit: the data API refuses it while it streams through (the portal never holds it).
    const big = actionAnswer(await upload(id, new File([new Uint8Array(64 * 1024 * 1024 + 1)], "big.csv")));
    expect(big.status).toBe(413);
    expect(big.result.error?.file).toEqual(["The file is larger than 64 MB"]);

    // Far over the limit: refused from its Content-Length, before the body is read.
    const huge = actionAnswer(await upload(id, new File([new Uint8Array(66 * 1024 * 1024)], "huge.csv")));
    expect(huge.status).toBe(413);
    expect(huge.result.error?.file).toEqual(["The file is larger than 64 MB"]);

    // Chunked, without a Content-Length (a script, not a browser): counted as it streams, refused at 65 MB.
    const boundary = "----dt-chunked";
    const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="endless.csv"\r\n\r\n`);
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          const chunk = sent === 0 ? head : new Uint8Array(64 * 1024).fill(0x61);
          sent += chunk.byteLength;
          if (sent > 100 * 1024 * 1024) return controller.close();
          controller.enqueue(chunk);
        },
      },
      { highWaterMark: 0 },
    );
    const chunked = actionAnswer(
      await call(ANALYST, `/migration/data-dictionary/create/${id}/upload-data${q(acme.id)}`, uploadData.action, {
        ...onDictionary(id, { method: "POST", body: endless, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } }),
      }),
    );
    expect(chunked.status).toBe(413);
    expect(chunked.result.error?.file).toEqual(["The file is larger than 64 MB"]);
    expect(sent).toBeLessThanOrEqual(65 * 1024 * 1024 + 64 * 1024);

    // An XLSX that is not one: the data API's message, next to the field.
    const notXlsx = actionAnswer(await upload(id, new File(["table,column,type"], "fake.xlsx")));
    expect(notXlsx.status).toBe(400);
    expect(notXlsx.result.error?.file?.[0]).toBeTruthy();
  });
});

describe("the list of data dictionaries", () => {
  type ListData = Loaded<typeof list.loader>;
  const apiCalls = (spy: { mock: { calls: unknown[][] } }, pathname: string) =>
    spy.mock.calls.map(([url]) => new URL(String(url))).filter((u) => u.pathname === pathname).map((u) => Object.fromEntries(u.searchParams));

  it("passes the search, the application filter, sort and page from the URL to the data API", async () => {
    const other = locationOf(
      await call(ANALYST, `/migration/application/create${q(acme.id)}`, applicationCreate.action, { method: "POST", body: form({ name: "Listed ERP", description: "" }) }),
    ).searchParams.get("created")!;
    await createDictionary("Listed alpha");
    await createDictionary("Listed beta", acme.id, other);
    await createDictionary("Listed gamma", acme.id, other);

    const fetchSpy = vi.spyOn(globalThis, "fetch");
    try {
      const page = (await call(
        ANALYST,
        `/migration/data-dictionary${q(acme.id, { name: "listed", applicationId: other, sort: "-name", page: "1", pageSize: "10" })}`,
        list.loader,
      )) as ListData;
      expect(apiCalls(fetchSpy, "/api/v1/data-dictionaries")).toEqual([
        { companyId: acme.id, name: "listed", applicationId: other, sort: "-name", page: "1", pageSize: "10" },
      ]);
      // The Application filter offers the company's applications, by name.
      expect(apiCalls(fetchSpy, "/api/v1/applications")).toEqual([{ companyId: acme.id, sort: "name", page: "1", pageSize: "100" }]);
      expect(page.applications).toContainEqual({ id: other, name: "Listed ERP" });
      expect(page.search).toEqual({ name: "listed", applicationId: other, sort: "-name", page: 1, pageSize: 10 });
      expect(page.result.items.map((d) => d.name)).toEqual(["Listed gamma", "Listed beta"]);
      expect(page.result).toMatchObject({ total: 2, page: 1, pageSize: 10 });
    } finally {
      fetchSpy.mockRestore();
    }

    const second = (await call(ANALYST, `/migration/data-dictionary${q(acme.id, { name: "listed", sort: "name", pageSize: "10", page: "2" })}`, list.loader)) as ListData;
    expect(second.result).toMatchObject({ items: [], total: 3, page: 2 });
  });

  it("falls back to the defaults for values it does not know, and to all applications for one the company does not have", async () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    try {
      const page = (await call(
        ANALYST,
        `/migration/data-dictionary${q(acme.id, { applicationId: "not-an-application", sort: "bogus", page: "0", pageSize: "3" })}`,
        list.loader,
      )) as ListData;
      expect(page.search).toEqual({ name: "", applicationId: "", sort: "name", page: 1, pageSize: 25 });
      expect(apiCalls(fetchSpy, "/api/v1/data-dictionaries")).toEqual([{ companyId: acme.id, sort: "name", page: "1", pageSize: "25" }]);
      expect(page.result.total).toBeGreaterThan(0);
    } finally {
      fetchSpy.mockRestore();
    }
  });
});

describe("edit a data dictionary", () => {
  let id = "";
  beforeAll(async () => {
    ({ id } = await createDictionary("Editable"));
    const uploaded = locationOf(await upload(id, new File([SAMPLE], "s.csv")));
    await call(
      ANALYST,
      `${uploaded.pathname}${uploaded.search}`,
      review.action,
      onDictionary(id, { method: "POST", body: form({ intent: "apply", reviewId: uploaded.searchParams.get("review")! }) }),
    );
  });

  const layoutData = async () =>
    (await call(ANALYST, `/migration/data-dictionary/edit/${id}/application${q(acme.id)}`, layout.loader, onDictionary(id))) as Loaded<typeof layout.loader>;

  it("names the dictionary in the breadcrumb and switches company to the list", async () => {
    const data = await layoutData();
    expect(layout.handle.breadcrumb({ loaderData: data } as never)).toBe("Editable");
    expect(layout.handle.companySwitchTo(`/migration/data-dictionary/edit/${id}/application`)).toBe("/migration/data-dictionary");
    const index = await call(ANALYST, `/migration/data-dictionary/edit/${id}${q(acme.id)}`, dictionaryIndex.loader, onDictionary(id));
    expect(isRedirect(index, `/migration/data-dictionary/edit/${id}/data-definition?companyId=${acme.id}`)).toBe(true);
  });

  it("saves the name against its version, and refuses a stale save with the conflict at the top", async () => {
    const { dictionary } = await layoutData();
    const path = `/migration/data-dictionary/edit/${id}/application${q(acme.id)}`;
    const saved = await call(
      ANALYST,
      path,
      applicationPage.action,
      onDictionary(id, { method: "POST", body: form({ version: String(dictionary.version), name: "Edited", description: "new" }) }),
    );
    expect(isRedirect(saved, `/migration/data-dictionary/view/${id}/application?companyId=${acme.id}`)).toBe(true);
    expect(await flashOf(saved)).toBe("Data dictionary Edited saved.");

    const stale = actionAnswer(
      await call(ANALYST, path, applicationPage.action, onDictionary(id, { method: "POST", body: form({ version: String(dictionary.version), name: "Lost update" }) })),
    );
    expect(stale.status).toBe(409);
    // The analyst saved the newer version: their other tab, said with its time.
    expect(stale.result.error?.[""]?.[0]).toMatch(/^You changed this dictionary in another tab or window at \d\d:\d\d UTC\./);
    expect((await layoutData()).dictionary).toMatchObject({ name: "Edited", description: "new" });
  });

  it("offers a name stored with a tab (before names refused them) cleaned, with a note, so that a save of the description goes through", async () => {
    const { id: tabbed } = await createDictionary("Tabbed dictionary");
    await live.dataApiDb.updateTable("dictionaries").set({ name: "Tabbed\tdictionary" }).where("id", "=", tabbed).execute();
    const path = `/migration/data-dictionary/edit/${tabbed}/application${q(acme.id)}`;
    const page = (await call(ANALYST, path, applicationPage.loader, onDictionary(tabbed))) as Loaded<typeof applicationPage.loader>;
    expect(page.name).toEqual({ name: "Tabbed dictionary", note: CLEANED_NAME_NOTE });
    const saved = await call(
      ANALYST,
      path,
      applicationPage.action,
      onDictionary(tabbed, { method: "POST", body: form({ version: String(page.dictionary.version), name: page.name.name, description: "Now described" }) }),
    );
    expect(isRedirect(saved, `/migration/data-dictionary/view/${tabbed}/application?companyId=${acme.id}`)).toBe(true);
    const after = (await call(ANALYST, path, applicationPage.loader, onDictionary(tabbed))) as Loaded<typeof applicationPage.loader>;
    expect(after.dictionary).toMatchObject({ name: "Tabbed dictionary", description: "Now described" });
    expect(after.name.note).toBeNull();
  });

  it("edits a table's columns in the TableEditor", async () => {
    const { summaries, version } = await loadDefinition(id, "edit");
    const orders = summaries.items.find((t) => t.name === "Orders")!;
    const tablePath = `/migration/data-dictionary/edit/${id}/data-definition/tables/${orders.id}${q(acme.id)}`;
    const page = (await call(ANALYST, tablePath, table.loader, onDictionary(id, { params: { tableId: orders.id } }))) as Loaded<typeof table.loader>;
    expect(page.table?.name).toBe("Orders");
    expect(table.handle.breadcrumb({ loaderData: page } as never)).toBe("Orders");
    const cols = page.defaultValue.columns;

    const body = form({ version: String(version), tableId: orders.id, name: "Orders", description: "Sales orders" });
    // The first column moves to the end; Quantity becomes a decimal(10, 3).
    const reordered = [...cols.slice(1), cols[0]!];
    reordered.forEach((c, i) => {
      const isQuantity = c.name === "Quantity";
      body.append(`columns[${i}].name`, c.name);
      body.append(`columns[${i}].type`, isQuantity ? "decimal" : c.type);
      if (c.length) body.append(`columns[${i}].length`, c.length);
      body.append(`columns[${i}].precision`, isQuantity ? "10" : c.precision);
      body.append(`columns[${i}].scale`, isQuantity ? "3" : c.scale);
      body.append(`columns[${i}].nullable`, c.nullable);
      if (c.isKey) body.append(`columns[${i}].isKey`, "on");
      body.append(`columns[${i}].description`, c.description);
    });
    const saved = await call(ANALYST, tablePath, table.action, onDictionary(id, { method: "POST", body, params: { tableId: orders.id } }));
    expect(isRedirect(saved, `/migration/data-dictionary/edit/${id}/data-definition?companyId=${acme.id}`)).toBe(true);
    expect(await flashOf(saved)).toBe("Table Orders saved.");

    const after = (await loadDefinition(id)).tables.find((t) => t.name === "Orders")!;
    expect(after.description).toBe("Sales orders");
    expect(after.columns.map((c) => c.name)).toEqual(["CustomerId", "Quantity", "Weight", "DeliveryTime", "OrderId"]);
    expect(after.columns.find((c) => c.name === "Quantity")).toMatchObject({ type: "decimal", precision: 10, scale: 3 });
    expect(after.columns.find((c) => c.name === "OrderId")).toMatchObject({ isKey: true, nullable: false });
  });

  it("changes the table its URL names: a form naming another table is refused at the top, and neither table changes", async () => {
    const { summaries, version } = await loadDefinition(id, "edit");
    const [customers, orders] = ["Customers", "Orders"].map((name) => summaries.items.find((t) => t.name === name)!);
    const before = (await loadDefinition(id)).tables;
    // Customers' page, posted the form of Orders (its hidden tableId): a valid edit, applied to neither.
    const tablePath = `/migration/data-dictionary/edit/${id}/data-definition/tables/${customers!.id}${q(acme.id)}`;
    const body = form({
      version: String(version),
      tableId: orders!.id,
      name: "Renamed",
      "columns[0].name": "Only",
      "columns[0].type": "int",
      "columns[0].nullable": "true",
    });
    const answer = actionAnswer(await call(ANALYST, tablePath, table.action, onDictionary(id, { method: "POST", body, params: { tableId: customers!.id } })));
    expect(answer.status).toBe(400);
    expect(answer.result.error?.[""]).toEqual([OTHER_TABLE]);
    expect((await loadDefinition(id)).tables).toEqual(before);
  });

  it("refuses a table's edit or deletion posted without its hidden tableId at the top, in words, with a 400, and changes nothing", async () => {
    const { summaries, version } = await loadDefinition(id, "edit");
    const customers = summaries.items.find((t) => t.name === "Customers")!;
    const before = (await loadDefinition(id)).tables;
    // Customers' page, its form posted without the hidden tableId (forged or truncated): an otherwise valid edit.
    const tablePath = `/migration/data-dictionary/edit/${id}/data-definition/tables/${customers.id}${q(acme.id)}`;
    const body = form({ version: String(version), name: "Renamed", "columns[0].name": "Only", "columns[0].type": "int", "columns[0].nullable": "true" });
    const edit = actionAnswer(await call(ANALYST, tablePath, table.action, onDictionary(id, { method: "POST", body, params: { tableId: customers.id } })));
    expect(edit.status).toBe(400);
    expect(edit.result.error?.[""]).toEqual([INCOMPLETE_REQUEST]);
    // Its deletion's confirmation, likewise: said where the confirmation shows the form's errors.
    const deleting = actionAnswer(
      await call(
        ANALYST,
        `/migration/data-dictionary/edit/${id}/data-definition${q(acme.id, { delete: customers.id })}`,
        definition.action,
        onDictionary(id, { method: "POST", body: form({ intent: "delete-table", version: String(version) }) }),
      ),
    );
    expect(deleting.status).toBe(400);
    expect(deleting.result.error).toEqual({ "": [INCOMPLETE_REQUEST] });
    expect((await loadDefinition(id)).tables).toEqual(before);
  });

  it("answers a list intent sent without JavaScript with the form changed, and saves nothing", async () => {
    const { summaries, version } = await loadDefinition(id, "edit");
    const customers = summaries.items.find((t) => t.name === "Customers")!;
    const tablePath = `/migration/data-dictionary/edit/${id}/data-definition/tables/${customers.id}${q(acme.id)}`;
    const body = form({
      version: String(version),
      tableId: customers.id,
      name: "Customers",
      "columns[0].name": "A",
      "columns[0].type": "int",
      "columns[0].nullable": "true",
      "columns[1].name": "B",
      "columns[1].type": "date",
      "columns[1].nullable": "false",
      __intent__: JSON.stringify({ type: "insert", payload: { name: "columns", defaultValue: { nullable: "true" } } }),
    });
    const answer = actionAnswer(await call(ANALYST, tablePath, table.action, onDictionary(id, { method: "POST", body, params: { tableId: customers.id } })));
    expect(answer.status).toBe(200);
    expect(answer.result.initialValue.columns).toHaveLength(3);
    expect(answer.result.initialValue.columns[2]).toEqual({ nullable: "true" });

    const remove = form({
      version: String(version),
      tableId: customers.id,
      name: "Customers",
      "columns[0].name": "A",
      "columns[1].name": "B",
      __intent__: JSON.stringify({ type: "remove", payload: { name: "columns", index: 0 } }),
    });
    const removed = actionAnswer(await call(ANALYST, tablePath, table.action, onDictionary(id, { method: "POST", body: remove, params: { tableId: customers.id } })));
    expect(removed.result.initialValue.columns.map((c: { name: string }) => c.name)).toEqual(["B"]);

    expect((await loadDefinition(id)).tables.find((t) => t.name === "Customers")!.columns.map((c) => c.name)).not.toContain("A");
  });

  it("validates columns next to their fields (length for nvarchar, scale ≤ precision, key not nullable)", async () => {
    const { version } = await loadDefinition(id, "edit");
    const tablePath = `/migration/data-dictionary/edit/${id}/data-definition/tables/new${q(acme.id)}`;
    const body = form({
      version: String(version),
      name: "Bad",
      "columns[0].name": "Text",
      "columns[0].type": "nvarchar",
      "columns[0].nullable": "true",
      "columns[1].name": "Amount",
      "columns[1].type": "decimal",
      "columns[1].precision": "5",
      "columns[1].scale": "7",
      "columns[1].nullable": "true",
      "columns[2].name": "Id",
      "columns[2].type": "int",
      "columns[2].nullable": "true",
      "columns[2].isKey": "on",
      "columns[3].name": "Other",
      "columns[3].type": "varchar2",
      "columns[3].nullable": "true",
    });
    const answer = actionAnswer(await call(ANALYST, tablePath, table.action, onDictionary(id, { method: "POST", body })));
    expect(answer.status).toBe(400);
    expect(answer.result.error).toMatchObject({
      "columns[0].length": ["nvarchar needs a length"],
      "columns[1].scale": ["Scale cannot be greater than precision"],
      "columns[2].nullable": ["A key column cannot be nullable"],
    });
    expect(answer.result.error?.["columns[3].type"]?.[0]).toMatch(/^Unknown type/);

    // Once each column is valid, the table's own rule: column names unique in any case.
    const duplicate = form({
      version: String(version),
      name: "Bad",
      "columns[0].name": "Code",
      "columns[0].type": "int",
      "columns[0].nullable": "true",
      "columns[1].name": "CODE",
      "columns[1].type": "int",
      "columns[1].nullable": "true",
    });
    const dup = actionAnswer(await call(ANALYST, tablePath, table.action, onDictionary(id, { method: "POST", body: duplicate })));
    expect(dup.status).toBe(400);
    expect(dup.result.error?.["columns[1].name"]).toEqual(["Duplicate column CODE"]);
  });

  it("refuses a table without columns (a new one, or an edit that removes its last) next to the columns, in words, and saves nothing", async () => {
    const before = await loadDefinition(id, "edit");
    const orders = before.summaries.items.find((t) => t.name === "Orders")!;
    const added = actionAnswer(
      await call(
        ANALYST,
        `/migration/data-dictionary/edit/${id}/data-definition/tables/new${q(acme.id)}`,
        table.action,
        onDictionary(id, { method: "POST", body: form({ version: String(before.version), name: "Empty" }) }),
      ),
    );
    expect(added.status).toBe(400);
    expect(added.result.error).toEqual({ columns: [MASTER_TABLE_NEEDS_A_COLUMN] });

    const emptied = actionAnswer(
      await call(
        ANALYST,
        `/migration/data-dictionary/edit/${id}/data-definition/tables/${orders.id}${q(acme.id)}`,
        table.action,
        onDictionary(id, {
          method: "POST",
          body: form({ version: String(before.version), tableId: orders.id, name: "Orders" }),
          params: { tableId: orders.id },
        }),
      ),
    );
    expect(emptied.status).toBe(400);
    expect(emptied.result.error).toEqual({ columns: [MASTER_TABLE_NEEDS_A_COLUMN] });

    const after = await loadDefinition(id, "edit");
    expect(after.version).toBe(before.version);
    expect(after.summaries.items.map((t) => t.name)).not.toContain("Empty");
    expect(after.summaries.items.find((t) => t.name === "Orders")!.columnCount).toBe(orders.columnCount);
  });

  it("adds a table, refuses a second one of the same name, and deletes it after confirmation", async () => {
    let { version } = await loadDefinition(id, "edit");
    const newPath = `/migration/data-dictionary/edit/${id}/data-definition/tables/new${q(acme.id)}`;
    const fields = (v: number) =>
      form({ version: String(v), name: "Products", "columns[0].name": "Sku", "columns[0].type": "nvarchar", "columns[0].length": "40", "columns[0].nullable": "false" });
    const added = await call(ANALYST, newPath, table.action, onDictionary(id, { method: "POST", body: fields(version) }));
    expect(isRedirect(added, `/migration/data-dictionary/edit/${id}/data-definition?companyId=${acme.id}`)).toBe(true);
    expect(await flashOf(added)).toBe("Table Products added.");

    ({ version } = await loadDefinition(id, "edit"));
    const duplicate = actionAnswer(await call(ANALYST, newPath, table.action, onDictionary(id, { method: "POST", body: fields(version) })));
    expect(duplicate.status).toBe(409);
    expect(duplicate.result.error?.name?.[0]).toMatch(/already/i);

    const before = await loadDefinition(id, "edit");
    const products = before.summaries.items.find((t) => t.name === "Products")!;
    const confirming = await loadDefinition(id, "edit", { delete: products.id });
    expect(confirming.deleting).toEqual({ id: products.id, name: "Products", columnCount: 1 });

    const stale = actionAnswer(
      await call(
        ANALYST,
        `/migration/data-dictionary/edit/${id}/data-definition${q(acme.id, { delete: products.id })}`,
        definition.action,
        onDictionary(id, { method: "POST", body: form({ intent: "delete-table", tableId: products.id, version: String(before.version - 1) }) }),
      ),
    );
    expect(stale.status).toBe(409);

    const deleted = await call(
      ANALYST,
      `/migration/data-dictionary/edit/${id}/data-definition${q(acme.id, { delete: products.id })}`,
      definition.action,
      onDictionary(id, { method: "POST", body: form({ intent: "delete-table", tableId: products.id, version: String(before.version) }) }),
    );
    expect(isRedirect(deleted, `/migration/data-dictionary/edit/${id}/data-definition?companyId=${acme.id}`)).toBe(true);
    expect(await flashOf(deleted)).toBe("Table Products deleted.");
    expect((await loadDefinition(id)).summaries.items.map((t) => t.name)).not.toContain("Products");
  });

  it("bulk-updates through the edit pages: the review lists what changes", async () => {
    const csv = "table,column,type,length,nullable\nCustomers,Name,nvarchar,300,no\nCustomers,Email,nvarchar,320,yes\n";
    const uploaded = locationOf(await upload(id, new File([csv], "update.csv"), "edit"));
    expect(uploaded.pathname).toBe(`/migration/data-dictionary/edit/${id}/bulk-update/review/tables`);
    const page = (await call(ANALYST, `${uploaded.pathname}${uploaded.search}`, review.loader, onDictionary(id))) as Loaded<typeof review.loader>;
    const customers = page.tables.items.find((t) => t.name === "Customers")!;
    expect(customers.status).toBe("changed");
    expect(customers.added.map((c) => c.name)).toEqual(["Email"]);
    expect(customers.changed.map((c) => c.name)).toEqual(["Name"]);
    expect(customers.removed.length).toBeGreaterThan(0);

    const applied = await call(
      ANALYST,
      `${uploaded.pathname}${uploaded.search}`,
      review.action,
      onDictionary(id, { method: "POST", body: form({ intent: "apply", reviewId: uploaded.searchParams.get("review")! }) }),
    );
    expect(isRedirect(applied, `/migration/data-dictionary/edit/${id}/data-definition?companyId=${acme.id}`)).toBe(true);
  });

  it("sends the review page without a review back to the upload page", async () => {
    const res = await call(ANALYST, `/migration/data-dictionary/edit/${id}/bulk-update/review/tables${q(acme.id)}`, review.loader, onDictionary(id));
    expect(isRedirect(res, `/migration/data-dictionary/edit/${id}/bulk-update?companyId=${acme.id}`)).toBe(true);
  });

  it("answers 404 for a dictionary of another company and for an unknown table", async () => {
    // Seen with Birch selected, an Acme dictionary does not exist.
    const other = thrownData(await call(ANALYST, `/migration/data-dictionary/view/${id}/data-definition${q(birch.id)}`, definition.loader, onDictionary(id)));
    expect(other.status).toBe(404);
    const unknown = thrownData(
      await call(
        ANALYST,
        `/migration/data-dictionary/edit/${id}/data-definition/tables/nope${q(acme.id)}`,
        table.loader,
        onDictionary(id, { params: { tableId: "nope" } }),
      ),
    );
    expect(unknown.status).toBe(404);
    // A ClientAdmin of Birch has no way to Acme's dictionary, whatever the URL says.
    const clientAdmin = await call("clientadmin@demo.test", `/migration/data-dictionary/view/${id}/data-definition${q(acme.id)}`, definition.loader, onDictionary(id));
    expect(isRedirect(clientAdmin, new RegExp(`companyId=${birch.id}`))).toBe(true);
  });
});

describe("flash messages", () => {
  it("the shell shows what applying a review changed on the next page, once, then clears it", async () => {
    expect(shell.middleware).toContain(flashMiddleware);
    const { id } = await createDictionary("Flashed");
    const uploadedRes = await upload(id, new File([SAMPLE], "sample-dictionary.csv", { type: "text/csv" }));
    const uploaded = locationOf(uploadedRes);
    expect(await flashOf(uploadedRes)).toBe("File sample-dictionary.csv uploaded for review.");

    const applied = await call(
      ANALYST,
      `${uploaded.pathname}${uploaded.search}`,
      review.action,
      onDictionary(id, { method: "POST", body: form({ intent: "apply", reviewId: uploaded.searchParams.get("review")! }) }),
    );
    const to = locationOf(applied);
    expect(to.pathname).toBe(`/migration/data-dictionary/view/${id}/data-definition`);

    // The page the redirect leads to shows the message and its response clears the cookie.
    const next = await nextShellPage(`${to.pathname}${to.search}`, flashCookieOf(applied));
    expect(next.flash).toEqual({ kind: "success", text: "Review applied: 2 tables added." });
    expect(next.setCookie).toMatch(/^dt_flash=;/);
    expect(next.setCookie).toMatch(/Max-Age=0/);

    // The browser dropped it: the page after that says nothing.
    const after = await nextShellPage(`${to.pathname}${to.search}`, null);
    expect(after.flash).toBeNull();
    expect(after.setCookie).toBeNull();
  });

  it("counts added and changed tables in the review's message", async () => {
    const { id } = await createDictionary("Counted");
    const first = locationOf(await upload(id, new File([SAMPLE], "s.csv")));
    await call(ANALYST, `${first.pathname}${first.search}`, review.action, onDictionary(id, { method: "POST", body: form({ intent: "apply", reviewId: first.searchParams.get("review")! }) }));
    const csv = "table,column,type,length,nullable\nCustomers,Email,nvarchar,320,yes\nOrders,Notes,nvarchar,500,yes\nProducts,Sku,nvarchar,40,no\n";
    const second = locationOf(await upload(id, new File([csv], "more.csv"), "edit"));
    const applied = await call(
      ANALYST,
      `${second.pathname}${second.search}`,
      review.action,
      onDictionary(id, { method: "POST", body: form({ intent: "apply", reviewId: second.searchParams.get("review")! }) }),
    );
    expect(await flashOf(applied)).toBe("Review applied: 1 table added, 2 tables changed.");
  });
});

describe("bulk update: only add and change, and a pending review found again", () => {
  it("with mode=merge proposes no removal; the pending review is linked from the dictionary's pages until applied", async () => {
    const { id } = await createDictionary("Merged");
    const first = locationOf(await upload(id, new File([SAMPLE], "s.csv")));
    await call(ANALYST, `${first.pathname}${first.search}`, review.action, onDictionary(id, { method: "POST", body: form({ intent: "apply", reviewId: first.searchParams.get("review")! }) }));

    const uploadPage = async () =>
      (await call(ANALYST, `/migration/data-dictionary/edit/${id}/bulk-update${q(acme.id)}`, uploadData.loader, onDictionary(id))) as Loaded<typeof uploadData.loader>;
    expect((await uploadPage()).pending).toBeNull();
    expect((await uploadPage()).tableCount).toBe(2);

    const csv = "table,column,type,length,nullable\nCustomers,Name,nvarchar,300,no\nCustomers,Email,nvarchar,320,yes\n";
    const uploaded = locationOf(await upload(id, new File([csv], "partial.csv"), "edit", { mode: "merge" }));
    const page = (await call(ANALYST, `${uploaded.pathname}${uploaded.search}`, review.loader, onDictionary(id))) as Loaded<typeof review.loader>;
    expect(page.review.mode).toBe("merge");
    const customers = page.tables.items.find((t) => t.name === "Customers")!;
    expect(customers.removed).toEqual([]);
    expect(customers.added.map((c) => c.name)).toEqual(["Email"]);
    expect(customers.changed.map((c) => c.name)).toEqual(["Name"]);

    // Left without applying: the bulk update and data definition pages link back to it.
    const reviewId = uploaded.searchParams.get("review")!;
    const expected = {
      review: { fileName: "partial.csv", createdAt: expect.any(String), errorCount: 0, uploaded: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/) },
      to: { path: `/migration/data-dictionary/edit/${id}/bulk-update/review/tables`, search: { review: reviewId } },
    };
    expect((await uploadPage()).pending).toEqual(expected);
    expect((await loadDefinition(id, "edit")).pending).toEqual(expected);
    expect((await loadDefinition(id, "view")).pending).toEqual(expected);

    await call(ANALYST, `${uploaded.pathname}${uploaded.search}`, review.action, onDictionary(id, { method: "POST", body: form({ intent: "apply", reviewId }) }));
    expect((await uploadPage()).pending).toBeNull();
    const after = (await loadDefinition(id)).tables.find((t) => t.name === "Customers")!;
    expect(after.columns.map((c) => c.name)).toEqual(["CustomerId", "Name", "CreditLimit", "BirthDate", "CreatedAt", "Email"]);
  });

  it("uploads with replace when the form sends no mode", async () => {
    const { id } = await createDictionary("Replaced");
    const first = locationOf(await upload(id, new File([SAMPLE], "s.csv")));
    await call(ANALYST, `${first.pathname}${first.search}`, review.action, onDictionary(id, { method: "POST", body: form({ intent: "apply", reviewId: first.searchParams.get("review")! }) }));
    const uploaded = locationOf(await upload(id, new File(["table,column,type\nCustomers,CustomerId,uniqueidentifier\n"], "one.csv"), "edit"));
    const page = (await call(ANALYST, `${uploaded.pathname}${uploaded.search}`, review.loader, onDictionary(id))) as Loaded<typeof review.loader>;
    expect(page.review.mode).toBe("replace");
    expect(page.tables.items[0]!.removed.map((c) => c.name)).toEqual(["Name", "CreditLimit", "BirthDate", "CreatedAt"]);
    const refused = actionAnswer(await upload(id, new File([SAMPLE], "s.csv"), "edit", { mode: "everything" }));
    expect(refused.status).toBe(400);
    expect(refused.result.error?.mode?.[0]).toBeTruthy();
  });
});

describe("the same pages under /onboarding/data-dictionary", () => {
  const ONBOARDING = "/onboarding/data-dictionary";

  it("an analyst creates a dictionary there: every redirect stays in Onboarding, and both areas list it", async () => {
    const createPath = `${ONBOARDING}/create/new/application${q(acme.id)}`;
    const page = (await call(ANALYST, createPath, createNew.loader)) as Loaded<typeof createNew.loader>;
    expect(page.applications).toContainEqual({ value: applicationId, label: "Dictionary ERP" });

    const created = await call(ANALYST, createPath, createNew.action, {
      method: "POST",
      body: form({ applicationId, name: "Made in Onboarding", description: "" }),
    });
    const to = locationOf(created);
    const id = /\/create\/([^/]+)\/upload-data$/.exec(to.pathname)?.[1] ?? "";
    expect(to.pathname).toBe(`${ONBOARDING}/create/${id}/upload-data`);
    expect(to.searchParams.get("companyId")).toBe(acme.id);
    expect(await flashOf(created)).toBe("Data dictionary Made in Onboarding created.");

    const layoutPath = `${ONBOARDING}/create/${id}/upload-data`;
    const layoutData = (await call(ANALYST, `${layoutPath}${q(acme.id)}`, layout.loader, onDictionary(id))) as Loaded<typeof layout.loader>;
    expect(layoutData).toMatchObject({ mode: "create", canWrite: true });
    expect(layout.handle.companySwitchTo(layoutPath)).toBe(ONBOARDING);

    const uploaded = locationOf(await upload(id, new File([SAMPLE], "sample-dictionary.csv", { type: "text/csv" }), "create", {}, ONBOARDING));
    expect(uploaded.pathname).toBe(`${ONBOARDING}/create/${id}/review/tables`);
    const applied = locationOf(
      await call(
        ANALYST,
        `${uploaded.pathname}${uploaded.search}`,
        review.action,
        onDictionary(id, { method: "POST", body: form({ intent: "apply", reviewId: uploaded.searchParams.get("review")! }) }),
      ),
    );
    expect(applied.pathname).toBe(`${ONBOARDING}/view/${id}/data-definition`);
    expect(applied.searchParams.get("companyId")).toBe(acme.id);

    // Editing stays there too: the dictionary's own index, a table saved, a pending review's link.
    const index = await call(ANALYST, `${ONBOARDING}/edit/${id}${q(acme.id)}`, dictionaryIndex.loader, onDictionary(id));
    expect(isRedirect(index, `${ONBOARDING}/edit/${id}/data-definition?companyId=${acme.id}`)).toBe(true);
    const definitionPath = `${ONBOARDING}/edit/${id}/data-definition${q(acme.id)}`;
    const { version } = (await call(ANALYST, definitionPath, definition.loader, onDictionary(id))) as Loaded<typeof definition.loader>;
    const added = await call(
      ANALYST,
      `${ONBOARDING}/edit/${id}/data-definition/tables/new${q(acme.id)}`,
      table.action,
      onDictionary(id, {
        method: "POST",
        body: form({ version: String(version), name: "Members", "columns[0].name": "MemberId", "columns[0].type": "int", "columns[0].nullable": "false" }),
      }),
    );
    expect(isRedirect(added, `${ONBOARDING}/edit/${id}/data-definition?companyId=${acme.id}`)).toBe(true);
    const pendingUpload = locationOf(await upload(id, new File([SAMPLE], "again.csv"), "edit", {}, ONBOARDING));
    expect(pendingUpload.pathname).toBe(`${ONBOARDING}/edit/${id}/bulk-update/review/tables`);
    const withPending = (await call(ANALYST, definitionPath, definition.loader, onDictionary(id))) as Loaded<typeof definition.loader>;
    expect(withPending.pending?.to.path).toBe(`${ONBOARDING}/edit/${id}/bulk-update/review/tables`);

    // A master dictionary is the company's, whichever area it was made in.
    for (const base of [ONBOARDING, "/migration/data-dictionary"]) {
      const listed = (await call(ANALYST, `${base}${q(acme.id, { name: "Made in Onboarding" })}`, list.loader)) as Loaded<typeof list.loader>;
      expect(listed.canWrite).toBe(true);
      expect(listed.result.items.map((d) => [d.id, d.tableCount])).toEqual([[id, 3]]);
    }
  });

  it("is closed to a role without Onboarding, whom Migration's list lets in", async () => {
    // Carl Client is ClientAdmin of Birch Logistics: Migration yes, Onboarding no (spec §6).
    const refused = await call("clientadmin@demo.test", `${ONBOARDING}${q(birch.id)}`, list.loader);
    expect(isRedirect(refused, `/permission-denied?companyId=${birch.id}`)).toBe(true);
    const migration = (await call("clientadmin@demo.test", `/migration/data-dictionary${q(birch.id)}`, list.loader)) as Loaded<typeof list.loader>;
    expect(migration.canWrite).toBe(true);
  });
});
