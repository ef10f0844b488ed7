import { describe, expect, it } from "vitest";
import { MENU } from "~/lib/menu";
import { handle as createDictionary } from "./migration/data-dictionary/create-new";
import { handle as templates } from "./templates/layout";

/** A page's last breadcrumb is the name the sidebar links it by, or its heading: one name per page. */
describe("breadcrumb names", () => {
  const crumb = (pathname: string) => templates.breadcrumb({ pathname } as never);

  it("Master Templates read as in the sidebar, in each area", () => {
    for (const area of ["migration", "translations", "onboarding"]) {
      const path = `/${area}/master-templates`;
      const link = MENU.flatMap((s) => s.items).find((i) => i.path === path);
      expect(crumb(path)).toBe(link?.label);
    }
    expect(crumb("/migration/projects/p1/templates")).toBe("Templates");
  });

  it("the create page of a master data dictionary reads as its heading and its button", () => {
    expect(createDictionary.breadcrumb).toBe("Create data dictionary");
  });
});
