/**
 * The flat-file load page's upload form as a browser without JavaScript gets it. A text browser (w3m, lynx) ignores
 * formaction and sends the form as soon as a file is chosen: what it sends must be the harmless Preview, never Load.
 */
import { describe, expect, it } from "vitest";
import { renderPage } from "~/test/render-page";
import LoadFlatFile from "./databases-load";
import { LOAD_CHOICES } from "./databases-load.server";

const page = "/migration/projects/p1/databases/flat-file/update-source";

const loaderData = {
  projectId: "p1",
  created: true,
  tables: { search: "", names: ["Customers"], matching: 1 },
  chosenTable: null,
  parameters: null,
  parameterRows: [],
  version: 3,
  uploadType: "SingleFile",
  preview: null,
  previewGone: false,
  widths: null,
  widthsPaged: false,
  choices: LOAD_CHOICES,
};

describe("the load page's upload form", () => {
  it("previews by its own action; only Load's formaction loads", () => {
    const html = renderPage(page, `${page}?companyId=c1`, LoadFlatFile, loaderData);
    const form = /<form[^>]*enctype="multipart\/form-data"[^>]*>/i.exec(html)?.[0] ?? "";
    expect(form).toContain(`action="${page}?companyId=c1&amp;intent=preview"`);
    const button = (name: string) => new RegExp(`<button[^>]*>(?=${name}</button>)`).exec(html)?.[0] ?? "";
    expect(button("Preview")).not.toContain("formAction");
    expect(button("Load")).toContain(`formAction="${page}?companyId=c1"`);
  });
});
