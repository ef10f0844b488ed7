import { describe, expect, it } from "vitest";
import { loginPath, safeRedirect } from "./safe-redirect";

describe("safeRedirect", () => {
  it.each([
    ["/migration/projects?companyId=1", "/migration/projects?companyId=1"],
    ["/a#b", "/a#b"],
    ["/", "/"],
  ])("keeps the same-origin path %s", (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });

  it.each([
    "https://evil.example/",
    "//evil.example/path",
    "/\\evil.example",
    "javascript:alert(1)",
    "relative/path",
    "/\tevil",
    "",
    null,
    undefined,
  ])("turns %j into /", (input) => {
    expect(safeRedirect(input)).toBe("/");
  });

  it("builds the login path with the page to come back to", () => {
    expect(loginPath("/x?y=1")).toBe("/login?redirectTo=%2Fx%3Fy%3D1");
    expect(loginPath("https://evil.example")).toBe("/login?redirectTo=%2F");
  });
});
