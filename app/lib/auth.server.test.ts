import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { createRemoteJWKSet } from "jose";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_ROLES_CLAIM } from "../../contracts/roles";
import { bearerAuth, KEYS_UNAVAILABLE_MESSAGE } from "../../services/shared/bearer";
import { PORTAL_URL, isRedirect, routeArgs, settle, signIn, signInLoaders, startLiveServices } from "~/test/live-services";

const live = await startLiveServices();
afterAll(() => live.stop());

const { loader: loginLoader } = await import("~/routes/auth/login");
const { loader: callbackLoader } = await import("~/routes/auth/callback");
const { loader: sessionLoader } = await import("~/routes/auth/session");
const { action: logoutAction } = await import("~/routes/auth/logout");
const { loader: rootLoader } = await import("~/root");
const { getAuth, ProviderUnavailableError, requireAuth, TOKEN_EXPIRY_WINDOW_MS } = await import("./auth.server");
const { callService, FORBIDDEN_MESSAGE } = await import("./api.server");
const { getSession, readSessionData, sessionStorage } = await import("./session.server");
const { productInfoSchema } = await import("../../contracts/data-api");

const loaders = await signInLoaders();

const withCookie = (path: string, cookie: string, init: RequestInit = {}) =>
  new Request(`${PORTAL_URL}${path}`, { ...init, headers: { cookie, ...init.headers } });

async function sessionOf(cookie: string) {
  return getSession(withCookie("/", cookie));
}

describe("/login", () => {
  it("sends the browser to the provider with state, PKCE (S256) and the portal's callback", async () => {
    const res = await settle(loginLoader(routeArgs(new Request(`${PORTAL_URL}/login?redirectTo=%2Fmigration%2Fprojects`))));
    expect(isRedirect(res)).toBe(true);
    const location = new URL((res as Response).headers.get("Location")!);
    expect(location.origin).toBe(live.clientPortalUrl);
    expect(location.searchParams.get("response_type")).toBe("code");
    expect(location.searchParams.get("redirect_uri")).toBe(`${PORTAL_URL}/auth/callback`);
    expect(location.searchParams.get("code_challenge_method")).toBe("S256");
    expect(location.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(location.searchParams.get("state")).toBeTruthy();
    // Spec §2: the sign-in page is told where the user came from.
    expect(location.searchParams.get("redirectTo")).toBe("/migration/projects");
    const cookies = (res as Response).headers.getSetCookie().join("\n");
    expect(cookies).toMatch(/dt_oauth2:[^=]+=/);
    expect(cookies).toMatch(/dt_login=/);
  });

  it("sends a signed-in user straight to redirectTo", async () => {
    const { cookie } = await signIn(loaders, "analyst@demo.test");
    const res = await settle(loginLoader(routeArgs(withCookie("/login?redirectTo=%2Fmigration%2Fapplication", cookie))));
    expect(isRedirect(res, "/migration/application")).toBe(true);
  });

  it.each(["%2F..%2F%2Fevil.com%2Fx", "%2F.%2F%2Fevil.com", "%2F%252e%252e%2F%252e%252e%2F%2Fevil.com", "%2F%2E%2E%2F%2Fevil.com"])(
    "never sends a signed-in user to another origin: redirectTo=%s",
    async (redirectTo) => {
      const { cookie } = await signIn(loaders, "analyst@demo.test");
      const res = await settle(loginLoader(routeArgs(withCookie(`/login?redirectTo=${redirectTo}`, cookie))));
      expect(isRedirect(res)).toBe(true);
      const location = (res as Response).headers.get("Location")!;
      expect(location).toBe("/");
      // As a browser reads it: on the portal.
      expect(new URL(location, PORTAL_URL).origin).toBe(PORTAL_URL);
    },
  );
});

describe("/auth/callback", () => {
  it("opens a session holding only an id in the cookie and lands on redirectTo", async () => {
    const { cookie, location } = await signIn(loaders, "analyst@demo.test", { redirectTo: "/migration/projects?companyId=x" });
    expect(location).toBe("/migration/projects?companyId=x");
    const value = /__session=([^;]+)/.exec(cookie)?.[1] ?? "";
    expect(value).not.toBe("");
    expect(decodeURIComponent(value)).not.toMatch(/eyJ/); // no JWT in the cookie
    const session = await sessionOf(cookie);
    expect(session.get("auth")?.name).toBe("Ann Analyst");
    expect(session.get("auth")?.roles).toBe("DataTransformation_Analyst");
  });

  it("passes the page on to the sign-in page, normalised, and then trusts only its own stored value", async () => {
    const { authorizeUrl, location } = await signIn(loaders, "analyst@demo.test", {
      redirectTo: "/migration/application?companyId=x",
      // The provider (or anybody in between) sends the browser back with other ideas.
      tamperCallback: (url) => {
        url.searchParams.set("redirectTo", "https://evil.example/x");
        url.searchParams.append("redirectTo", "/migration/data-dictionary");
      },
    });
    expect(authorizeUrl.searchParams.get("redirectTo")).toBe("/migration/application?companyId=x");
    expect(location).toBe("/migration/application?companyId=x");

    const outside = await signIn(loaders, "analyst@demo.test", { redirectTo: "/..//evil.example/x" });
    expect(outside.authorizeUrl.searchParams.get("redirectTo")).toBe("/");
  });

  it.each(["//evil.example/x", "/..//evil.example/x", "/.//evil.example", "/%2e%2e/%2e%2e//evil.example"])(
    "turns the outside redirectTo %s into /",
    async (redirectTo) => {
      const { location } = await signIn(loaders, "analyst@demo.test", { redirectTo });
      expect(location).toBe("/");
    },
  );

  it("gives a new session id at every sign-in and ends the old one", async () => {
    const first = await signIn(loaders, "analyst@demo.test");
    const firstId = (await sessionOf(first.cookie)).id;
    // The browser still holds the first session's cookie when the second sign-in comes back.
    const second = await signIn(loaders, "super@demo.test", { callbackCookie: first.cookie });
    const secondId = (await sessionOf(second.cookie)).id;
    expect(secondId).not.toBe(firstId);
    expect(await readSessionData(firstId)).toBeNull();
    expect((await sessionOf(second.cookie)).get("auth")?.name).toBe("Sam Super");
  });

  it("answers a replayed code with 400 and a message, and opens no session", async () => {
    const { callbackUrl, jar } = await signIn(loaders, "analyst@demo.test");
    const before = jar.header();
    const replay = await settle(callbackLoader(routeArgs(new Request(callbackUrl, { headers: { cookie: before } }))));
    expect(replay).toMatchObject({ init: { status: 400 }, data: { message: expect.stringMatching(/sign in again/i) } });
  });

  it("answers a forged state with 400", async () => {
    const res = await settle(callbackLoader(routeArgs(new Request(`${PORTAL_URL}/auth/callback?code=abc&state=forged`))));
    expect(res).toMatchObject({ init: { status: 400 }, data: { message: expect.stringMatching(/sign in again/i) } });
  });
});

describe("session", () => {
  it("the session check answers 200 while signed in and 401 once logged out", async () => {
    const { cookie } = await signIn(loaders, "viewer@demo.test");
    const ok = (await sessionLoader(routeArgs(withCookie("/auth/session", cookie)))) as Response;
    expect(ok.status).toBe(200);
    expect(ok.headers.get("Cache-Control")).toBe("no-store");

    const out = (await logoutAction(routeArgs(withCookie("/logout", cookie, { method: "POST" })))) as Response;
    const end = new URL(out.headers.get("Location")!);
    expect(end.origin).toBe(live.clientPortalUrl);
    expect(end.pathname).toBe("/session/end");
    expect(end.searchParams.get("post_logout_redirect_uri")).toBe(`${PORTAL_URL}/`);
    expect(end.searchParams.get("id_token_hint")).toBeTruthy();

    const gone = (await sessionLoader(routeArgs(withCookie("/auth/session", cookie)))) as Response;
    expect(gone.status).toBe(401);
  });

  it("the session check notices a session ended at the provider, asking it at most every 30 s", async () => {
    const { cookie } = await signIn(loaders, "viewer@demo.test");
    const check = async () => ((await sessionLoader(routeArgs(withCookie("/auth/session", cookie)))) as Response).status;
    expect(await check()).toBe(200);

    // The grant ends at the provider (as when the user logs out there): its refresh token is revoked.
    const session = await sessionOf(cookie);
    const { refreshToken } = session.get("auth")!;
    const discovery = (await (await fetch(`${live.clientPortalUrl}/.well-known/openid-configuration`)).json()) as { revocation_endpoint: string };
    const basic = Buffer.from(`data-transformation-portal:${process.env.OIDC_CLIENT_SECRET}`).toString("base64");
    const revoked = await fetch(discovery.revocation_endpoint, {
      method: "POST",
      headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: refreshToken!, token_type_hint: "refresh_token" }),
    });
    expect(revoked.status).toBe(200);

    // Checked a moment ago: not asked again yet.
    expect(await check()).toBe(200);
    // Once the interval has passed, the provider's answer ends the portal session.
    const stored = await sessionOf(cookie);
    stored.set("auth", { ...stored.get("auth")!, providerCheckedAt: Date.now() - 31_000 });
    await sessionStorage.commitSession(stored);
    expect(await check()).toBe(401);
    expect(await readSessionData(session.id)).toBeNull();
  });

  it("the session check gives up on a provider that takes the introspection and never answers, after 5 s, keeping the session", async () => {
    const { cookie } = await signIn(loaders, "viewer@demo.test");
    const session = await sessionOf(cookie);
    // Due for the provider's check; the provider was discovered at the sign-in.
    session.set("auth", { ...session.get("auth")!, providerCheckedAt: Date.now() - 31_000 });
    await sessionStorage.commitSession(session);
    await live.clientPortalOutage("hang");
    try {
      const started = Date.now();
      const check = (await sessionLoader(routeArgs(withCookie("/auth/session", cookie)))) as Response;
      const waited = Date.now() - started;
      // As when the provider cannot be reached: still signed in, not marked as checked (asked again next time).
      expect(check.status).toBe(200);
      expect(waited).toBeGreaterThanOrEqual(4_900);
      expect(waited).toBeLessThan(8_000);
      expect((await readSessionData(session.id))?.auth?.providerCheckedAt).toBeLessThan(started - 30_000);
    } finally {
      await live.clientPortalOutage("up");
    }
  }, 15_000);

  it("requireAuth sends a signed-out visitor to /login with the page to come back to", async () => {
    const res = await settle(requireAuth(new Request(`${PORTAL_URL}/migration/projects?companyId=c1`)));
    expect(isRedirect(res, "/login?redirectTo=%2Fmigration%2Fprojects%3FcompanyId%3Dc1")).toBe(true);
  });

  it("refreshes the access token when it expires within 20 s, once for parallel requests", async () => {
    const { cookie } = await signIn(loaders, "analyst@demo.test");
    const session = await sessionOf(cookie);
    const before = session.get("auth")!;
    session.set("auth", { ...before, accessTokenExpiresAt: Date.now() + TOKEN_EXPIRY_WINDOW_MS - 1000 });
    await sessionStorage.commitSession(session);

    const [a, b] = await Promise.all([getAuth(withCookie("/", cookie)), getAuth(withCookie("/", cookie))]);
    expect(a?.auth.accessToken).not.toBe(before.accessToken);
    expect(b?.auth.accessToken).toBe(a?.auth.accessToken);
    expect(a?.auth.refreshToken).not.toBe(before.refreshToken);
    expect(a!.auth.accessTokenExpiresAt - Date.now()).toBeGreaterThan(TOKEN_EXPIRY_WINDOW_MS);

    // The new token works at the data API; the session stays usable for the next request.
    const info = await callService("data-api", "/api/v1/productInfo", { request: withCookie("/", cookie), authenticated: a! }, { schema: productInfoSchema });
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect((await getAuth(withCookie("/", cookie)))?.auth.accessToken).toBe(a?.auth.accessToken);
  });

  it("ends the session when the refresh is refused", async () => {
    const { cookie } = await signIn(loaders, "analyst@demo.test");
    const session = await sessionOf(cookie);
    session.set("auth", { ...session.get("auth")!, accessTokenExpiresAt: Date.now() - 1, refreshToken: "revoked-or-forged" });
    await sessionStorage.commitSession(session);
    expect(await getAuth(withCookie("/", cookie))).toBeNull();
    expect(await readSessionData(session.id)).toBeNull();
  });
});

describe("the identity provider is down (longer than an access token lives)", () => {
  /** A signed-in user whose access token has expired: the next request must refresh it. */
  async function expiredSession() {
    const { cookie } = await signIn(loaders, "analyst@demo.test");
    const session = await sessionOf(cookie);
    const before = session.get("auth")!;
    session.set("auth", { ...before, accessTokenExpiresAt: Date.now() - 1000 });
    await sessionStorage.commitSession(session);
    return { cookie, id: session.id, before };
  }

  it.each(["refused", "503"] as const)("(%s) keeps the session and answers 503 everywhere, then resumes when it is back", async (mode) => {
    const { cookie, id, before } = await expiredSession();
    await live.clientPortalOutage(mode);
    try {
      // getAuth says why, and the session row is still there.
      const err = await settle(getAuth(withCookie("/", cookie)));
      expect(err).toBeInstanceOf(ProviderUnavailableError);
      expect((err as InstanceType<typeof ProviderUnavailableError>).auth?.name).toBe("Ann Analyst");
      expect((await readSessionData(id))?.auth?.refreshToken).toBe(before.refreshToken);

      // The guard of every signed-in page: the "Sign-in is unavailable" answer, 503, not /login.
      const guarded = await settle(requireAuth(withCookie("/migration/projects?companyId=c1", cookie)));
      expect(guarded).toMatchObject({ init: { status: 503 }, data: { signInUnavailable: true, retry: "/migration/projects?companyId=c1" } });

      // /login does not send the user to a dead host; neither does it for a signed-out visitor.
      const login = await settle(loginLoader(routeArgs(withCookie("/login?redirectTo=%2Fmigration%2Fprojects", cookie))));
      expect(login).toMatchObject({ init: { status: 503 }, data: { retry: "/login?redirectTo=%2Fmigration%2Fprojects" } });
      const anonymous = await settle(loginLoader(routeArgs(new Request(`${PORTAL_URL}/login?redirectTo=%2F`))));
      expect(anonymous).toMatchObject({ init: { status: 503 } });

      // The browser's session check does not log the user out (only a 401 does).
      const check = (await sessionLoader(routeArgs(withCookie("/auth/session", cookie)))) as Response;
      expect(check.status).toBe(503);

      // The header still shows who is signed in; nothing is asked with the expired token.
      const root = await rootLoader(routeArgs(withCookie("/login", cookie)));
      expect(root.user?.name).toBe("Ann Analyst");
      expect(root.version).toBeNull();

      expect(await readSessionData(id)).not.toBeNull();
    } finally {
      await live.clientPortalOutage("up");
    }

    // Back: the next request refreshes and the user carries on.
    const fresh = await requireAuth(withCookie("/migration/projects", cookie));
    expect(fresh.auth.accessToken).not.toBe(before.accessToken);
    expect(fresh.auth.accessTokenExpiresAt).toBeGreaterThan(Date.now() + TOKEN_EXPIRY_WINDOW_MS);
    expect((await sessionLoader(routeArgs(withCookie("/auth/session", cookie))) as Response).status).toBe(200);
  });
});

describe("calling the services (spec §8)", () => {
  it("a 401 from a service ends the session and redirects to /login", async () => {
    const { cookie } = await signIn(loaders, "analyst@demo.test");
    const request = withCookie("/migration/projects?companyId=c", cookie);
    const authenticated = (await getAuth(request))!;
    const forged = { ...authenticated, auth: { ...authenticated.auth, accessToken: "not-a-token" } };
    const res = await settle(callService("data-api", "/api/v1/productInfo", { request, authenticated: forged }, { schema: productInfoSchema }));
    expect(isRedirect(res, "/login?redirectTo=%2Fmigration%2Fprojects%3FcompanyId%3Dc")).toBe(true);
    expect((res as Response).headers.get("Set-Cookie")).toMatch(/__session=;/);
    expect(await readSessionData(authenticated.session.id)).toBeNull();
  });

  it("a 503 from the data API's sign-in check (provider keys unreachable) keeps the session", async () => {
    // A stand-in for the data API whose key set cannot be fetched: nothing listens at its JWKS URL.
    const dataApi = new Hono().use(
      bearerAuth({ getKey: createRemoteJWKSet(new URL("http://127.0.0.1:9/jwks")), issuer: live.clientPortalUrl, audience: "urn:data-transformation:api", rolesClaim: DEFAULT_ROLES_CLAIM }),
    );
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: dataApi.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
    });
    const { env } = await import("./env.server");
    const original = env.DATA_API_URL;
    (env as { DATA_API_URL: string }).DATA_API_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const { cookie } = await signIn(loaders, "analyst@demo.test");
      const request = withCookie("/migration/projects", cookie);
      const authenticated = (await getAuth(request))!;
      const res = await settle(callService("data-api", "/api/v1/productInfo", { request, authenticated }, { schema: productInfoSchema }));
      expect(isRedirect(res)).toBe(false);
      expect(res).toMatchObject({ init: { status: 503 }, data: { errors: [KEYS_UNAVAILABLE_MESSAGE] } });
      expect(await readSessionData(authenticated.session.id)).not.toBeNull();
    } finally {
      (env as { DATA_API_URL: string }).DATA_API_URL = original;
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("a failed load carries the server's error lines; another company's id is a 404", async () => {
    const { cookie } = await signIn(loaders, "analyst@demo.test");
    const request = withCookie("/", cookie);
    const authenticated = (await getAuth(request))!;
    const cedar = "6f1c2a4e-0c1b-4d7e-9a51-3c2f8e1b7a01";
    const res = await settle(
      callService("data-api", `/api/v1/companies/${cedar}/admin-data-sources`, { request, authenticated }, { schema: productInfoSchema }),
    );
    expect(res).toMatchObject({ init: { status: 404 }, data: { errors: ["Company not found."] } });
  });

  it("a 403 without a body says the permission message", async () => {
    const { cookie } = await signIn(loaders, "analyst@demo.test");
    const request = withCookie("/", cookie);
    const authenticated = (await getAuth(request))!;
    // The client portal refuses to show another user's permissions to an analyst.
    const res = await settle(
      callService("client-portal", "/api/v1/permissions/a0000000-0000-4000-8000-000000000001", { request, authenticated }, { schema: productInfoSchema }),
    );
    expect(res).toMatchObject({ init: { status: 403 } });
    const { errors } = (res as { data: { errors: string[] } }).data;
    expect(errors.length).toBeGreaterThan(0);
    expect(FORBIDDEN_MESSAGE).toBe("You don't have permission to access.");
  });

  it("an unreachable service is a 503 with a message, not a crash", async () => {
    const saved = process.env.DATA_API_URL;
    const { env } = await import("./env.server");
    const original = env.DATA_API_URL;
    (env as { DATA_API_URL: string }).DATA_API_URL = "http://127.0.0.1:9";
    try {
      const res = await settle(callService("data-api", "/api/v1/productInfo", null, { schema: productInfoSchema }));
      expect(res).toMatchObject({ init: { status: 503 }, data: { errors: [expect.stringMatching(/not reachable/)] } });
    } finally {
      (env as { DATA_API_URL: string }).DATA_API_URL = original;
      process.env.DATA_API_URL = saved;
    }
  });
});

describe("root loader", () => {
  it("gives the user, the branding and the version in one go", async () => {
    const { cookie } = await signIn(loaders, "analyst@demo.test");
    const data = await rootLoader(routeArgs(withCookie("/", cookie)));
    expect(data.user?.name).toBe("Ann Analyst");
    expect(data.branding.name).toBeTruthy();
    expect(data.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("signed out: branding without a user or version", async () => {
    const data = await rootLoader(routeArgs(new Request(`${PORTAL_URL}/login`)));
    expect(data.user).toBeNull();
    expect(data.version).toBeNull();
    expect(data.branding.name).toBeTruthy();
  });
});
