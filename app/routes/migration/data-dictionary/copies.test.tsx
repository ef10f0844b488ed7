/**
 * A master dictionary is copied into each project, configuration or mapping project it is assigned to (DOMAIN.md: "a
 * project gets its own copy, which it may edit"): its edit pages say that a change made there reaches none of those
 * copies, and a project's dictionary pages say which master theirs was copied from and that it changes apart from it.
 */
import { describe, expect, it } from "vitest";
import { renderPage } from "~/test/render-page";
import ProjectDictionaryLayout from "~/routes/workspace/project/data-dictionary/layout";
import DictionaryLayout from "./dictionary-layout";

const COPIES = "Changes here do not reach the projects, configurations or mapping projects already assigned this dictionary: each has its own copy.";
const dictionary = { id: "d1", name: "Ledger", applicationName: "Legacy Billing", tableCount: 2, columnCount: 5, version: 3 };
const master = (mode: "create" | "edit" | "view") =>
  renderPage(`/migration/data-dictionary/${mode}/d1/data-definition`, `/migration/data-dictionary/${mode}/d1/data-definition?companyId=c1`, DictionaryLayout, {
    dictionary,
    mode,
    canWrite: true,
  });

describe("where a master dictionary's copies are said to be apart from it", () => {
  it("the master's edit pages say a change made there reaches no project, configuration or mapping project assigned it", () => {
    expect(master("edit")).toContain(COPIES);
  });

  it("its view and its draft's setup steps do not (nothing is changed there, and a draft was never assigned)", () => {
    expect(master("view")).not.toContain(COPIES);
    expect(master("create")).not.toContain(COPIES);
  });

  it("a project's dictionary pages name the master it was copied from, changed there without touching it", () => {
    const html = renderPage("/migration/projects/p1/data-dictionary", "/migration/projects/p1/data-dictionary?companyId=c1", ProjectDictionaryLayout, {
      projectId: "p1",
      dictionary: { tableCount: 2, columnCount: 5, sourceDictionaryName: "Ledger" },
      canEdit: true,
    });
    expect(html.replace(/<!-- -->/g, "")).toContain("2 tables, 5 columns; copied from the master dictionary Ledger, changed here without touching it.");
  });
});
