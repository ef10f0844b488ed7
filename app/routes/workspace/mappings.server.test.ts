import type { ComponentType } from "react";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEMO_COMPANIES } from "../../../scripts/demo-data";
import { isRedirect, PORTAL_URL, startLiveServices } from "~/test/live-services";
import { pageSizeChoice, previousHref } from "~/test/page-size-form";
import { renderPage as renderRoutePage } from "~/test/render-page";

/**
 * A translation mapping project's value map pages (…/mappingTable/{id}/column/{columnId}), their
 * loaders and actions against the live services; the forms are sent as a browser without JavaScript
 * sends what the page renders.
 */
const live = await startLiveServices();
afterAll(() => live.stop());

const { createHarness, unwrap } = await import("./test-support");
const { call, api, mappedGrade } = await createHarness();
const { readFlash } = await import("~/lib/flash.server");
const { exactValue } = await import("~/lib/forms");
const workspaceLayout = await import("./project/layout");
const columnPage = await import("./project/mapping-column");
const tablePage = await import("./project/mapping-table");
const translatePage = await import("./project/translate");
const wizardLayout = await import("./create/layout");
const structureStep = await import("./create/data-dictionary");

const [, acme, birch] = DEMO_COMPANIES;
const ANALYST = "analyst@demo.test";
const API = "/api/v1/mapping-projects";

type Entry = { sourceValue: string; targetValue: string | null };

/** A mapping project with a table `employees` whose column `grade` is translated; its map holds `values`. */
async function mappedColumn(values: Entry[]) {
  const { projectId, tableId, columnId } = await mappedGrade(ANALYST, acme.id, values);
  const tableUrl = `/translations/mappings/${projectId}/file-data-structure/mappingTable/${tableId}?companyId=${acme.id}`;
  const url = tableUrl.replace("?", `/column/${columnId}?`);
  const options = { params: { mappingProjectId: projectId, mappingSourceTableId: tableId, columnId }, middleware: workspaceLayout.middleware };
  const map = async (): Promise<Entry[]> =>
    (await api(ANALYST, "GET", `${API}/${projectId}/mapping-columns/${columnId}/values`, undefined, { pageSize: "100" })).items.map((v: Entry) => ({
      sourceValue: v.sourceValue,
      targetValue: v.targetValue,
    }));
  return { url, tableUrl, columnId, options, map };
}

/** The message a redirect carries to the next page. */
async function flashOf(response: unknown): Promise<string | undefined> {
  const cookie = (response as Response).headers.get("Set-Cookie")?.split(";")[0];
  return (await readFlash(new Request(PORTAL_URL, { headers: cookie ? { cookie } : {} })))?.text;
}

/** The page as the server renders it for `loaderData` (and an action's answer). */
function renderPage(loaderData: unknown, actionData?: unknown, page: { default: unknown } = columnPage): string {
  // In Acme Health, as the pages are reached (the shell's selected company).
  return renderRoutePage("*", `/?companyId=${acme.id}`, page.default as ComponentType<never>, loaderData, actionData);
}

/** An attribute's value as React writes it: these five are the characters it escapes. */
const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#x27;": "'" };
const decode = (text: string) => text.replace(/&(amp|lt|gt|quot|#x27);/g, (entity) => ENTITIES[entity]!);

/**
 * What a browser without JavaScript posts for the form holding `intent=<intent>`: its inputs' names and
 * values in order (a text box's value without line breaks, as it shows it), each line break made CRLF
 * as the form data set's newline normalisation does, after `fill` changed the text boxes it names.
 */
function postedForm(html: string, intent: string, fill: Record<string, string> = {}): [string, string][] {
  const form = [...html.matchAll(/<form[^>]*>([\s\S]*?)<\/form>/g)].map((m) => m[1]!).find((f) => f.includes(`name="intent" value="${intent}"`));
  if (!form) throw new Error(`no form with intent ${intent}`);
  const crlf = (s: string) => s.replace(/\r\n|\r|\n/g, "\r\n");
  return [...form.matchAll(/<input([^>]*)>/g)].flatMap(([, attributes]) => {
    const attr = Object.fromEntries([...attributes!.matchAll(/([\w-]+)="([^"]*)"/g)].map(([, k, v]) => [k!, decode(v!)]));
    if (!attr.name) return [];
    const type = attr.type ?? "text";
    const value = attr.id && attr.id in fill ? fill[attr.id]! : type === "hidden" ? (attr.value ?? "") : (attr.value ?? "").replace(/[\r\n]/g, "");
    return [[crlf(attr.name), crlf(value)] as [string, string]];
  });
}

describe("a column's value map without JavaScript", () => {
  let column: Awaited<ReturnType<typeof mappedColumn>>;
  beforeAll(async () => {
    column = await mappedColumn([
      { sourceValue: "Bob\nJunior", targetValue: null },
      { sourceValue: "Ann\r\nLee", targetValue: null },
      { sourceValue: "Alice", targetValue: "A" },
      { sourceValue: " Alice ", targetValue: null },
      { sourceValue: "Carol", targetValue: "Line\none" },
      { sourceValue: "Dan", targetValue: " spaced " },
    ]);
  });

  it("saves the targets of values holding line breaks and spaces on those values, and leaves untouched rows as they are", async () => {
    const loaded = (await call(ANALYST, column.url, columnPage.loader, column.options)) as { page: { items: Entry[] } };
    const row = (source: string) => `target-${loaded.page.items.findIndex((v) => v.sourceValue === source)}`;
    const form = postedForm(renderPage(loaded), "save", { [row("Bob\nJunior")]: "BJ", [row("Ann\r\nLee")]: "AL", [row(" Alice ")]: "SA" });
    const saved = await call(ANALYST, column.url, columnPage.action, { ...column.options, form });
    expect(saved).toBeInstanceOf(Response);
    expect(await flashOf(saved)).toBe("3 values saved.");
    expect(await column.map()).toEqual(
      expect.arrayContaining([
        { sourceValue: "Bob\nJunior", targetValue: "BJ" },
        { sourceValue: "Ann\r\nLee", targetValue: "AL" },
        { sourceValue: " Alice ", targetValue: "SA" },
        { sourceValue: "Alice", targetValue: "A" },
        // A text box cannot show a line break, nor does the form trim what nobody typed.
        { sourceValue: "Carol", targetValue: "Line\none" },
        { sourceValue: "Dan", targetValue: " spaced " },
      ]),
    );
    expect(await column.map()).toHaveLength(6);
  });

  it("refuses a source value that is not the page's own (a forged or outdated form) and saves nothing", async () => {
    const refused = unwrap(
      await call(ANALYST, column.url, columnPage.action, {
        ...column.options,
        form: [
          ["intent", "save"],
          ["version", "99"],
          ["source", "Bob\r\nJunior"],
          ["was", ""],
          ["targetValue", "X"],
        ],
      }),
    );
    expect(refused?.status).toBe(400);
    expect(await column.map()).toHaveLength(6);
  });
});

/** Each row of the value form as the page renders it: its source value, the target saved (`was`) and the text in its box. */
function targetsIn(html: string): { source: string; was: string; box: string }[] {
  const posted = postedForm(html, "save");
  const all = (name: string) => posted.filter(([n]) => n === name).map(([, v]) => v);
  const boxes = all("targetValue");
  const was = all("was");
  return all("source").map((source, i) => ({ source: JSON.parse(source) as string, was: was[i]!, box: boxes[i]! }));
}

describe("a column's value map saved from a stale page without JavaScript", () => {
  it("refuses the save (409) and shows the map as it is now with the targets typed kept, so that saving again keeps them", async () => {
    const column = await mappedColumn([
      { sourceValue: "G1", targetValue: null },
      { sourceValue: "G2", targetValue: "Two" },
      { sourceValue: "G3", targetValue: null },
    ]);
    const stale = (await call(ANALYST, column.url, columnPage.loader, column.options)) as { page: { items: Entry[]; column: { version: number } } };
    const row = (source: string) => `target-${stale.page.items.findIndex((v) => v.sourceValue === source)}`;
    // Another tab saves G2 and G3 meanwhile.
    const { mappingProjectId } = column.options.params;
    await api(ANALYST, "POST", `${API}/${mappingProjectId}/mapping-columns/${column.columnId}/values`, {
      version: stale.page.column.version,
      values: [
        { sourceValue: "G2", targetValue: "Deux" },
        { sourceValue: "G3", targetValue: "Trois" },
      ],
    });

    const form = postedForm(renderPage(stale), "save", { [row("G1")]: "One", [row("G2")]: "Zwei" });
    const refused = unwrap(await call(ANALYST, column.url, columnPage.action, { ...column.options, form }));
    expect(refused?.status).toBe(409);
    const saved = [
      { sourceValue: "G1", targetValue: null },
      { sourceValue: "G2", targetValue: "Deux" },
      { sourceValue: "G3", targetValue: "Trois" },
    ];
    expect(await column.map()).toEqual(saved);

    // The page read again after the refused post: the map as it is now, the version it is at, and what was typed.
    const now = (await call(ANALYST, column.url, columnPage.loader, column.options)) as { page: { column: { version: number } } };
    const html = renderPage(now, refused?.data);
    expect(targetsIn(html)).toEqual([
      { source: "G1", was: "", box: "One" },
      { source: "G2", was: "Deux", box: "Zwei" },
      { source: "G3", was: "Trois", box: "Trois" },
    ]);
    expect(html).toMatch(
      /<div role="alert"[^>]*>You changed the map of grade or its column&#x27;s type in another tab or window at \d\d:\d\d UTC\. Nothing was saved\. The table shows the targets saved now and keeps the ones you typed; where a target was changed meanwhile, it is shown under yours\. Check them and save again to keep yours\.<\/div>/,
    );
    expect(html).toContain(`<input type="hidden" name="version" value="${now.page.column.version}"/>`);
    // G2 was changed meanwhile: said under the box that keeps "Zwei"; G1 was not.
    expect(html).toMatch(/aria-describedby="target-\d-saved"[^>]*\/><p id="target-\d-saved"[^>]*>Saved meanwhile: (?:<!-- -->)?Deux<\/p>/);
    expect(html.match(/Saved meanwhile/g)).toHaveLength(1);

    // Saving again, on purpose, saves what was typed over the map as it is now.
    const again = await call(ANALYST, column.url, columnPage.action, { ...column.options, form: postedForm(html, "save") });
    expect(await flashOf(again)).toBe("2 values saved.");
    expect(await column.map()).toEqual([
      { sourceValue: "G1", targetValue: "One" },
      { sourceValue: "G2", targetValue: "Zwei" },
      { sourceValue: "G3", targetValue: "Trois" },
    ]);
  });

  it("names the values typed whose rows moved to another page meanwhile", async () => {
    const values = [...Array.from({ length: 9 }, (_, i) => ({ sourceValue: `G0${i + 1}`, targetValue: null })), { sourceValue: "G10", targetValue: "X" }];
    const column = await mappedColumn([...values, { sourceValue: "G11", targetValue: "Y" }]);
    const url = `${column.url}&pageSize=10`;
    const stale = (await call(ANALYST, url, columnPage.loader, column.options)) as { page: { items: Entry[]; column: { version: number } } };
    expect(stale.page.items.at(-1)?.sourceValue).toBe("G10");
    // Another tab unmaps G11: unmapped values come first, so G10 moves to the second page.
    const { mappingProjectId } = column.options.params;
    await api(ANALYST, "POST", `${API}/${mappingProjectId}/mapping-columns/${column.columnId}/values`, {
      version: stale.page.column.version,
      values: [{ sourceValue: "G11", targetValue: null }],
    });

    const form = postedForm(renderPage(stale), "save", { "target-9": "Ten" });
    const refused = unwrap(await call(ANALYST, url, columnPage.action, { ...column.options, form }));
    expect(refused?.status).toBe(409);
    const html = renderPage(await call(ANALYST, url, columnPage.loader, column.options), refused?.data);
    expect(html).toContain("Not on this page any more: what you typed for &quot;G10&quot;; search for it to type it again.</div>");
    expect(targetsIn(html).map((t) => t.box)).not.toContain("Ten");
  });
});

describe("a column's value map a page at a time", () => {
  it("offers the page sizes every list offers in its 'Find values' form, 50 by default, and its page links keep the size and the search", async () => {
    const column = await mappedColumn(Array.from({ length: 11 }, (_, i) => ({ sourceValue: `V${String(i + 1).padStart(2, "0")}`, targetValue: null })));
    const load = async (query: string) =>
      (await call(ANALYST, `${column.url}${query}`, columnPage.loader, column.options)) as { page: { items: Entry[]; pageSize: number } };
    expect((await load("")).page.pageSize).toBe(50);
    expect((await load("&pageSize=7")).page.pageSize).toBe(50);
    const second = await load("&search=V&pageSize=10&page=2");
    expect(second.page.items.map((v) => v.sourceValue)).toEqual(["V11"]);
    const html = decode(renderPage(second));
    expect(pageSizeChoice(html, "Find values", "value-page-size")).toEqual({
      labelled: true,
      sizes: ["10*", "25", "50", "100"],
      sent: [
        ["companyId", acme.id],
        ["search", "V"],
        ["unmapped", "true"],
        ["pageSize", "(chosen)"],
      ],
    });
    expect(previousHref(html)?.split("?")[1]).toBe(`companyId=${acme.id}&search=V&pageSize=10`);
  });

  it("searches with the first 200 characters of a longer search (a pasted value), not an error page, and its box takes no more", async () => {
    const long = `V0${"x".repeat(298)}`;
    const column = await mappedColumn([
      { sourceValue: long, targetValue: null },
      { sourceValue: "V01", targetValue: null },
    ]);
    const loaded = (await call(ANALYST, `${column.url}&search=${long}`, columnPage.loader, column.options)) as { page: { items: Entry[] } };
    expect(loaded.page.items.map((v) => v.sourceValue)).toEqual([long]);
    const box = /<input id="value-search"[^>]*>/.exec(renderPage(loaded))?.[0];
    expect(box).toContain('maxLength="200"');
    expect(box).toMatch(/ value="V0x{198}"/);
  });

  it("goes back to the page, search and page size the user was on after Save values", async () => {
    const column = await mappedColumn(Array.from({ length: 11 }, (_, i) => ({ sourceValue: `V${String(i + 1).padStart(2, "0")}`, targetValue: null })));
    const url = `${column.url}&search=V&pageSize=10&page=2`;
    const loaded = await call(ANALYST, url, columnPage.loader, column.options);
    const saved = await call(ANALYST, url, columnPage.action, { ...column.options, form: postedForm(renderPage(loaded), "save", { "target-0": "Eleven" }) });
    expect(await flashOf(saved)).toBe("1 value saved.");
    const back = new URL((saved as Response).headers.get("Location")!, "http://portal");
    expect(Object.fromEntries(back.searchParams)).toEqual({ companyId: acme.id, search: "V", page: "2", pageSize: "10" });
    expect(await column.map()).toContainEqual({ sourceValue: "V11", targetValue: "Eleven" });
  });
});

describe("a column's value map of another project or company", () => {
  it("answers 404 to a save posted to its column's URL under this project, even with nothing changed, and changes nothing", async () => {
    const mine = await mappedColumn([{ sourceValue: "G1", targetValue: null }]);
    const otherProject = await mappedColumn([{ sourceValue: "G1", targetValue: null }]);
    const otherCompany = await mappedGrade("super@demo.test", birch.id, [{ sourceValue: "G1", targetValue: null }]);
    const loaded = await call(ANALYST, mine.url, columnPage.loader, mine.options);
    for (const columnId of [otherProject.columnId, otherCompany.columnId]) {
      const url = mine.url.replace(mine.columnId, columnId);
      const options = { ...mine.options, params: { ...mine.options.params, columnId } };
      // The form of this project's page, untouched ("No value was changed." skipped the guard), and with a target typed.
      for (const form of [postedForm(renderPage(loaded), "save"), postedForm(renderPage(loaded), "save", { "target-0": "P1" })]) {
        const answer = await call(ANALYST, url, columnPage.action, { ...options, form }).catch((thrown: unknown) => thrown);
        expect(answer).toMatchObject({ init: { status: 404 } });
      }
    }
    expect(await otherProject.map()).toEqual([{ sourceValue: "G1", targetValue: null }]);
    // A column of this project under another of its tables' URLs is not that page's either.
    const table = await api(ANALYST, "POST", `${API}/${mine.options.params.mappingProjectId}/data-dictionary/tables`, {
      version: (await api(ANALYST, "GET", `${API}/${mine.options.params.mappingProjectId}/data-dictionary`)).version,
      name: "others",
      description: null,
      columns: [{ name: "code", type: "nvarchar", length: 20, nullable: true, isKey: false }],
    });
    const elsewhere = { ...mine.options, params: { ...mine.options.params, mappingSourceTableId: table.table.id } };
    const answer = await call(ANALYST, mine.url.replace(mine.options.params.mappingSourceTableId, table.table.id), columnPage.action, {
      ...elsewhere,
      form: postedForm(renderPage(loaded), "save"),
    }).catch((thrown: unknown) => thrown);
    expect(answer).toMatchObject({ init: { status: 404 } });
  });
});

describe("a column's value map under another table's URL of the same project", () => {
  it("answers 404 to a save with changes, an Add, an import and an import's Apply or Discard, and changes nothing", async () => {
    const mine = await mappedColumn([{ sourceValue: "G1", targetValue: null }]);
    const { mappingProjectId, mappingSourceTableId } = mine.options.params;
    const columnApi = `${API}/${mappingProjectId}/mapping-columns/${mine.columnId}`;
    const other = await api(ANALYST, "POST", `${API}/${mappingProjectId}/data-dictionary/tables`, {
      version: (await api(ANALYST, "GET", `${API}/${mappingProjectId}/data-dictionary`)).version,
      name: "others",
      description: null,
      columns: [{ name: "code", type: "nvarchar", length: 20, nullable: true, isKey: false }],
    });
    const csv = (text: string) => {
      const file = new FormData();
      file.append("file", new File([text], "map.csv", { type: "text/csv" }));
      return file;
    };
    // Each post as the map is when it is sent, so that each would be applied under its own table's URL.
    const mapVersion = async () => String((await api(ANALYST, "GET", `${API}/${mappingProjectId}/mapping-tables/${mappingSourceTableId}`)).columns[0].version);
    const staged = async () => (await api(ANALYST, "POST", `${columnApi}/imports`, csv("source_value,target_value\nG1,Staged\n"))).id as string;
    const posts: (() => Promise<Record<string, string> | [string, string][] | FormData>)[] = [
      async () => postedForm(renderPage(await call(ANALYST, mine.url, columnPage.loader, mine.options)), "save", { "target-0": "P1" }),
      async () => ({ intent: "add", formKey: "add", version: await mapVersion(), sourceValue: "G9", targetValue: "P9" }),
      async () => csv("source_value,target_value\nG1,Imported\nG2,Two\n"),
      async () => ({ intent: "apply", importId: await staged(), version: await mapVersion() }),
      async () => ({ intent: "discard", importId: await staged() }),
    ];
    // This project's column posted under its other table's URL: not that page's column.
    const url = mine.url.replace(mappingSourceTableId, other.table.id);
    const options = { ...mine.options, params: { ...mine.options.params, mappingSourceTableId: other.table.id } };
    for (const post of posts) {
      const form = await post();
      const answer = await call(ANALYST, url, columnPage.action, { ...options, form }).catch((thrown: unknown) => thrown);
      expect(answer).toMatchObject({ init: { status: 404 } });
    }
    expect(await mine.map()).toEqual([{ sourceValue: "G1", targetValue: null }]);
    expect(await mapVersion()).toBe("2");
  });

  it("answers 404 to a column's Translate settings saved from another table's page, saving nothing", async () => {
    const mine = await mappedColumn([{ sourceValue: "G1", targetValue: null }]);
    const { mappingProjectId, mappingSourceTableId } = mine.options.params;
    const other = await api(ANALYST, "POST", `${API}/${mappingProjectId}/data-dictionary/tables`, {
      version: (await api(ANALYST, "GET", `${API}/${mappingProjectId}/data-dictionary`)).version,
      name: "others",
      description: null,
      columns: [{ name: "code", type: "nvarchar", length: 20, nullable: true, isKey: false }],
    });
    const settingsOf = async () => (await api(ANALYST, "GET", `${API}/${mappingProjectId}/mapping-tables/${mappingSourceTableId}`)).columns[0];
    const before = await settingsOf();
    // grade's row, as its own table's page sends it, posted to the other table's page.
    const form = { intent: "settings", columnId: mine.columnId, version: String(before.version), translate: "false", unmappedRule: "Keep", defaultValue: "" };
    const options = { ...mine.options, params: { ...mine.options.params, mappingSourceTableId: other.table.id } };
    const refused = unwrap(await call(ANALYST, mine.tableUrl.replace(mappingSourceTableId, other.table.id), tablePage.action, { ...options, form }));
    expect(refused?.status).toBe(404);
    expect(refused?.data.settings.errors).toEqual(["Column not found."]);
    expect(await settingsOf()).toMatchObject({ translate: true, version: before.version });
  });
});

/**
 * The data API's value map calls (a column's or a table's) that `run` makes, as "METHOD /mapping-…?query": the
 * guard's calls (the project, its access) are not among them.
 */
async function valueMapCalls(run: () => Promise<unknown>) {
  const sent = vi.spyOn(globalThis, "fetch");
  try {
    const answer = await run();
    const calls = sent.mock.calls
      .map(([input, init]) => ({ url: new URL(input instanceof Request ? input.url : String(input)), method: init?.method ?? "GET" }))
      .map(({ url, method }) => ({ url, method, at: url.pathname.search(/\/mapping-(columns|tables)\//) }))
      .filter(({ at }) => at >= 0)
      .map(({ url, method, at }) => `${method} ${url.pathname.slice(at)}${url.search}`);
    return { answer, calls };
  } finally {
    sent.mockRestore();
  }
}

describe("the value map's writes", () => {
  it("send each write alone to the data API, naming the URL's table, which refuses a column of another: one round trip after the guard", async () => {
    const column = await mappedColumn([{ sourceValue: "G1", targetValue: null }]);
    const { mappingSourceTableId: tableId } = column.options.params;
    const at = `/mapping-columns/${column.columnId}`;
    const ofTable = `?tableId=${tableId}`;
    const post = (form: Record<string, string> | [string, string][] | FormData) =>
      valueMapCalls(() => call(ANALYST, column.url, columnPage.action, { ...column.options, form }));
    const csv = (text: string) => {
      const file = new FormData();
      file.append("file", new File([text], "map.csv", { type: "text/csv" }));
      return file;
    };
    const importOf = (answer: unknown) => new URL((answer as Response).headers.get("Location")!, PORTAL_URL).searchParams.get("import")!;

    const saved = await post(postedForm(renderPage(await call(ANALYST, column.url, columnPage.loader, column.options)), "save", { "target-0": "P1" }));
    expect(await flashOf(saved.answer)).toBe("1 value saved.");
    expect(saved.calls).toEqual([`POST ${at}/values${ofTable}`]);
    const added = await post({ intent: "add", formKey: "add", version: "3", sourceValue: "G2", targetValue: "P2" });
    expect(await flashOf(added.answer)).toBe('Value "G2" added.');
    expect(added.calls).toEqual([`POST ${at}/values/add${ofTable}`]);
    const staged = await post(csv("source_value,target_value\nG1,One\n"));
    expect(isRedirect(staged.answer)).toBe(true);
    expect(staged.calls).toEqual([`POST ${at}/imports${ofTable}`]);
    const applied = await post({ intent: "apply", importId: importOf(staged.answer), version: "4" });
    expect(await flashOf(applied.answer)).toBe("Import applied.");
    expect(applied.calls).toEqual([`POST ${at}/imports/${importOf(staged.answer)}/apply${ofTable}`]);
    const again = await post(csv("source_value,target_value\nG1,Two\n"));
    const discarded = await post({ intent: "discard", importId: importOf(again.answer) });
    expect(await flashOf(discarded.answer)).toBe("Import discarded: the map is as it was.");
    expect(discarded.calls).toEqual([`DELETE ${at}/imports/${importOf(again.answer)}${ofTable}`]);
    expect(await column.map()).toEqual([
      { sourceValue: "G1", targetValue: "One" },
      { sourceValue: "G2", targetValue: "P2" },
    ]);
  });

  it("send a column's Translate settings alone from its table's page, naming the table", async () => {
    const column = await mappedColumn([{ sourceValue: "G1", targetValue: null }]);
    const { mappingSourceTableId: tableId } = column.options.params;
    const form = { intent: "settings", columnId: column.columnId, version: "2", translate: "false", unmappedRule: "Keep", defaultValue: "" };
    const saved = await valueMapCalls(() => call(ANALYST, column.tableUrl, tablePage.action, { ...column.options, form }));
    expect(await flashOf(saved.answer)).toBe("grade is not translated.");
    expect(saved.calls).toEqual([`PUT /mapping-columns/${column.columnId}/settings?tableId=${tableId}`]);
  });
});

describe("the value map's writes posted without the version their page showed (forged or cut short)", () => {
  const INCOMPLETE = "The request was incomplete: reload the page and try again.";
  /** The form as its page sends it, without its version, with an empty one and with "abc". */
  const withoutVersion = (form: [string, string][]) => {
    const rest = form.filter(([name]) => name !== "version");
    return [rest, [...rest, ["version", ""]], [...rest, ["version", "abc"]]] as [string, string][][];
  };

  it("refuses a column's Save on its table's page at the top as incomplete, never as a change in another tab; nothing saved, the data API not asked", async () => {
    const column = await mappedColumn([{ sourceValue: "G1", targetValue: null }]);
    const html = renderPage(await call(ANALYST, column.tableUrl, tablePage.loader, column.options), undefined, tablePage);
    const row = [...html.matchAll(/<form[^>]*>([\s\S]*?)<\/form>/g)].find((m) => m[1]!.includes('value="settings"'))![0];
    const sent: [string, string][] = [...row.matchAll(/<input[^>]*name="([^"]*)"[^>]*value="([^"]*)"/g)].map(([, name, value]) => [name!, value!]);
    const settings: [string, string][] = [...sent, ["translate", "false"], ["unmappedRule", "Default"], ["defaultValue", "P0"]];
    for (const form of withoutVersion(settings)) {
      const { answer, calls } = await valueMapCalls(() => call(ANALYST, column.tableUrl, tablePage.action, { ...column.options, form }));
      const refused = unwrap(answer);
      expect(refused?.status).toBe(400);
      expect(calls).toEqual([]);
      const page = renderPage(await call(ANALYST, column.tableUrl, tablePage.loader, column.options), refused?.data, tablePage);
      expect(page).toMatch(new RegExp(`<div role="alert"[^>]*>${INCOMPLETE}</div>`));
    }
    const after = (await call(ANALYST, column.tableUrl, tablePage.loader, column.options)) as { table: { columns: { translate: boolean; unmappedRule: string }[] } };
    expect(after.table.columns[0]).toMatchObject({ translate: true, unmappedRule: "Keep" });
    // The form as its page sends it still saves.
    const saved = await call(ANALYST, column.tableUrl, tablePage.action, { ...column.options, form: settings });
    expect(await flashOf(saved)).toBe("grade is not translated.");
  });

  it("refuses a save of the targets and an import's Apply where their refusals are said, keeping what was typed; nothing written, the data API not asked", async () => {
    const column = await mappedColumn([{ sourceValue: "G1", targetValue: null }]);
    const save = postedForm(renderPage(await call(ANALYST, column.url, columnPage.loader, column.options)), "save", { "target-0": "P1" });
    for (const form of withoutVersion(save)) {
      const { answer, calls } = await valueMapCalls(() => call(ANALYST, column.url, columnPage.action, { ...column.options, form }));
      const refused = unwrap(answer);
      expect(refused?.status).toBe(400);
      expect(refused?.data).toEqual({ form: "save", errors: [INCOMPLETE], typed: [{ sourceValue: "G1", typed: "P1", was: "" }] });
      expect(calls).toEqual([]);
    }

    const file = new FormData();
    file.append("file", new File(["source_value,target_value\nG1,One\n"], "map.csv", { type: "text/csv" }));
    const { mappingProjectId } = column.options.params;
    const preview = await api(ANALYST, "POST", `${API}/${mappingProjectId}/mapping-columns/${column.columnId}/imports`, file);
    const previewUrl = `${column.url}&import=${preview.id}`;
    const apply = postedForm(renderPage(await call(ANALYST, previewUrl, columnPage.loader, column.options)), "apply");
    for (const form of withoutVersion(apply)) {
      const { answer, calls } = await valueMapCalls(() => call(ANALYST, previewUrl, columnPage.action, { ...column.options, form }));
      const refused = unwrap(answer);
      expect(refused?.status).toBe(400);
      expect(refused?.data).toEqual({ form: "import", errors: [INCOMPLETE] });
      expect(calls).toEqual([]);
      // Said beside the preview, which is still there to apply.
      const html = renderPage(await call(ANALYST, previewUrl, columnPage.loader, column.options), refused?.data);
      expect(html).toContain("Apply this import");
      expect(html).toContain(INCOMPLETE);
    }
    expect(await column.map()).toEqual([{ sourceValue: "G1", targetValue: null }]);
    // The forms as their pages send them still write.
    expect(await flashOf(await call(ANALYST, previewUrl, columnPage.action, { ...column.options, form: apply }))).toBe("Import applied.");
    expect(await column.map()).toEqual([{ sourceValue: "G1", targetValue: "One" }]);
  });
});

describe("adding a value to a column's map", () => {
  it("refuses a source value the map holds, at the field and naming its target, and adds one with spaces around it as a value of its own", async () => {
    const column = await mappedColumn([{ sourceValue: "Alice", targetValue: "A" }]);
    const add = (sourceValue: string, targetValue: string) =>
      call(ANALYST, column.url, columnPage.action, {
        ...column.options,
        form: { intent: "add", formKey: "add", version: "2", sourceValue, targetValue },
      });

    const refused = unwrap(await add("Alice", "B"));
    expect(refused?.status).toBe(409);
    const message = '"Alice" is already mapped (to A): change it in the list';
    expect(refused?.data.result.error).toEqual({ sourceValue: [message] });
    const loaded = await call(ANALYST, column.url, columnPage.loader, column.options);
    const html = renderPage(loaded, refused?.data);
    expect(html).toMatch(/<input[^>]*id="add-value-sourceValue"[^>]*aria-describedby="add-value-sourceValue-error"[^>]*value="Alice"/);
    expect(html).toContain(
      `<ul id="add-value-sourceValue-error" class="mt-1 space-y-0.5 text-sm text-destructive"><li>${message.replaceAll('"', "&quot;")}</li></ul>`,
    );
    // The import's form is not the one refused.
    expect(html).not.toContain("map-import-file-error");
    expect(await column.map()).toEqual([{ sourceValue: "Alice", targetValue: "A" }]);

    const spaced = await add(" Alice ", " S ");
    expect(await flashOf(spaced)).toBe('Value " Alice " added.');
    expect(await column.map()).toEqual([
      { sourceValue: " Alice ", targetValue: "S" },
      { sourceValue: "Alice", targetValue: "A" },
    ]);
  });
});

describe("an import applied in another tab", () => {
  it("refuses its Apply and its Discard in the tab still showing its preview, saying so at the top, where Discard claimed the map was as it was", async () => {
    const column = await mappedColumn([{ sourceValue: "G1", targetValue: null }]);
    const file = new FormData();
    file.append("file", new File(["source_value,target_value\nG1,One\n"], "map.csv", { type: "text/csv" }));
    const { mappingProjectId } = column.options.params;
    const preview = await api(ANALYST, "POST", `${API}/${mappingProjectId}/mapping-columns/${column.columnId}/imports`, file);
    const previewUrl = `${column.url}&import=${preview.id}`;
    const post = (intent: string) =>
      call(ANALYST, previewUrl, columnPage.action, { ...column.options, form: { intent, importId: preview.id, version: String(preview.baseVersion) } });
    expect(await flashOf(await post("apply"))).toBe("Import applied.");

    const message = "This import was applied or discarded already.";
    for (const intent of ["apply", "discard"]) {
      const refused = unwrap(await post(intent));
      expect(refused?.status).toBe(404);
      expect(refused?.data).toEqual({ form: "import", errors: [message] });
      // The page has no preview to show it beside any more: it says it at the top.
      const html = renderPage(await call(ANALYST, previewUrl, columnPage.loader, column.options), refused?.data);
      expect(html).not.toContain("Apply this import");
      expect(html).toMatch(new RegExp(`<div role="alert"[^>]*>${message}</div>`));
    }
    expect(await column.map()).toEqual([{ sourceValue: "G1", targetValue: "One" }]);
  });
});

describe("an import whose staged target its column's type no longer fits", () => {
  it("refuses its Apply (400) with the line and why, said in its preview, which stays to discard; nothing is written", async () => {
    // A map never written (no settings, no value): a type change moves no version its import was based on.
    const application = await api(ANALYST, "POST", "/api/v1/applications", { companyId: acme.id, name: `Grades ${crypto.randomUUID()}`, description: null });
    const project = await api(ANALYST, "POST", API, { companyId: acme.id, name: `Grades ${crypto.randomUUID().slice(0, 8)}`, applicationId: application.id });
    const grade = { name: "grade", type: "nvarchar", length: 20, nullable: true, isKey: false };
    const dictionary = `${API}/${project.id}/data-dictionary`;
    const table = await api(ANALYST, "POST", `${dictionary}/tables`, {
      version: (await api(ANALYST, "GET", dictionary)).version,
      name: "employees",
      description: null,
      columns: [grade],
    });
    const tableId: string = table.table.id;
    const columnId: string = (await api(ANALYST, "GET", `${API}/${project.id}/mapping-tables/${tableId}`)).columns[0].id;
    const file = new FormData();
    file.append("file", new File(["source_value,target_value\nG1,1\nG2,P2\n"], "grades.csv", { type: "text/csv" }));
    const preview = await api(ANALYST, "POST", `${API}/${project.id}/mapping-columns/${columnId}/imports`, file);
    // grade becomes an int once the preview is shown: P2 no longer fits.
    await api(ANALYST, "PATCH", `${dictionary}/tables`, {
      version: (await api(ANALYST, "GET", dictionary)).version,
      tableId,
      name: "employees",
      description: null,
      columns: [{ ...grade, type: "int", length: null }],
    });
    const url = `/translations/mappings/${project.id}/file-data-structure/mappingTable/${tableId}/column/${columnId}?companyId=${acme.id}&import=${preview.id}`;
    const options = { params: { mappingProjectId: project.id, mappingSourceTableId: tableId, columnId }, middleware: workspaceLayout.middleware };
    const loaded = await call(ANALYST, url, columnPage.loader, options);
    const refused = unwrap(await call(ANALYST, url, columnPage.action, { ...options, form: postedForm(renderPage(loaded), "apply") }));
    const message = 'Line 3: The target value "P2" for grade: not a whole number';
    expect(refused).toEqual({ status: 400, data: { form: "import", errors: [message] } });
    // Said in the preview, beside its Apply and Discard, once.
    const html = renderPage(await call(ANALYST, url, columnPage.loader, options), refused?.data);
    const card = /<section[^>]*aria-labelledby="preview-title"[^]*?<\/section>/.exec(html)?.[0] ?? "";
    expect(card).toMatch(new RegExp(`<div role="alert"[^>]*>${message.replaceAll('"', "&quot;")}</div>`));
    expect(card).toContain("Discard");
    expect(html.split("not a whole number")).toHaveLength(2);
    expect((await api(ANALYST, "GET", `${API}/${project.id}/mapping-columns/${columnId}/values`)).total).toBe(0);
  });
});

describe("what the value map pages say", () => {
  it("names the row of a value the data API refuses, not the field's path", async () => {
    const column = await mappedColumn([{ sourceValue: "G1", targetValue: null }]);
    const long = "L".repeat(4_001);
    const refused = unwrap(
      await call(ANALYST, column.url, columnPage.action, {
        ...column.options,
        form: [
          ["intent", "save"],
          ["version", "2"],
          ["source", exactValue(long)],
          ["was", ""],
          ["targetValue", "X"],
        ],
      }),
    );
    expect(refused?.status).toBe(400);
    expect(refused?.data).toEqual({
      form: "save",
      errors: [`The source value "${"L".repeat(60)}…" has more than 4,000 characters`],
      // What was typed goes back into the table.
      typed: [{ sourceValue: long, typed: "X", was: "" }],
      stale: false,
    });
  });

  it("confirms a column's settings with its stored name, whatever name the form sends", async () => {
    const column = await mappedColumn([{ sourceValue: "G1", targetValue: null }]);
    const form = { intent: "settings", columnId: column.columnId, columnName: "Fake", version: "2", unmappedRule: "Keep" };
    const saved = await call(ANALYST, column.tableUrl, tablePage.action, { ...column.options, form });
    expect(await flashOf(saved)).toBe("grade is not translated.");
  });
});

describe("a column's settings saved from a stale page", () => {
  it("says at the top of the table that a column removed meanwhile was not found, where the refusal had no row to show it in", async () => {
    const column = await mappedColumn([{ sourceValue: "G1", targetValue: null }]);
    // An id the table no longer has, as a column removed in another tab.
    const form = { intent: "settings", columnId: crypto.randomUUID(), version: "2", translate: "true", unmappedRule: "Keep", defaultValue: "" };
    const refused = unwrap(await call(ANALYST, column.tableUrl, tablePage.action, { ...column.options, form }));
    expect(refused?.status).toBe(404);
    const html = renderPage(await call(ANALYST, column.tableUrl, tablePage.loader, column.options), refused?.data, tablePage);
    expect(html).toMatch(/<div role="alert"[^>]*>Column not found\.<\/div>/);
  });

  it("refuses a stale save (409) keeping the row's choices, and reads the page again with JavaScript too, so that saving again applies them", async () => {
    const column = await mappedColumn([{ sourceValue: "G1", targetValue: null }]);
    const shown = (await call(ANALYST, column.tableUrl, tablePage.loader, column.options)) as { table: { columns: { version: number }[] } };
    const version = shown.table.columns[0]!.version;
    const form = { intent: "settings", columnId: column.columnId, translate: "true", unmappedRule: "Default", defaultValue: "P0" };
    // Another tab saves the map meanwhile.
    const { mappingProjectId } = column.options.params;
    await api(ANALYST, "POST", `${API}/${mappingProjectId}/mapping-columns/${column.columnId}/values`, {
      version,
      values: [{ sourceValue: "G1", targetValue: "One" }],
    });

    const refused = unwrap(await call(ANALYST, column.tableUrl, tablePage.action, { ...column.options, form: { ...form, version: String(version) } }));
    expect(refused?.status).toBe(409);
    // With JavaScript the page is read again after the refusal, as it is without: the row sends the version it is at now.
    expect(tablePage.shouldRevalidate({ actionStatus: 409, defaultShouldRevalidate: false } as never)).toBe(true);
    const html = renderPage(await call(ANALYST, column.tableUrl, tablePage.loader, column.options), refused?.data, tablePage);
    expect(html).toMatch(/<input[^>]*name="defaultValue"[^>]*value="P0"/);
    expect(html).toContain(`<input type="hidden" name="version" value="${version + 1}"/>`);

    const again = await call(ANALYST, column.tableUrl, tablePage.action, { ...column.options, form: { ...form, version: String(version + 1) } });
    expect(await flashOf(again)).toBe("grade is translated.");
  });
});

describe("the Table select of Translate a file", () => {
  it("offers the first 50 dictionary tables whose name contains the search, found by the data API, and says how many match", async () => {
    const { projectId } = await mappedGrade(ANALYST, acme.id, [{ sourceValue: "G1", targetValue: "P1" }]);
    for (let i = 1; i <= 51; i++) {
      const { version } = await api(ANALYST, "GET", `${API}/${projectId}/data-dictionary`);
      await api(ANALYST, "POST", `${API}/${projectId}/data-dictionary/tables`, {
        version,
        name: `Timesheets${String(i).padStart(2, "0")}`,
        description: null,
        columns: [{ name: "hours", type: "int", nullable: true, isKey: false }],
      });
    }
    const options = { params: { mappingProjectId: projectId }, middleware: workspaceLayout.middleware };
    const load = async (query: string) =>
      (await call(ANALYST, `/translations/mappings/${projectId}/translate?companyId=${acme.id}${query}`, translatePage.loader, options)) as any;

    // 52 tables: the select offers the first 50 in the dictionary's order; the data API answered no more.
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    try {
      const all = await load("");
      expect(all.tables).toMatchObject({ search: "", matching: 52 });
      expect(all.tables.names).toHaveLength(50);
      expect(all.tables.names.slice(0, 2)).toEqual(["employees", "Timesheets01"]);
      const asked = fetchSpy.mock.calls.map(([url]) => new URL(String(url))).find((u) => u.pathname === `${API}/${projectId}/data-dictionary/tables`);
      expect(Object.fromEntries(asked!.searchParams)).toMatchObject({ page: "1", pageSize: "50" });
    } finally {
      fetchSpy.mockRestore();
    }
    // A search (any case) narrows them, and finds those past the first 50.
    expect((await load("&name=SHEETS5")).tables).toEqual({ search: "SHEETS5", names: ["Timesheets50", "Timesheets51"], matching: 2 });
    expect((await load("&name=nothing")).tables).toEqual({ search: "nothing", names: [], matching: 0 });
  });
});

describe("the translations of Translate a file", () => {
  it("lists them newest first a page at a time, the older ones a link away", async () => {
    const { projectId } = await mappedGrade(ANALYST, acme.id, [{ sourceValue: "G1", targetValue: "P1" }]);
    // Eleven translations, each started once the one before is listed (they are listed by when they started).
    for (let i = 1; i <= 11; i++) {
      const form = new FormData();
      form.set("file", new File(["grade\nG1\n"], `file-${String(i).padStart(2, "0")}.csv`, { type: "text/csv" }));
      form.set("table", "employees");
      await api(ANALYST, "POST", `${API}/${projectId}/translations`, form);
      await new Promise((r) => setTimeout(r, 5));
    }
    const options = { params: { mappingProjectId: projectId }, middleware: workspaceLayout.middleware };
    const load = async (query: string) =>
      (await call(ANALYST, `/translations/mappings/${projectId}/translate?companyId=${acme.id}${query}`, translatePage.loader, options)) as any;
    const names = (data: any) => data.translations.items.map((t: { fileName: string }) => t.fileName);

    const first = await load("&pageSize=10&name=emp");
    expect(first.translations).toMatchObject({ total: 11, page: 1, pageSize: 10 });
    expect(names(first)[0]).toBe("file-11.csv");
    expect(names(first)).toHaveLength(10);
    const html = decode(renderPage(first, undefined, translatePage));
    expect(html).toContain("Page 1 of 2 · 11 translations");
    // Next goes to page 2, keeping the page size and the table search.
    const next = new URL(html.match(/<a rel="next"[^>]*href="([^"]*)"/)![1]!, PORTAL_URL).searchParams;
    expect(Object.fromEntries(next)).toEqual({ companyId: acme.id, name: "emp", page: "2", pageSize: "10" });
    // The list's page size is a choice (a GET form, as every list's): the sizes offered, the chosen one selected, the table search kept.
    expect(pageSizeChoice(html, "Translations page size", "translations-page-size")).toEqual({
      labelled: true,
      sizes: ["10*", "25", "50", "100"],
      sent: [
        ["companyId", acme.id],
        ["name", "emp"],
        ["pageSize", "(chosen)"],
      ],
    });
    expect(names(await load("&pageSize=10&page=2"))).toEqual(["file-01.csv"]);
    // A page size not offered falls back to the default (25), which lists them all.
    expect(names(await load("&pageSize=7"))).toHaveLength(11);
  });
});

describe("the wizard's file-data-structure step ended", () => {
  /** Posts the step's Continue for a mapping project with a table, as its page's form sends it. */
  async function complete(projectId: string, form?: Record<string, string>) {
    const { version } = await api(ANALYST, "GET", `${API}/${projectId}`);
    const url = `/translations/mappings/create/${projectId}/file-data-structure?companyId=${acme.id}`;
    const options = { params: { mappingProjectId: projectId }, middleware: wizardLayout.middleware };
    return call(ANALYST, url, structureStep.action, { ...options, form: form ?? { intent: "complete-structure", version: String(version) } });
  }

  it("still assigns a master dictionary once the structure is ended, as the step (open until templates are assigned) offers: never refused as past setup", async () => {
    const waiting = await mappedGrade(ANALYST, acme.id, [{ sourceValue: "G1", targetValue: "P1" }]);
    const { projectId } = waiting;
    await complete(projectId);
    const { applicationId, status } = await api(ANALYST, "GET", `${API}/${projectId}`);
    expect(status).toBe("SetupAssignTemplatesIncomplete");
    const master = await api(ANALYST, "POST", "/api/v1/data-dictionaries", { companyId: acme.id, applicationId, name: "Payroll files", description: null });
    await api(ANALYST, "POST", `/api/v1/data-dictionaries/${master.id}/tables`, {
      version: master.version,
      name: "staff",
      description: null,
      columns: [{ name: "code", type: "int", nullable: true, isKey: false }],
    });
    const url = `/translations/mappings/create/${projectId}/file-data-structure?companyId=${acme.id}`;
    const options = { params: { mappingProjectId: projectId }, middleware: wizardLayout.middleware };
    // The step's page offers the master's Assign at this status.
    const page = (await call(ANALYST, url, structureStep.loader, options)) as { masters: { items: { id: string }[] } };
    expect(page.masters.items.map((d) => d.id)).toContain(master.id);
    const { version } = await api(ANALYST, "GET", `${API}/${projectId}/data-dictionary`);
    const assign = { intent: "assign", dictionaryId: master.id, version: String(version) };
    // The copy replaces employees, whose grade map holds a value: listed to confirm, as before the structure was ended.
    const asked = unwrap(await call(ANALYST, url, structureStep.action, { ...options, form: assign }));
    expect(asked?.status).toBe(409);
    expect(asked?.data.dataLoss).toMatchObject({ valueMaps: true });
    const assigned = await call(ANALYST, url, structureStep.action, { ...options, form: { ...assign, confirmDataLoss: "true" } });
    expect(isRedirect(assigned, url)).toBe(true);
    expect(await flashOf(assigned)).toBe("Data dictionary Payroll files assigned: its tables are copied into the mapping project.");
    const tables = await api(ANALYST, "GET", `${API}/${projectId}/data-dictionary/tables`);
    expect(tables.items.map((t: { name: string }) => t.name)).toEqual(["staff"]);
    expect((await api(ANALYST, "GET", `${API}/${projectId}`)).status).toBe("SetupAssignTemplatesIncomplete");
  });

  it("refuses a Continue posted without the version its page showed (forged or cut short) at the top as incomplete, never as a change in another tab; nothing moves", async () => {
    const waiting = await mappedGrade(ANALYST, acme.id, [{ sourceValue: "G1", targetValue: "P1" }]);
    const before = await api(ANALYST, "GET", `${API}/${waiting.projectId}`);
    const posts: Record<string, string>[] = [{ intent: "complete-structure" }, { intent: "complete-structure", version: "" }, { intent: "complete-structure", version: "abc" }];
    for (const form of posts) {
      const refused = unwrap(await complete(waiting.projectId, form));
      expect(refused?.status).toBe(400);
      expect(refused?.data.createError).toBe("The request was incomplete: reload the page and try again.");
    }
    const after = await api(ANALYST, "GET", `${API}/${waiting.projectId}`);
    expect({ status: after.status, version: after.version }).toEqual({ status: before.status, version: before.version });
    // The form as its page sends it still goes on.
    expect(isRedirect(await complete(waiting.projectId), `/translations/mappings/create/${waiting.projectId}/templates?companyId=${acme.id}`)).toBe(true);
  });

  it("goes on to the templates step, or to the mapping project itself, Active, when it was given a template from its Templates tab before", async () => {
    const waiting = await mappedGrade(ANALYST, acme.id, [{ sourceValue: "G1", targetValue: "P1" }]);
    const toTemplates = await complete(waiting.projectId);
    expect(isRedirect(toTemplates, `/translations/mappings/create/${waiting.projectId}/templates?companyId=${acme.id}`)).toBe(true);
    expect(await flashOf(toTemplates)).toBe("File data structure saved. Next, assign its Mapping templates.");

    const early = await mappedGrade(ANALYST, acme.id, [{ sourceValue: "G1", targetValue: "P1" }]);
    await api(ANALYST, "POST", `${API}/${early.projectId}/templates`, { name: "Made early", type: "Mapping", description: null });
    const done = await complete(early.projectId);
    expect(isRedirect(done, `/translations/mappings/${early.projectId}/details?companyId=${acme.id}`)).toBe(true);
    expect(await flashOf(done)).toBe("File data structure saved. It has its templates already, so the mapping project is Active.");
    expect((await api(ANALYST, "GET", `${API}/${early.projectId}`)).status).toBe("Active");
  });
});
