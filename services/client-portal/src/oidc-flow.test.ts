/**
 * The sign-in round trip the portal makes, over real HTTP against the listening service (SQLite):
 * authorize with PKCE → our sign-in page → code at the redirect URI → tokens → refresh → logout.
 */
import crypto from "node:crypto";
import { Hono } from "hono";
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD, demoUsers } from "../../../scripts/demo-data.ts";
import { bearerAuth } from "../../shared/bearer.ts";
import { createMemorySignInLimiter } from "./rate-limit.ts";
import { seedDemo } from "./seed.ts";
import { CookieJar, createMigratedDatabase, startPortal, type RunningPortal } from "./test-support.ts";

const analyst = demoUsers().find((u) => u.email === "analyst@demo.test")!;
const REDIRECT_URI = "http://localhost:3000/auth/callback";
const POST_LOGOUT_URI = "http://localhost:3000/";

let database: Awaited<ReturnType<typeof createMigratedDatabase>>;
let running: RunningPortal;

beforeAll(async () => {
  database = await createMigratedDatabase("sqlite");
  await seedDemo(database.db, "FusionPSI_TranslationAnalyst");
  // No slow-down here: the throttling has its own tests.
  running = await startPortal(database.db, { signInLimiter: createMemorySignInLimiter({ baseDelayMs: 0 }) });
});

afterAll(async () => {
  await running?.stop();
  await database?.drop();
});

function pkce() {
  const verifier = crypto.randomBytes(32).toString("base64url");
  return { verifier, challenge: crypto.hash("sha256", verifier, "base64url") };
}

function authorizeUrl(params: Record<string, string>) {
  const url = new URL("/auth", running.baseUrl);
  const all = {
    client_id: running.env.PORTAL_CLIENT_ID,
    response_type: "code",
    scope: "openid profile offline_access",
    redirect_uri: REDIRECT_URI,
    state: crypto.randomBytes(8).toString("hex"),
    ...params,
  };
  for (const [k, v] of Object.entries(all)) url.searchParams.set(k, v);
  return url.toString();
}

function absolute(location: string | null) {
  expect(location).toBeTruthy();
  return new URL(location!, running.baseUrl).toString();
}

async function tokenRequest(body: Record<string, string>) {
  const basic = Buffer.from(`${running.env.PORTAL_CLIENT_ID}:${running.env.PORTAL_CLIENT_SECRET}`).toString("base64");
  return fetch(`${running.baseUrl}/token`, {
    method: "POST",
    headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(body),
  });
}

async function postForm(jar: CookieJar, url: string, fields: Record<string, string>) {
  return jar.fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
}

/** Follows the redirect chain from the sign-in POST until it leaves the provider for the portal. */
async function followToPortal(jar: CookieJar, res: Response): Promise<URL> {
  for (let hops = 0; hops < 5; hops++) {
    expect([302, 303]).toContain(res.status);
    const next = new URL(absolute(res.headers.get("location")));
    if (!next.href.startsWith(running.baseUrl)) return next;
    res = await jar.fetch(next.href);
  }
  throw new Error("too many redirects");
}

describe("sign-in round trip (OpenID Connect, authorization code + PKCE)", () => {
  const jar = new CookieJar();
  const { verifier, challenge } = pkce();
  const state = "state-123";
  let tokens: { access_token: string; id_token: string; refresh_token: string; expires_in: number };
  let loginUrl: string;

  it("sends the browser to our sign-in page, which has labelled fields and the branding", async () => {
    const res = await jar.fetch(authorizeUrl({ state, code_challenge: challenge, code_challenge_method: "S256" }));
    expect(res.status).toBe(303);
    loginUrl = absolute(res.headers.get("location"));
    expect(new URL(loginUrl).pathname).toMatch(/^\/interaction\/[\w-]+$/);

    const page = await jar.fetch(loginUrl);
    expect(page.status).toBe(200);
    // Nobody may frame the password form (clickjacking).
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    const body = await page.text();
    expect(body).toContain("<main");
    expect(body).toMatch(/<label for="email">Email<\/label>/);
    expect(body).toMatch(/<label for="password">Password<\/label>/);
    expect(body).toMatch(/<button type="submit">Sign in<\/button>/);
    expect(body).toContain("<h1>Data Hub</h1>");
    expect(body).toMatch(/<svg role="img" aria-label="Data Hub"/);
    // The tab's icon is in the page: no request for /favicon.ico, which this service does not answer.
    expect(body).toMatch(/<link rel="icon" href="data:image\/svg\+xml,%3Csvg%20/);
    expect(body).not.toContain("<script");
  });

  it("refuses a wrong password with 401 and a message that does not say which part was wrong", async () => {
    const res = await postForm(jar, `${loginUrl}/login`, { email: analyst.email, password: "not-the-password" });
    expect(res.status).toBe(401);
    const body = await res.text();
    expect(body).toMatch(/role="alert"[^>]*>Invalid email or password</);
    expect(body).toContain(`value="${analyst.email}"`);

    const unknown = await postForm(jar, `${loginUrl}/login`, { email: "nobody@demo.test", password: DEMO_PASSWORD });
    expect(unknown.status).toBe(401);
    expect(await unknown.text()).toMatch(/role="alert"[^>]*>Invalid email or password</);
  });

  it("signs in with the right password and lands at the portal's redirect URI with a code", async () => {
    const res = await postForm(jar, `${loginUrl}/login`, { email: "Analyst@Demo.Test", password: DEMO_PASSWORD });
    const callback = await followToPortal(jar, res);
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
    expect(callback.searchParams.get("state")).toBe(state);
    expect(callback.searchParams.get("error")).toBeNull();
    const code = callback.searchParams.get("code")!;
    expect(code).toBeTruthy();

    const tokenRes = await tokenRequest({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier });
    expect(tokenRes.status).toBe(200);
    tokens = await tokenRes.json();
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.expires_in).toBe(300);
  });

  it("issues an ID token, signed with the served JWKS, carrying sub, name and the role attribute", async () => {
    const jwks = createRemoteJWKSet(new URL(`${running.baseUrl}/jwks`));
    const { payload } = await jwtVerify(tokens.id_token, jwks, { issuer: running.baseUrl, audience: running.env.PORTAL_CLIENT_ID });
    expect(payload.sub).toBe(analyst.id);
    expect(payload.name).toBe("Ann Analyst");
    expect(payload["custom:roles"]).toBe("DataTransformation_Analyst");
  });

  it("issues a JWT access token for the APIs that the shared bearer check accepts", async () => {
    expect(decodeProtectedHeader(tokens.access_token).alg).toBe("RS256");
    const claims = decodeJwt(tokens.access_token);
    expect(claims.aud).toBe("urn:data-transformation:api");
    expect(claims.exp! - claims.iat!).toBe(300);

    // A stand-in for the data API: bearerAuth against the served JWKS, as Base B runs it.
    const dataApi = new Hono<{ Variables: { caller: { userId: string; name: string | null; roles: string[] } } }>();
    dataApi.use(
      bearerAuth({
        getKey: createRemoteJWKSet(new URL(`${running.baseUrl}/jwks`)),
        issuer: running.baseUrl,
        audience: "urn:data-transformation:api",
        rolesClaim: "custom:roles",
      }),
    );
    dataApi.get("/me", (c) => c.json(c.get("caller")));
    const me = await dataApi.request("/me", { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ userId: analyst.id, name: "Ann Analyst", roles: ["DataTransformation_Analyst"] });

    const permissions = await fetch(`${running.baseUrl}/api/v1/permissions/${analyst.id}`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(permissions.status).toBe(200);
    expect(await permissions.json()).toHaveLength(2);
  });

  it("answers userinfo, as discovery names it, with the same claims for the access token", async () => {
    const discovery = await (await fetch(`${running.baseUrl}/.well-known/openid-configuration`)).json();
    expect(discovery.userinfo_endpoint).toBe(`${running.baseUrl}/me`);
    const res = await fetch(discovery.userinfo_endpoint, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ sub: analyst.id, name: "Ann Analyst", "custom:roles": "DataTransformation_Analyst" });
    expect((await fetch(discovery.userinfo_endpoint)).status).toBe(401);
  });

  it("keeps the sign-in session and the refresh token across a restart", async () => {
    await running.restart();
    const refreshed = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token });
    expect(refreshed.status).toBe(200);
    tokens = { ...tokens, ...(await refreshed.json()) };

    const res = await jar.fetch(authorizeUrl({ code_challenge: pkce().challenge, code_challenge_method: "S256" }));
    const callback = await followToPortal(jar, res);
    expect(callback.searchParams.get("code")).toBeTruthy();
  });

  it("rotates the refresh token on every use and refuses the old one afterwards", async () => {
    const first = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token });
    expect(first.status).toBe(200);
    const rotated = await first.json();
    expect(rotated.refresh_token).toBeTruthy();
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
    expect(decodeJwt(rotated.access_token)["custom:roles"]).toBe("DataTransformation_Analyst");

    const reused = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token });
    expect(reused.status).toBe(400);
    expect((await reused.json()).error).toBe("invalid_grant");
  });

  it("signs the portal in again without the sign-in page while the session lasts (no consent screen)", async () => {
    const again = pkce();
    const res = await jar.fetch(authorizeUrl({ code_challenge: again.challenge, code_challenge_method: "S256" }));
    const callback = await followToPortal(jar, res);
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
    const code = callback.searchParams.get("code")!;
    expect(code).toBeTruthy();

    const exchange = { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: again.verifier };
    expect((await tokenRequest(exchange)).status).toBe(200);
    const replay = await tokenRequest(exchange);
    expect(replay.status).toBe(400);
    expect((await replay.json()).error).toBe("invalid_grant");
  });

  it("refuses plain PKCE and requests without PKCE, back at the redirect URI with an error", async () => {
    const plain = await jar.fetch(authorizeUrl({ code_challenge: "a".repeat(43), code_challenge_method: "plain" }));
    const plainUrl = new URL(absolute(plain.headers.get("location")));
    expect(`${plainUrl.origin}${plainUrl.pathname}`).toBe(REDIRECT_URI);
    expect(plainUrl.searchParams.get("error")).toBe("invalid_request");
    expect(plainUrl.searchParams.get("code")).toBeNull();

    const none = await jar.fetch(authorizeUrl({}));
    const noneUrl = new URL(absolute(none.headers.get("location")));
    expect(noneUrl.searchParams.get("error")).toBe("invalid_request");
    expect(noneUrl.searchParams.get("code")).toBeNull();
  });

  it("logs out: a branded page with a Log out button that works without JavaScript, then back to the portal", async () => {
    const url = new URL(`${running.baseUrl}/session/end`);
    url.searchParams.set("id_token_hint", tokens.id_token);
    url.searchParams.set("post_logout_redirect_uri", POST_LOGOUT_URI);
    const page = await jar.fetch(url.toString());
    expect(page.status).toBe(200);
    const body = await page.text();
    expect(body).toContain("<main");
    expect(body).toMatch(/<button id="logout" type="submit" form="op.logoutForm" name="logout" value="yes">Log out<\/button>/);

    const form = /<form id="op.logoutForm" method="post" action="([^"]+)"><input type="hidden" name="xsrf" value="([^"]+)"/.exec(body);
    expect(form).not.toBeNull();
    const confirm = await postForm(jar, absolute(form![1]!), { xsrf: form![2]!, logout: "yes" });
    expect(confirm.status).toBe(303);
    expect(confirm.headers.get("location")).toBe(POST_LOGOUT_URI);

    // The provider session is gone: the next authorize asks for the password again.
    const { challenge: c2 } = pkce();
    const next = await jar.fetch(authorizeUrl({ code_challenge: c2, code_challenge_method: "S256" }));
    expect(new URL(absolute(next.headers.get("location"))).pathname).toMatch(/^\/interaction\//);
  });
});

describe("sign-in page edge cases", () => {
  it("answers an unknown or expired interaction with a clear 400 page, not a stack trace", async () => {
    const res = await fetch(`${running.baseUrl}/interaction/does-not-exist`);
    expect(res.status).toBe(400);
    const body = await res.text();
    expect(body).toContain("This sign-in page has expired");
    expect(body).not.toMatch(/at .*\.(js|ts):\d+/);

    const post = await fetch(`${running.baseUrl}/interaction/does-not-exist/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "email=a%40b.c&password=x",
    });
    expect(post.status).toBe(400);
  });

  it("renders the provider's own errors as our branded page with the description", async () => {
    const res = await fetch(authorizeUrl({ client_id: "unknown-client" }));
    expect(res.status).toBe(400);
    const body = await res.text();
    expect(body).toContain("<h1>Data Hub</h1>");
    expect(body).toContain("Client is invalid");
    expect(body).not.toMatch(/at .*\.(js|ts):\d+/);
  });

  it("refuses further attempts for an account after 5 failures with 429 and when to try again", async () => {
    const jar = new CookieJar();
    const { challenge } = pkce();
    const res = await jar.fetch(authorizeUrl({ code_challenge: challenge, code_challenge_method: "S256" }));
    const loginUrl = `${absolute(res.headers.get("location"))}/login`;
    const email = "viewer@demo.test";
    for (let i = 0; i < 5; i++) {
      expect((await postForm(jar, loginUrl, { email, password: `wrong-${i}` })).status).toBe(401);
    }
    const refused = await postForm(jar, loginUrl, { email, password: DEMO_PASSWORD });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.text()).toMatch(/role="alert"[^>]*>Too many sign-in attempts\. Try again in 15 minutes\.</);
  });
});
