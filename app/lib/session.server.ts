import crypto from "node:crypto";
import { createCookie, createSessionStorage, type Session } from "react-router";
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
 * Server-side sessions in the portal database (SQLite by default; a PostgreSQL URL gives a store
 * shared by several portal processes). Expired rows are never returned and are swept on write.
 */
export const sessionStorage = createSessionStorage<SessionData>({
  cookie: sessionCookie,
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
