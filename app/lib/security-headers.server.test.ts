import { describe, expect, it } from "vitest";
import { applySecurityHeaders, documentPolicy, logoSource, NON_DOCUMENT_POLICY } from "./security-headers.server";

describe("security headers", () => {
  it("allows the logo's origin only for an http(s) logo", () => {
    expect(logoSource("https://cdn.example/a/logo.png")).toBe("https://cdn.example");
    expect(logoSource("/assets/logo.svg")).toBeNull();
    expect(logoSource("javascript:alert(1)")).toBeNull();
    expect(logoSource(null)).toBeNull();
    expect(documentPolicy("n0nce", { imageSources: ["https://cdn.example", null] })).toMatch(/img-src 'self' data: \S+ https:\/\/cdn\.example;/);
  });

  it("a page's policy: nonce'd scripts, no framing, forms to the portal and the issuer only", () => {
    const policy = documentPolicy("abc123");
    expect(policy).toContain("script-src 'self' 'nonce-abc123'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toMatch(/form-action 'self' http:\/\/\S+;/);
    expect(policy).not.toContain("unsafe-eval");
  });

  it("keeps a page's policy, gives other answers a closed one, and no-store where a session or a redirect is involved", () => {
    const page = new Headers({ "Content-Security-Policy": documentPolicy("x") });
    applySecurityHeaders(page, new Request("http://portal.test/", { headers: { cookie: "dt_sidebar=1; __session=abc" } }));
    expect(page.get("Content-Security-Policy")).toContain("'nonce-x'");
    expect(page.get("Cache-Control")).toBe("no-store");
    expect(page.get("X-Frame-Options")).toBe("DENY");

    const anonymous = new Headers();
    applySecurityHeaders(anonymous, new Request("http://portal.test/healthz", { headers: { cookie: "my__session=1" } }));
    expect(anonymous.get("Content-Security-Policy")).toBe(NON_DOCUMENT_POLICY);
    expect(anonymous.get("Cache-Control")).toBeNull();
    expect(anonymous.get("X-Content-Type-Options")).toBe("nosniff");

    // A redirect without a session (a page's "sign in first") is stored by nobody either.
    const toSignIn = new Headers({ Location: "/login?redirectTo=%2F" });
    applySecurityHeaders(toSignIn, new Request("http://portal.test/migration/projects"));
    expect(toSignIn.get("Cache-Control")).toBe("no-store");
  });
});
