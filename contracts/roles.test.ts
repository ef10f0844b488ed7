import { describe, expect, it } from "vitest";
import { hasRole, isAdmin, parseRoleAttribute, readableRole } from "./roles";

describe("role attribute (spec §6)", () => {
  it("splits on ';', trims and drops empties", () => {
    expect(parseRoleAttribute(" SuperAdmin ; DataTransformation_Analyst;;")).toEqual(["SuperAdmin", "DataTransformation_Analyst"]);
    expect(parseRoleAttribute(undefined)).toEqual([]);
  });

  it("matches case-insensitively", () => {
    expect(hasRole(["dataTRANSFORMATION_analyst"], "DataTransformation_Analyst")).toBe(true);
    expect(isAdmin(["support"])).toBe(true);
    expect(isAdmin(["DataTransformation_Analyst"])).toBe(false);
  });

  it.each([
    ["DataTransformation_ClientAdmin", "ClientAdmin"],
    ["DataTransformation_Viewer", "Viewer"],
    ["FusionPSI_TranslationAnalyst", "TranslationAnalyst"],
    ["SuperAdmin", "SuperAdmin"],
    ["Support", "Support"],
  ])("reads %s as %s", (role, readable) => {
    expect(readableRole(role)).toBe(readable);
  });
});
