import crypto from "node:crypto";
import { createCookie, createSessionStorage, type Cookie, type Session } from "react-router";
import { portalDb } from "./db.server";
import { env } from "./env.server";
import { dropSessionCache } from "./session-cache.server";

/** What the server keeps for a signed-in user. The cookie holds only the session id. */
export type AuthSession = {
  userId: string;
  name: string;
  /** The identity's role attribute, semicolon-separated as it came. */
  roles: string;
  idToken: string | null;
  accessToken: string;
  /** Epoch milliseconds. */
  accessTokenExpiresAt: number;
  refreshToken: string | null;
  /** Epoch milliseconds of the last time the provider confirmed the grant still lives. */
  providerCheckedAt?: number;
};

export type SessionData = { auth: AuthSession };

/**
 * Over https the cookie is Secure and takes the `__Host-` prefix: the browser then refuses it unless
 * it is Secure, for Path=/ and without a Domain, so no sibling host or plain-http page can plant or
 * overwrite it. Over plain http (`npm start`, the tests) it stays `__session`, not Secure.
 */
export const SESSION_COOKIE_NAME = env.secureCookies ? "__Host-session" : "__session";

export const sessionCookie = createCookie(SESSION_COOKIE_NAME, {
  httpOnly: true,
  sameSite: "lax",
  secure: env.secureCookies,
  path: "/",
  maxAge: env.SESSION_MAX_AGE_SECONDS,
  // The first secret signs; older ones still verify, so secrets can rotate without logging everyone out.
  secrets: env.SESSION_SECRETS,
});

/**
 * The session cookie's signature checked once per process and cookie value, not on every request: a
 * Web Crypto HMAC per page cost about 7 % of the portal's CPU. The same signed text always verifies
 * the same way for the life of the process (its secrets are fixed at start), so a value remembered
 * here is exactly what a fresh check would answer; whether the session still lives is still read
 * from the store every time. Bounded: the oldest value is forgotten first.
 */
const verifiedCookies = new Map<string, unknown>();
const VERIFIED_COOKIES_MAX = 10_000;

const storageCookie: Cookie = {
  get name() {
    return sessionCookie.name;
  },
  get isSigned() {
    return sessionCookie.isSigned;
  },
  get expires() {
    return sessionCookie.expires;
  },
  serialize: (value, options) => sessionCookie.serialize(value, options),
  async parse(cookieHeader, options) {
    const raw = firstCookieValue(cookieHeader, SESSION_COOKIE_NAME);
    if (raw === null) return sessionCookie.parse(cookieHeader, options);
    if (verifiedCookies.has(raw)) return verifiedCookies.get(raw);
    const value: unknown = await sessionCookie.parse(cookieHeader, options);
    // Only a value that verified: a forged one is checked (and refused) every time.
    if (value !== null && value !== undefined && value !== "") {
      verifiedCookies.set(raw, value);
      if (verifiedCookies.size > VERIFIED_COOKIES_MAX) verifiedCookies.delete(verifiedCookies.keys().next().value!);
    }
    return value;
  },
};

/** The raw text of the first cookie called `name` in a Cookie header (as the cookie parser picks it), or null. */
function firstCookieValue(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}

/**
 * Server-side sessions in the portal database (SQLite by default; a PostgreSQL URL gives a store
 * shared by several portal processes). Expired rows are never returned and are swept on write.
 */
export const sessionStorage = createSessionStorage<SessionData>({
  cookie: storageCookie,
  async createData(data, expires) {
    const db = await portalDb();
    const id = crypto.randomBytes(32).toString("base64url");
    await db
      .insertInto("portal_sessions")
      .values({ id, data: JSON.stringify(data), expires_at: expiry(expires) })
      .execute();
    await sweepExpired();
    return id;
  },
  readData: readSessionData,
  async updateData(id, data, expires) {
    const db = await portalDb();
    await db
      .updateTable("portal_sessions")
      .set({ data: JSON.stringify(data), expires_at: expiry(expires) })
      .where("id", "=", id)
      .execute();
  },
  async deleteData(id) {
    // Every way a session ends (logout, a 401, a refused refresh) passes here: its cached shell data goes with it.
    dropSessionCache(id);
    const db = await portalDb();
    await db.deleteFrom("portal_sessions").where("id", "=", id).execute();
  },
});

/** The stored data of a session id, or null when it is gone or expired. */
export async function readSessionData(id: string): Promise<Partial<SessionData> | null> {
  const db = await portalDb();
  const row = await db
    .selectFrom("portal_sessions")
    .select(["data", "expires_at"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row || row.expires_at <= new Date().toISOString()) return null;
  return JSON.parse(row.data) as Partial<SessionData>;
}

function expiry(expires: Date | undefined) {
  return (expires ?? new Date(Date.now() + env.SESSION_MAX_AGE_SECONDS * 1000)).toISOString();
}

async function sweepExpired() {
  const db = await portalDb();
  await db.deleteFrom("portal_sessions").where("expires_at", "<=", new Date().toISOString()).execute();
}

const sessionsByRequest = new WeakMap<Request, Promise<Session<SessionData>>>();

/**
 * The request's session: its cookie verified and its row read once per request, however many
 * middleware, guards and loaders ask (they all get the same Request object from React Router).
 */
export function getSession(request: Request): Promise<Session<SessionData>> {
  let session = sessionsByRequest.get(request);
  if (!session) {
    session = sessionStorage.getSession(request.headers.get("Cookie"));
    sessionsByRequest.set(request, session);
  }
  return session;
}
