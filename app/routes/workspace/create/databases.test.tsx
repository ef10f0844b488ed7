/**
 * The wizard's databases step rendered as a browser without JavaScript gets it: the settings form, its words
 * from the loader.
 */
import { describe, expect, it } from "vitest";
import { renderPage } from "~/test/render-page";
import DatabasesStep from "./databases";

const path = "/migration/projects/create/p1/databases";
const loaderData = {
  project: { id: "p1", status: "SetupUploadTypeIncomplete", sourceType: "Backup", isLocked: false, uploadType: null, flatFileParameters: null, version: 3 },
  settings: null,
  uploadTypes: [
    { value: "SingleFile", label: "Single file (loader's words)" },
    { value: "MultipleFiles", label: "Multiple files (loader's words)" },
  ],
  job: null,
  startedBy: undefined,
  readAt: 0,
};

describe("the wizard's databases step", () => {
  it("offers the upload types in the words its loader answers: the page's code carries no table of them (issue 8's bar)", () => {
    const html = renderPage(path, path, DatabasesStep, loaderData);
    const select = /<select[^>]*name="uploadType"[^]*?<\/select>/.exec(html)?.[0] ?? "";
    expect([...select.matchAll(/<option[^>]*value="([^"]*)"[^>]*>([^<]*)</g)].map((m) => [m[1], m[2]])).toEqual([
      ["", "Choose an upload type"],
      ["SingleFile", "Single file (loader&#x27;s words)"],
      ["MultipleFiles", "Multiple files (loader&#x27;s words)"],
    ]);
  });

  it("shows the settings in words while the databases are being created, and the form again when a poll finds the creation failed", () => {
    const settings = [["Upload type", "Multiple files (loader's words)"]];
    const creating = renderPage(path, path, DatabasesStep, {
      ...loaderData,
      project: { ...loaderData.project, status: "DatabaseCreation", uploadType: "MultipleFiles" },
      settings,
    });
    expect(creating).toContain("Multiple files (loader&#x27;s words)");
    expect(creating).not.toContain('name="uploadType"');
    // The loader's words are still there from before the creation ended; the page shows the form to retry with.
    const failed = renderPage(path, path, DatabasesStep, {
      ...loaderData,
      project: { ...loaderData.project, status: "DatabaseCreationFailed", uploadType: "MultipleFiles" },
      settings,
    });
    expect(failed).toContain('name="uploadType"');
    expect(failed).toContain(">Retry<");
  });
});
