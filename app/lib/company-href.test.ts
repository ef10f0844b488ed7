import { describe, expect, it } from "vitest";
import { companyHref } from "./company-href";

describe("companyHref", () => {
  it("adds the company to a path", () => {
    expect(companyHref("/migration/projects", "c1")).toBe("/migration/projects?companyId=c1");
  });
  it("replaces a company already in the path and keeps other parameters", () => {
    expect(companyHref("/x?companyId=old&page=2", "new")).toBe("/x?companyId=new&page=2");
  });
  it("repeats array parameters and drops empty ones", () => {
    expect(companyHref("/x", "c", { status: ["Active", "Inactive"], q: "", page: 3 })).toBe(
      "/x?companyId=c&status=Active&status=Inactive&page=3",
    );
  });
  it("leaves the path alone without a company", () => {
    expect(companyHref("/permission-denied", null)).toBe("/permission-denied");
  });
});
