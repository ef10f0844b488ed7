import { describe, expect, it } from "vitest";
import { ROLES } from "../../contracts/roles";
import { mayEnterArea, rolesInCompany, type AccessSettings } from "./access";

const aws: AccessSettings = { cloudTarget: "AWS", translationAnalystRole: "FusionPSI_TranslationAnalyst" };
const azure: AccessSettings = { ...aws, cloudTarget: "AZURE" };

describe("mayEnterArea (spec §6)", () => {
  it.each([
    [ROLES.SuperAdmin, ["additionalOptions", "migration", "translations", "onboarding"]],
    [ROLES.Support, ["additionalOptions", "migration", "translations", "onboarding"]],
    [ROLES.Analyst, ["migration", "translations", "onboarding"]],
    [ROLES.ClientAdmin, ["migration"]],
    [ROLES.Viewer, []],
    [ROLES.Manager, []],
    ["FusionPSI_TranslationAnalyst", ["translations"]],
  ] as const)("%s enters exactly %j", (role, areas) => {
    const all = ["additionalOptions", "migration", "translations", "onboarding"] as const;
    expect(all.filter((a) => mayEnterArea(a, [role], aws))).toEqual(areas);
  });

  it("matches roles case-insensitively", () => {
    expect(mayEnterArea("additionalOptions", ["superadmin"], aws)).toBe(true);
    expect(mayEnterArea("migration", ["DATATRANSFORMATION_ANALYST"], aws)).toBe(true);
  });

  it("closes Translations and Onboarding on Azure, even to SuperAdmin", () => {
    expect(mayEnterArea("translations", [ROLES.SuperAdmin], azure)).toBe(false);
    expect(mayEnterArea("onboarding", [ROLES.SuperAdmin], azure)).toBe(false);
    expect(mayEnterArea("migration", [ROLES.SuperAdmin], azure)).toBe(true);
  });
});

describe("rolesInCompany", () => {
  const permissions = [
    { companyId: "birch", productRoleName: ROLES.ClientAdmin },
    { companyId: "cedar", productRoleName: ROLES.Viewer },
  ];

  it("gives a non-admin the role of the selected company", () => {
    expect(rolesInCompany([ROLES.ClientAdmin], permissions, "birch")).toEqual([ROLES.ClientAdmin]);
    expect(rolesInCompany([ROLES.ClientAdmin], permissions, "cedar")).toEqual([ROLES.Viewer]);
    expect(rolesInCompany([ROLES.ClientAdmin], permissions, "acme")).toEqual([]);
  });

  it("keeps admins' identity roles in every company", () => {
    expect(rolesInCompany([ROLES.Support], [], "acme")).toEqual([ROLES.Support]);
  });

  it("takes no SuperAdmin or Support from a permission entry: they are identity roles, as the data API reads them", () => {
    const entries = [
      { companyId: "cedar", productRoleName: "SuperAdmin" },
      { companyId: "acme", productRoleName: "support" },
      { companyId: "birch", productRoleName: ROLES.Analyst },
    ];
    expect(rolesInCompany([ROLES.Manager], entries, "cedar")).toEqual([]);
    expect(rolesInCompany([ROLES.Manager], entries, "acme")).toEqual([]);
    expect(rolesInCompany([ROLES.Manager], entries, "birch")).toEqual([ROLES.Analyst]);
  });

  it("falls back to the identity attribute alone when permissions failed to load", () => {
    expect(rolesInCompany([ROLES.ClientAdmin], null, "cedar")).toEqual([ROLES.ClientAdmin]);
  });
});
