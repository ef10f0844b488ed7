/**
 * The portal's integration tests run against the real reference services, started in-process on
 * loopback ports with fresh SQLite databases and the demo tenant: a real OpenID Connect sign-in,
 * real tokens, real permissions. Call `startLiveServices()` BEFORE importing any portal module:
 * the portal parses its environment once, at import.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { serve } from "@hono/node-server";
import { createRemoteJWKSet } from "jose";
import { RouterContextProvider } from "react-router";
import { DEFAULT_ROLES_CLAIM, DEFAULT_TRANSLATION_ANALYST_ROLE } from "../../contracts/roles";
import { DEMO_PASSWORD } from "../../scripts/demo-data";
import { seedDemo as seedClientPortal } from "../../services/client-portal/src/seed";
import { CookieJar, createMigratedDatabase, startPortal } from "../../services/client-portal/src/test-support";
import { createHttpAdminDataSources } from "../../services/data-api/src/admin-data-sources";
import { createApp } from "../../services/data-api/src/app";
import { createHttpCompanyUsersSource } from "../../services/data-api/src/company-users";
import { createJobRunner } from "../../services/data-api/src/jobs/runner";
import { createTestDataPlane, requestsOf } from "../../services/data-api/src/testing/harness";
import type { FixtureApi } from "../../services/data-api/src/testing/project-fixtures";
import { migrateDatabase } from "../../services/data-api/src/db/migrate";
import type { Database as DataApiDatabase } from "../../services/data-api/src/db/schema";
import { createHttpPermissionsSource } from "../../services/data-api/src/permissions";
import { seedDemo as seedDataApi } from "../../services/data-api/src/seed";
import { readProductVersion } from "../../services/data-api/src/version";
import { createKysely } from "../../services/shared/db";
import { createLogger } from "../../services/shared/logger";

export const PORTAL_URL = "http://portal.test";
const CLIENT_SECRET = crypto.randomBytes(16).toString("hex");
const AUDIENCE = "urn:data-transformation:api";

export type LiveServices = Awaited<ReturnType<typeof startLiveServices>>;

export async function startLiveServices(portalEnv: Record<string, string> = {}) {
  const clientPortalDb = await createMigratedDatabase("sqlite");
  await seedClientPortal(clientPortalDb.db, DEFAULT_TRANSLATION_ANALYST_ROLE);
  const clientPortal = await startPortal(clientPortalDb.db, {
    env: {
      PORTAL_CLIENT_SECRET: CLIENT_SECRET,
      PORTAL_REDIRECT_URIS: `${PORTAL_URL}/auth/callback`,
      PORTAL_POST_LOGOUT_REDIRECT_URIS: `${PORTAL_URL}/`,
      API_AUDIENCE: AUDIENCE,
    },
  });

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dt-portal-it-"));
  const dataApiDb = createKysely<DataApiDatabase>(path.join(dir, "data-api.sqlite"));
  await migrateDatabase(dataApiDb);
  await seedDataApi(dataApiDb);
  const jobs = createJobRunner();
  // Project databases on the test run's throwaway PostgreSQL.
  const dataPlane = createTestDataPlane();
  const dataApiApp = createApp({
    db: dataApiDb,
    logger: createLogger("data-api-it", (process.env.TEST_LOG_LEVEL as "warn" | undefined) ?? "silent"),
    bearer: {
      getKey: createRemoteJWKSet(new URL(`${clientPortal.baseUrl}/jwks`)),
      issuer: clientPortal.baseUrl,
      audience: AUDIENCE,
      rolesClaim: DEFAULT_ROLES_CLAIM,
    },
    permissions: createHttpPermissionsSource({ baseUrl: clientPortal.baseUrl }),
    version: readProductVersion(),
    dataDir: dir,
    dataPlane,
    jobs,
    companyUsers: createHttpCompanyUsersSource({ baseUrl: clientPortal.baseUrl }),
    adminDataSources: createHttpAdminDataSources({ baseUrl: clientPortal.baseUrl }),
    // Uploads answer with their finished review however slow the machine (the 202 path has its own tests).
    uploadWaitMs: 120_000,
  });
  const dataApiServer = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: dataApiApp.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  const dataApiUrl = `http://127.0.0.1:${(dataApiServer.address() as AddressInfo).port}`;

  Object.assign(process.env, {
    NODE_ENV: "test",
    PORTAL_URL,
    OIDC_ISSUER: clientPortal.baseUrl,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
    CLIENT_PORTAL_URL: clientPortal.baseUrl,
    CLIENT_PORTAL_API_URL: clientPortal.baseUrl,
    DATA_API_URL: dataApiUrl,
    SESSION_SECRETS: crypto.randomBytes(16).toString("hex"),
    PORTAL_DATABASE_URL: path.join(dir, "portal.sqlite"),
    ...portalEnv,
  });

  return {
    clientPortalUrl: clientPortal.baseUrl,
    dataApiUrl,
    clientPortalDb: clientPortalDb.db,
    /** The data API's database, to arrange what its API would take long to build (a hundred templates, a backup that failed). */
    dataApiDb,
    /** Takes the client portal (the OIDC issuer) down and back up at the same address. */
    clientPortalOutage: (mode: "refused" | "503" | "hang" | "up") => clientPortal.outage(mode),
    /** The data API's job runner: `jobs.hooks.beforeStep` can hold or fail a job in a test. */
    jobs,
    /** The data API as its own test fixtures call it (project-fixtures.ts, route-sweep.ts's thingsOf), over HTTP with a user's real token. */
    fixtureApi: { db: dataApiDb, jobs, ...requestsOf(readTwice(dataApiUrl)) } satisfies FixtureApi,
    async stop() {
      await jobs.idle();
      dataApiServer.close();
      await dataPlane.closePools();
      await dataApiDb.destroy();
      await clientPortal.stop();
      await clientPortalDb.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * fetch to `baseUrl`, a read sent once more when it fails before any answer: on a busy machine a kept-alive
 * connection the server has just closed fails the next call (ECONNRESET), as the portal's sendReadTwice says.
 */
function readTwice(baseUrl: string) {
  return (url: string, init: RequestInit) =>
    fetch(`${baseUrl}${url}`, init).catch((err: unknown) => {
      if ((init.method ?? "GET") !== "GET") throw err;
      return fetch(`${baseUrl}${url}`, init);
    });
}

/** Arguments for a route's loader, action or middleware, as React Router passes them. */
export function routeArgs(request: Request, params: Record<string, string> = {}) {
  return { request, params, context: new RouterContextProvider(), unstable_pattern: "", unstable_url: new URL(request.url) } as any;
}

/** What a loader returned or threw, as a Response when it was one (redirects are thrown). */
export async function settle(result: unknown): Promise<unknown> {
  try {
    return await result;
  } catch (thrown) {
    return thrown;
  }
}

export function isRedirect(value: unknown, to?: string | RegExp): value is Response {
  if (!(value instanceof Response) || value.status < 300 || value.status >= 400) return false;
  const location = value.headers.get("Location") ?? "";
  if (to === undefined) return true;
  return typeof to === "string" ? location === to : to.test(location);
}

export type Login = (request: Request) => Promise<unknown>;

/** The portal's /login and /auth/callback loaders, as signIn calls them. Only after `startLiveServices()`: the portal reads its environment at import. */
export async function signInLoaders(): Promise<{ login: Login; callback: Login }> {
  const { loader: login } = await import("~/routes/auth/login");
  const { loader: callback } = await import("~/routes/auth/callback");
  return { login: async (request) => login(routeArgs(request)), callback: async (request) => callback(routeArgs(request)) };
}

/** A session cookie per user, each signed in for real once, on first use (only after `startLiveServices()`). */
export function sessionCookies(): (email: string) => Promise<string> {
  const cookies = new Map<string, Promise<string>>();
  const signedIn = async (email: string) => (await signIn(await signInLoaders(), email)).cookie;
  return (email) => {
    if (!cookies.has(email)) cookies.set(email, signedIn(email));
    return cookies.get(email)!;
  };
}

/** Runs `middleware` in order as React Router does (each calls the next), then `handler`: what they returned or threw. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function throughMiddleware<Args>(args: Args, middleware: readonly ((args: Args, next: () => Promise<any>) => unknown)[], handler: () => unknown) {
  const chain = middleware.reduceRight<() => Promise<unknown>>(
    (next, mw) => () => Promise.resolve(mw(args, next)),
    () => Promise.resolve(handler()),
  );
  return settle(chain());
}

/**
 * A real sign-in: the portal's /login loader, the provider's authorize and sign-in page (by HTTP),
 * then the portal's /auth/callback loader. Returns the portal's cookies and where it sent the user.
 */
export async function signIn(
  loaders: { login: Login; callback: Login },
  email: string,
  options: {
    redirectTo?: string;
    password?: string;
    portalJar?: CookieJar;
    callbackCookie?: string;
    /** Changes the callback URL before the portal sees it (a tampered redirect from the provider). */
    tamperCallback?: (url: URL) => void;
  } = {},
) {
  const portalJar = options.portalJar ?? new CookieJar();
  const loginUrl = `${PORTAL_URL}/login?${new URLSearchParams({ redirectTo: options.redirectTo ?? "/" })}`;
  const toProvider = await settle(loaders.login(new Request(loginUrl, { headers: { cookie: portalJar.header() } })));
  if (!isRedirect(toProvider)) throw new Error("/login did not redirect to the provider");
  portalJar.store(toProvider);

  const providerJar = new CookieJar();
  let url = new URL(toProvider.headers.get("Location")!);
  let res = await providerJar.fetch(url.toString());
  ({ res, url } = await follow(providerJar, res, url));
  const html = await res.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error("no sign-in form at the provider");
  const formUrl = new URL(action.replaceAll("&amp;", "&"), url);
  res = await providerJar.fetch(formUrl.toString(), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password: options.password ?? DEMO_PASSWORD }),
  });
  ({ url } = await follow(providerJar, res, formUrl));
  if (!url.toString().startsWith(`${PORTAL_URL}/auth/callback`)) throw new Error(`sign-in of ${email} did not reach the callback (${url})`);

  options.tamperCallback?.(url);
  const cookie = [portalJar.header(), options.callbackCookie].filter(Boolean).join("; ");
  const done = await settle(loaders.callback(new Request(url, { headers: { cookie } })));
  if (!isRedirect(done)) throw new Error("the callback did not redirect");
  portalJar.store(done);
  return {
    jar: portalJar,
    cookie: portalJar.header(),
    location: done.headers.get("Location"),
    callbackUrl: url,
    /** Where /login sent the browser: the provider's authorize URL. */
    authorizeUrl: new URL(toProvider.headers.get("Location")!),
  };
}

/** Follows the provider's redirects until it shows a page or sends the browser to the portal. */
async function follow(jar: CookieJar, res: Response, url: URL) {
  while (res.status >= 300 && res.status < 400) {
    url = new URL(res.headers.get("Location")!, url);
    if (url.toString().startsWith(PORTAL_URL)) break;
    res = await jar.fetch(url.toString());
  }
  return { res, url };
}
