/**
 * The wizard's data dictionary step rendered as a browser without JavaScript gets it: its two lists,
 * the master dictionaries found by name and the project's tables, each paged through the URL.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { tableEditorDefaults } from "~/components/dictionary/table-editor";
import { pageSizeChoice } from "~/test/page-size-form";
import { renderPage } from "~/test/render-page";
import DataDictionaryStep from "./data-dictionary";
import { stepWords } from "./data-dictionary.server";
import { refusedWrite } from "../project/data-dictionary/dictionary.server";

const path = "/migration/projects/create/p1/data-dictionary";
const master = (n: number) => ({
  id: `d${n}`,
  companyId: "c1",
  applicationId: "a1",
  applicationName: "Legacy Billing",
  name: `Ledger ${n}`,
  description: null,
  tableCount: 1,
  columnCount: 1,
  updatedAt: "2026-11-27T10:00:00.000Z",
  version: 1,
});
const loaderData = {
  project: { id: "p1", status: "SetupUploadTypeIncomplete", applicationName: "Legacy Billing", version: 3 },
  createsDatabases: false,
  words: stepWords(false, "project", "Legacy Billing", false, 11),
  dictionary: { id: "pd1", version: 4, sourceDictionaryId: null, sourceDictionaryName: null, tableCount: 11, columnCount: 11, emptyTableCount: 0 },
  tables: { items: [{ id: "t11", name: "Orders11", description: null, order: 11, columnCount: 1 }], page: 2, pageSize: 10, total: 11 },
  masters: { items: [master(11)], page: 2, pageSize: 10, total: 11 },
  search: { masters: { name: "ledger", sort: "name", page: 2, pageSize: 10 }, tables: { page: 2, pageSize: 10 } },
  deleting: null,
  newTable: tableEditorDefaults(null, 4),
};
const html = renderPage(path, `${path}?name=ledger&page=2&pageSize=10&tablesPage=2&tablesPageSize=10`, DataDictionaryStep, loaderData);
/** The links of the navigation named `label`, their &amp; read as &; the company is the shell's, which the stub has not. */
const linksOf = (label: string) => {
  const nav = new RegExp(`<nav aria-label="${label}"[^]*?</nav>`).exec(html)?.[0] ?? "";
  return [...nav.matchAll(/<a [^>]*href="([^"]+)"[^>]*>([^<]+)</g)].map((m) => [m[2], m[1]!.replaceAll("&amp;", "&")]);
};

describe("the wizard's data dictionary step", () => {
  it("pages the master dictionaries found by name, keeping the tables' page", () => {
    expect(html).toContain("Page 2 of 2 · 11 dictionaries");
    expect(html).toContain('aria-label="Assign Ledger 11"');
    expect(linksOf("Pages of master dictionaries")).toEqual([["Previous", `${path}?name=ledger&pageSize=10&tablesPage=2&tablesPageSize=10`]]);
    // A new search starts the dictionaries at page 1 and keeps the tables where they are.
    const search = /<form[^>]*aria-label="Find master dictionaries"[^]*?<\/form>/.exec(html)?.[0] ?? "";
    expect(search).toContain('name="tablesPage" value="2"');
    expect(search).toContain('name="tablesPageSize" value="10"');
    expect(search).toMatch(/<input[^>]*name="name"[^>]*value="ledger"/);
  });

  it("pages the project's tables, keeping the dictionaries' search and page", () => {
    expect(html).toContain("Page 2 of 2 · 11 tables");
    expect(html).toContain("Orders11");
    expect(linksOf("Pages of the project&#x27;s tables")).toEqual([["Previous", `${path}?name=ledger&page=2&pageSize=10&tablesPageSize=10`]]);
  });

  it("chooses the tables' page size in a GET form of its own, which starts them at page 1 and keeps the dictionaries' search and page", () => {
    const choice = pageSizeChoice(html, "Page size of the project&#x27;s tables", "tables-page-size");
    expect(choice).toMatchObject({ labelled: true, sizes: ["10*", "25", "50", "100"] });
    // What the form sends: the dictionaries' search and page as they are, the tables' new size and no tables' page.
    expect(choice.sent).toEqual([
      ["name", "ledger"],
      ["page", "2"],
      ["pageSize", "10"],
      ["tablesPageSize", "(chosen)"],
    ]);
  });

  it("offers a dictionary file's upload, the project's bulk update, beside copying a master and defining tables", () => {
    expect(html).toMatch(/<a [^>]*href="\/migration\/projects\/p1\/data-dictionary\/bulk-update\/upload-data"[^>]*>upload a dictionary file<\/a>/);
    // The loader's two parts of the introduction, around the link.
    const intro = /<p class="mt-4 max-w-3xl[^"]*">([^]*?)<\/p>/
      .exec(html)?.[1]
      ?.replace(/<!-- -->/g, "")
      .replace(/<a [^>]*>/, "<a>");
    expect(intro).toBe(
      "Give the project its own data dictionary: copy a master dictionary of Legacy Billing, <a>upload a dictionary file</a> (one row per column, reviewed before it is applied), or define the tables and columns here. Every table needs at least one column before the databases can be created.",
    );
  });

  it("says a mapping project's introduction whole, with no upload link", () => {
    const mappingPath = "/translations/mappings/create/p1/file-data-structure";
    const intro =
      "Describe the client's files: one table per file, with its columns in the file's order. Copy a master dictionary of Legacy Billing, or define the tables here. Every table needs at least one column.";
    const page = renderPage(mappingPath, mappingPath, DataDictionaryStep, {
      ...loaderData,
      words: stepWords(true, "mapping project", "Legacy Billing", false, 11),
    });
    expect(page).toContain(`<p class="mt-4 max-w-3xl text-sm text-muted-foreground">${intro.replaceAll("'", "&#x27;")}</p>`);
    expect(page).not.toContain(">upload a dictionary file</a>");
  });

  it("shows a sample's refusal in the Describe form with the choices the service echoed, not in Define a table", () => {
    const mappingPath = "/translations/mappings/create/p1/file-data-structure";
    const words = "Use letters, digits and underscores, starting with a letter or underscore";
    const refusal = { result: { status: "error", initialValue: { table: "bad table!", hasHeaderRow: "false" }, error: { table: [words] } } };
    const page = renderPage(mappingPath, mappingPath, DataDictionaryStep, { ...loaderData, words: stepWords(true, "mapping project", "Legacy Billing", false, 11) }, refusal);
    const describeForm = /<form[^>]*id="describe-sample"[^]*?<\/form>/.exec(page)?.[0] ?? "";
    expect(describeForm).toContain(words);
    expect(describeForm).toMatch(/<input[^>]*name="table"[^>]*value="bad table!"/);
    expect(describeForm).toMatch(/<input[^>]*name="hasHeaderRow"[^>]*checked=""/);
    expect(page.split(words)).toHaveLength(2);
  });

  it("offers no Assign for a master dictionary without tables (it would replace the project's tables with none)", () => {
    const empty = { ...master(12), tableCount: 0, columnCount: 0 };
    const page = renderPage(path, path, DataDictionaryStep, { ...loaderData, masters: { ...loaderData.masters, items: [master(11), empty] } });
    expect(page).toContain('aria-label="Assign Ledger 11"');
    expect(page).not.toContain('aria-label="Assign Ledger 12"');
    expect(page).toContain("No tables to copy yet");
  });

  it("says an Assign refused for a dictionary that shows no Assign any more at the top of the list, and one of a row in its row", () => {
    const empty = { ...master(12), tableCount: 0, columnCount: 0 };
    const masters = { ...loaderData.masters, items: [master(11), empty] };
    const refused = (dictionaryId: string | undefined, error: Record<string, string[]>) => ({
      result: { status: "error", initialValue: { intent: "assign", version: "4", ...(dictionaryId ? { dictionaryId } : {}) }, error },
    });
    const alertOf = (page: string) => /<div role="alert"[^>]*>([^<]*)<\/div>/.exec(page)?.[1] ?? null;
    // Its tables were deleted after the page was shown: the row now says "No tables to copy yet", and has no form.
    const noTables =
      "This master dictionary has no tables yet: give it its tables first (Bulk update), or assign another one. The project&#x27;s tables are unchanged.";
    const gone = renderPage(path, path, DataDictionaryStep, { ...loaderData, masters }, refused("d12", { "": [noTables.replace("&#x27;", "'")] }));
    expect(alertOf(gone)).toBe(noTables);
    // A post without its dictionary (forged or cut short).
    const incomplete = renderPage(
      path,
      path,
      DataDictionaryStep,
      { ...loaderData, masters },
      refused(undefined, { "": ["The request was incomplete: reload the page and try again."] }),
    );
    expect(alertOf(incomplete)).toBe("The request was incomplete: reload the page and try again.");
    // A row that still offers Assign shows its own refusal, once, under its button.
    const stale = renderPage(path, path, DataDictionaryStep, { ...loaderData, masters }, refused("d11", { "": ["Changed meanwhile."] }));
    expect(stale.match(/Changed meanwhile\./g)).toHaveLength(1);
    expect(/<form[^>]*id="assign-d11"[^]*?<\/form>/.exec(stale)?.[0]).toContain("Changed meanwhile.");
  });

  it("lists the value maps an Assign over a mapping project's tables would delete at the top, to confirm with the Assign's own fields, and says so in its row", () => {
    const mappingPath = "/translations/mappings/create/p1/file-data-structure";
    const formData = new FormData();
    for (const [name, value] of [["intent", "assign"], ["dictionaryId", "d11"], ["version", "4"]] as const) formData.set(name, value);
    const submission = parseWithZod(formData, { schema: z.object({ intent: z.string(), dictionaryId: z.string(), version: z.string() }) });
    const refusal = data({ code: "value_map_loss", errors: ["This change deletes value maps", "The value map of codes.code: 1 source value, 1 mapped"] }, { status: 409 });
    const answer = refusedWrite(submission, refusal, formData, "assign") as unknown as { data: object };
    const page = renderPage(mappingPath, mappingPath, DataDictionaryStep, { ...loaderData, words: stepWords(true, "mapping project", "Legacy Billing", false, 11) }, answer.data);
    const card = /<section[^>]*aria-labelledby="data-loss-heading"[^]*?<\/section>/.exec(page)?.[0] ?? "";
    const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(text(card)).toContain("This change deletes value maps Nothing has changed yet. Applying it deletes: The value map of codes.code: 1 source value, 1 mapped");
    expect(text(card)).toContain("Apply and delete these value maps Or keep the tables as they are: assign nothing.");
    // The confirmation posts the Assign again, confirmed (a form of its own: without JavaScript too).
    expect([...card.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]])).toEqual([
      ["intent", "assign"],
      ["dictionaryId", "d11"],
      ["version", "4"],
      ["confirmDataLoss", "true"],
    ]);
    expect(/<form[^>]*id="assign-d11"[^]*?<\/form>/.exec(page)?.[0]).toContain(
      "Nothing was saved: this change deletes value maps. Confirm it at the top of the page, or keep the tables as they are.",
    );
  });
});

describe("the step's words, from its loader", () => {
  it("tell a configuration it creates its databases here, and why Continue waits", () => {
    const words = stepWords(false, "configuration", "Legacy Billing", true, 0);
    expect(words.intro[1]).toMatch(/before the databases can be created; then create them here\.$/);
    expect(words.continueWhy).toBe("Assign a dictionary or define a table first.");
    expect(stepWords(false, "project", "Legacy Billing", false, 2).continueWhy).toBe("Every table needs at least one column.");
  });
});

describe("the wizard's data dictionary step of an application with no master dictionary", () => {
  const none = {
    ...loaderData,
    masters: { items: [], page: 1, pageSize: 25, total: 0 },
    search: { ...loaderData.search, masters: { name: "", sort: "name", page: 1, pageSize: 25 } },
  };
  // The loader answers the list of the page's area when the user's role opens it (projects.server.test.ts), else null.
  const page = (path: string, mastersListHref: string | null) => renderPage(path, `${path}?companyId=c1`, DataDictionaryStep, { ...none, mastersListHref });

  it("links a configuration to Data Onboarding's data dictionaries, where it is set up", () => {
    const html = page("/onboarding/configurations/create/p1/data-dictionary", "/onboarding/data-dictionary");
    expect(html).toContain("Legacy Billing has no master data dictionary yet.");
    expect(html).toContain('href="/onboarding/data-dictionary?companyId=c1"');
    expect(html).not.toContain('href="/migration/data-dictionary');
  });

  it("links a project to Migrations' data dictionaries", () => {
    expect(page(path, "/migration/data-dictionary")).toContain('href="/migration/data-dictionary?companyId=c1"');
  });

  it("tells a user whose role does not open the list whom to ask instead", () => {
    const html = page("/translations/mappings/create/p1/file-data-structure", null);
    expect(html).toContain("An analyst can add one under Migrations → Data Dictionary");
    expect(html).not.toContain('href="/migration/data-dictionary');
  });
});
