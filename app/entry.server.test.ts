import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../scripts/demo-data";
import { PORTAL_BUILD_TIMEOUT_MS, buildPortal } from "~/test/server-build";
import { PORTAL_URL, signIn, startLiveServices } from "~/test/live-services";

const live = await startLiveServices();
let portal: Awaited<ReturnType<typeof buildPortal>>;
let cookie = "";
const [, acme] = DEMO_COMPANIES;

beforeAll(async () => {
  // A tenant logo on a CDN: the page's img-src must allow it (the portal caches the branding for a minute).
  await live.clientPortalDb.updateTable("branding").set({ logo_url: "https://cdn.example/acme.png" }).execute();
  portal = await buildPortal("entry-server");
  // A real sign-in through the built portal's /login and /auth/callback.
  const viaPortal = (request: Request) => portal.handle(request);
  ({ cookie } = await signIn({ login: viaPortal, callback: viaPortal }, "analyst@demo.test"));
}, PORTAL_BUILD_TIMEOUT_MS);

afterAll(async () => {
  portal?.remove();
  await live.stop();
});

const get = (path: string, headers: Record<string, string> = {}) => portal.handle(new Request(`${PORTAL_URL}${path}`, { headers }));

function policyOf(res: Response): Map<string, string[]> {
  const header = res.headers.get("Content-Security-Policy") ?? "";
  return new Map(
    header
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

function expectCommonHeaders(res: Response) {
  expect(res.headers.get("X-Frame-Options")).toBe("DENY");
  expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
  expect(res.headers.get("Referrer-Policy")).toMatch(/^(same-origin|strict-origin-when-cross-origin)$/);
  expect(policyOf(res).get("frame-ancestors")).toEqual(["'none'"]);
}

describe("security headers of the portal's answers", () => {
  it("a signed-in page: a nonce'd CSP that every inline script carries, no framing, no caching", async () => {
    const res = await get(`/migration/projects?companyId=${acme.id}`, { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/text\/html/);
    expectCommonHeaders(res);
    expect(res.headers.get("Cache-Control")).toBe("no-store");

    const policy = policyOf(res);
    expect(policy.get("default-src")).toEqual(["'self'"]);
    expect(policy.get("base-uri")).toEqual(["'none'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("connect-src")).toEqual(["'self'"]);
    expect(policy.get("form-action")).toEqual(["'self'", live.clientPortalUrl]);
    expect(policy.get("img-src")).toEqual(expect.arrayContaining(["'self'", "data:", live.clientPortalUrl, "https://cdn.example"]));
    const scriptSrc = policy.get("script-src") ?? [];
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    const nonce = /^'nonce-([A-Za-z0-9+/=]{22,})'$/.exec(scriptSrc.find((s) => s.startsWith("'nonce-")) ?? "")?.[1];
    expect(nonce).toBeTruthy();

    const html = await res.text();
    expect(html).toContain("Ann Analyst");
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
    // The hydration context, route modules and scroll restoration: all inline or module scripts.
    expect(scripts.length).toBeGreaterThanOrEqual(2);
    for (const attributes of scripts) {
      const src = /\bsrc="([^"]+)"/.exec(attributes)?.[1];
      if (src) expect(src.startsWith("/")).toBe(true);
      else expect(attributes).toContain(`nonce="${nonce}"`);
    }
  });

  it("a new nonce for every page", async () => {
    const nonces = await Promise.all(
      [1, 2].map(async () => {
        const res = await get(`/migration/projects?companyId=${acme.id}`, { cookie });
        await res.text();
        return policyOf(res).get("script-src")?.find((s) => s.startsWith("'nonce-"));
      }),
    );
    expect(nonces[0]).toBeTruthy();
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it("redirects carry them too (signed out: to /login; /login to the provider)", async () => {
    const toLogin = await get("/migration/projects");
    expect(toLogin.status).toBe(302);
    expect(toLogin.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
    expectCommonHeaders(toLogin);

    const toProvider = await get("/login?redirectTo=%2F");
    expect(toProvider.status).toBe(302);
    expect(toProvider.headers.get("Location")).toMatch(new RegExp(`^${live.clientPortalUrl}/`));
    expectCommonHeaders(toProvider);
    // It sets the sign-in state cookies: one user's answer.
    expect(toProvider.headers.get("Cache-Control")).toBe("no-store");
  });

  it("data requests and resource routes carry them, signed-in ones are never cached", async () => {
    const data = await get(`/migration/projects.data?companyId=${acme.id}`, { cookie });
    expect(data.status).toBe(200);
    expectCommonHeaders(data);
    expect(data.headers.get("Cache-Control")).toBe("no-store");

    const session = await get("/auth/session", { cookie });
    expect(session.status).toBe(200);
    expectCommonHeaders(session);
    expect(session.headers.get("Cache-Control")).toBe("no-store");

    const health = await get("/healthz");
    expect(health.status).toBe(200);
    expectCommonHeaders(health);
  });

  it("a signed-out page (sign-in unavailable, an error page) is not framable either", async () => {
    const res = await get("/auth/callback?code=forged&state=forged");
    expect(res.status).toBe(400);
    expectCommonHeaders(res);
    expect(policyOf(res).get("script-src")?.some((s) => s.startsWith("'nonce-"))).toBe(true);
  });
});

describe("the identity provider down, through the built portal", () => {
  it("a signed-in page whose token expired answers the 503 sign-in-unavailable page, keeps the session, then loads again", async () => {
    const viaPortal = (request: Request) => portal.handle(request);
    const { cookie: mine } = await signIn({ login: viaPortal, callback: viaPortal }, "analyst@demo.test");
    const { getSession, readSessionData, sessionStorage } = await import("~/lib/session.server");
    const session = await getSession(new Request(PORTAL_URL, { headers: { cookie: mine } }));
    session.set("auth", { ...session.get("auth")!, accessTokenExpiresAt: Date.now() - 1000 });
    await sessionStorage.commitSession(session);

    const page = `/migration/projects?companyId=${acme.id}`;
    await live.clientPortalOutage("refused");
    try {
      const res = await get(page, { cookie: mine });
      expect(res.status).toBe(503);
      expectCommonHeaders(res);
      const html = await res.text();
      expect(html).toContain("Sign-in is unavailable");
      expect(html).toContain(`href="${page.replace("&", "&amp;")}"`);
      expect(await readSessionData(session.id)).not.toBeNull();

      // With JavaScript (a data request), the same answer.
      const data = await get(`/migration/projects.data?companyId=${acme.id}`, { cookie: mine });
      expect(data.status).toBe(503);
    } finally {
      await live.clientPortalOutage("up");
    }
    const back = await get(page, { cookie: mine });
    expect(back.status).toBe(200);
    expect(await back.text()).toContain("Ann Analyst");
  });
});
