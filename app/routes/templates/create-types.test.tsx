/**
 * The Type a new template is given: a mapping project takes Mapping templates only (decision 021), so its
 * own template is offered no other type, and Fusion PSI Configuration's master templates start as Mapping.
 */
import { describe, expect, it } from "vitest";
import { renderPage } from "~/test/render-page";
import CreateTemplate from "./create";

const typeOptions = (html: string) =>
  [...html.match(/<select[^>]*name="type"[^>]*>([^]*?)<\/select>/)![1]!.matchAll(/<option value="([^"]+)"([^>]*)>/g)].map(
    ([, value, rest]) => `${value}${/selected/.test(rest!) ? " (chosen)" : ""}`,
  );

describe("the Type of a new template", () => {
  it("is Mapping only in a mapping project", () => {
    const page = "/translations/mappings/m1/templates/create";
    expect(typeOptions(renderPage(page, page, CreateTemplate, { madeId: crypto.randomUUID() }))).toEqual(["Mapping (chosen)"]);
  });

  it("starts as Mapping among Fusion PSI Configuration's master templates, and as Core in a migration project and among Migrations' ones", () => {
    const show = (page: string) => typeOptions(renderPage(page, page, CreateTemplate, { madeId: crypto.randomUUID() }));
    expect(show("/translations/master-templates/create")).toEqual(["Mapping (chosen)", "Core"]);
    expect(show("/migration/projects/p1/templates/create")).toEqual(["Core (chosen)", "Mapping"]);
    expect(show("/migration/master-templates/create")).toEqual(["Core (chosen)", "Mapping"]);
  });
});
