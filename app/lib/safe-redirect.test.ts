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
    "/\u007fevil",
    "",
    null,
    undefined,
  ])("turns %j into /", (input) => {
    expect(safeRedirect(input)).toBe("/");
  });

  // Dot segments normalise into a protocol-relative URL: the value that leaves is what must be checked.
  it.each([
    "/..//evil.com/x",
    "/.//evil.com",
    "/%2e%2e/%2e%2e//evil.com",
    "/a/..//evil.com",
    "/./\\evil.com",
    "/%2E//evil.com",
  ])("turns %j, which normalises to another origin, into /", (input) => {
    expect(safeRedirect(input)).toBe("/");
  });

  it("never answers a protocol-relative or backslash path, whatever the input", () => {
    const pieces = ["/", "//", ".", "..", "%2e", "%2E", "%2e%2e", "\\", "evil.com", "x", "?", "#", "%2f", "%5c"];
    for (const a of pieces) for (const b of pieces) for (const c of pieces) {
      const out = safeRedirect(`/${a}${b}${c}`);
      expect(out.startsWith("/"), out).toBe(true);
      expect(out[1] === "/" || out[1] === "\\", `${a}${b}${c} -> ${out}`).toBe(false);
    }
  });

  it("keeps a path whose dot segments stay on the portal", () => {
    expect(safeRedirect("/migration/../migration/projects?companyId=1")).toBe("/migration/projects?companyId=1");
    expect(safeRedirect("/a/%2F%2Fevil.com")).toBe("/a/%2F%2Fevil.com");
  });

  it("builds the login path with the page to come back to", () => {
    expect(loginPath("/x?y=1")).toBe("/login?redirectTo=%2Fx%3Fy%3D1");
    expect(loginPath("https://evil.example")).toBe("/login?redirectTo=%2F");
  });
});
