import { createCookie, data, redirect, type Session } from "react-router";
import { createRemoteJWKSet, decodeJwt, errors as joseErrors, jwtVerify, type JWTPayload } from "jose";
import {
  CodeChallengeMethod,
  OAuth2RequestError,
  OAuth2Strategy,
  UnexpectedErrorResponseBodyError,
  UnexpectedResponseError,
} from "remix-auth-oauth2";
import { z } from "zod";
import { createLogger } from "../../services/shared/logger";
import { env } from "./env.server";
import { loginPath, requestPath, safeRedirect } from "./safe-redirect";
import { getSession, readSessionData, sessionStorage, type AuthSession, type SessionData } from "./session.server";

const log = createLogger("portal.auth");

/** Spec §9: refresh the access token when it expires within this window. */
export const TOKEN_EXPIRY_WINDOW_MS = 20_000;

const STATE_COOKIE = "dt_oauth2";
/** Secure only where the browser talks https to the portal (env.secureCookies), else w3m and co. never send them back. */
const secure = env.secureCookies;

/** Where each pending sign-in (by its OAuth state) should land afterwards. */
const loginCookie = createCookie("dt_login", {
  httpOnly: true,
  sameSite: "lax",
  secure,
  path: "/",
  maxAge: 10 * 60,
  secrets: env.SESSION_SECRETS,
});

const discoverySchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  jwks_uri: z.string(),
  end_session_endpoint: z.string().optional(),
  revocation_endpoint: z.string().optional(),
  introspection_endpoint: z.string().optional(),
});
type Discovery = z.infer<typeof discoverySchema>;

type Provider = {
  discovery: Discovery;
  strategy: PortalStrategy;
  jwks: ReturnType<typeof createRemoteJWKSet>;
};

/**
 * Refreshes without a `scope` parameter: the refreshed tokens keep the scopes of the grant (RFC 6749
 * §6). Sending the requested scopes again fails where the grant holds fewer (`offline_access` is
 * usually not echoed back), which would end every session at the first refresh.
 */
class PortalStrategy extends OAuth2Strategy<AuthSession> {
  refreshKeepingScopes(refreshToken: string) {
    return this.client.refreshAccessToken(this.options.tokenEndpoint.toString(), refreshToken, []);
  }

  /**
   * Spec §2: the sign-in page gets `redirectTo`, the page the user came from (startLogin puts it on
   * the request it passes). Informational for the provider: after the callback the portal trusts
   * only its own stored value (the dt_login cookie, by state), never a parameter.
   */
  protected override authorizationParams(params: URLSearchParams, request: Request): URLSearchParams {
    const next = new URLSearchParams(params);
    const redirectTo = new URL(request.url).searchParams.get("redirectTo");
    if (redirectTo) next.set("redirectTo", safeRedirect(redirectTo));
    return next;
  }
}

let provider: Promise<Provider> | undefined;

/** How long a page waits for the identity provider (discovery, the reachability check, a token refresh, the session check). */
const PROVIDER_TIMEOUT_MS = 5_000;

/**
 * The identity provider cannot be reached (network error, timeout, 5xx): not a verdict on the session,
 * which is kept. `auth` is what the session holds (its access token may have expired), for showing
 * who is signed in; never use its tokens.
 */
export class ProviderUnavailableError extends Error {
  override name = "ProviderUnavailableError";
  constructor(
    readonly auth: AuthSession | null,
    options?: ErrorOptions,
  ) {
    super("The sign-in service is not reachable.", options);
  }
}

export const SIGN_IN_UNAVAILABLE_MESSAGE = "The sign-in service is not reachable right now. Please try again in a moment.";

/** What a page answers while the provider is down: the "Sign-in is unavailable" page, 503, with a way to retry. */
export type SignInUnavailable = { signInUnavailable: true; errors: string[]; retry: string };

export function signInUnavailable(retry: string) {
  return data<SignInUnavailable>({ signInUnavailable: true, errors: [SIGN_IN_UNAVAILABLE_MESSAGE], retry: safeRedirect(retry) }, { status: 503 });
}

/**
 * True when a failed call to the provider says nothing about the grant: the provider was not reached
 * (a network error, a timeout), answered 5xx / 429 / 408, or said `temporarily_unavailable` or
 * `server_error`. A real answer (invalid_grant, invalid_client, a token that does not verify) is false.
 */
export function isProviderOutage(err: unknown): boolean {
  if (err instanceof ProviderUnavailableError || err instanceof joseErrors.JWKSTimeout) return true;
  if (err instanceof UnexpectedResponseError || err instanceof UnexpectedErrorResponseBodyError) {
    return err.status >= 500 || err.status === 429 || err.status === 408;
  }
  if (err instanceof OAuth2RequestError) return err.code === "temporarily_unavailable" || err.code === "server_error";
  // fetch() failing (arctic wraps it as "Failed to send request"; jose's JWKS fetch lets it through).
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e.name === "TimeoutError" || e.name === "AbortError") return true;
    if (e instanceof TypeError && /fetch failed/i.test(e.message)) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EPIPE|UND_ERR_)/.test(code)) return true;
  }
  return false;
}

/** The provider's discovery document, asked quickly; unreachable or not 2xx is a ProviderUnavailableError. */
async function fetchDiscovery(): Promise<Response> {
  const url = `${env.OIDC_ISSUER}/.well-known/openid-configuration`;
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch (err) {
    throw new ProviderUnavailableError(null, { cause: err });
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new ProviderUnavailableError(null, { cause: new Error(`OpenID discovery at ${url} answered ${res.status}`) });
  }
  return res;
}

/** Before sending a browser to the provider: is it up? */
async function checkProviderReachable(): Promise<void> {
  await (await fetchDiscovery()).body?.cancel();
}

/** The identity provider, discovered on first use and cached; a failed discovery is retried next time. */
function getProvider(): Promise<Provider> {
  provider ??= (async () => {
    const discovery = discoverySchema.parse(await (await fetchDiscovery()).json());
    const jwks = createRemoteJWKSet(new URL(discovery.jwks_uri));
    const strategy = new PortalStrategy(
      {
        cookie: { name: STATE_COOKIE, ...(secure ? { secure: true as const } : {}) },
        clientId: env.OIDC_CLIENT_ID,
        clientSecret: env.OIDC_CLIENT_SECRET,
        authorizationEndpoint: discovery.authorization_endpoint,
        tokenEndpoint: discovery.token_endpoint,
        tokenRevocationEndpoint: discovery.revocation_endpoint,
        redirectURI: `${env.PORTAL_URL}/auth/callback`,
        scopes: env.OIDC_SCOPES.split(/\s+/).filter(Boolean),
        codeChallengeMethod: CodeChallengeMethod.S256,
      },
      async ({ tokens }) => authFromTokens(tokens, null, jwks),
    );
    return { discovery, strategy, jwks };
  })().catch((err) => {
    provider = undefined;
    throw err;
  });
  return provider;
}

type Tokens = Awaited<ReturnType<OAuth2Strategy<AuthSession>["refreshToken"]>>;

async function authFromTokens(
  tokens: Tokens,
  previous: AuthSession | null,
  jwks: ReturnType<typeof createRemoteJWKSet>,
): Promise<AuthSession> {
  const accessToken = tokens.accessToken();
  const idToken = "id_token" in tokens.data ? tokens.idToken() : (previous?.idToken ?? null);
  let claims: JWTPayload;
  if ("id_token" in tokens.data) {
    // Received straight from the token endpoint, but verified anyway: issuer, audience, signature, expiry.
    ({ payload: claims } = await jwtVerify(tokens.idToken(), jwks, { issuer: env.OIDC_ISSUER, audience: env.OIDC_CLIENT_ID }));
  } else if (previous) {
    claims = { sub: previous.userId, name: previous.name, [env.ROLES_CLAIM]: previous.roles };
  } else {
    throw new Error("The identity provider returned no ID token.");
  }
  if (typeof claims.sub !== "string") throw new Error("The ID token has no subject.");
  return {
    userId: claims.sub,
    name: typeof claims.name === "string" && claims.name ? claims.name : claims.sub,
    roles: typeof claims[env.ROLES_CLAIM] === "string" ? (claims[env.ROLES_CLAIM] as string) : "",
    idToken,
    accessToken,
    accessTokenExpiresAt: accessTokenExpiry(tokens, accessToken),
    refreshToken: tokens.hasRefreshToken() ? tokens.refreshToken() : (previous?.refreshToken ?? null),
  };
}

function accessTokenExpiry(tokens: Tokens, accessToken: string): number {
  if ("expires_in" in tokens.data) return tokens.accessTokenExpiresAt().getTime();
  try {
    const { exp } = decodeJwt(accessToken);
    if (exp) return exp * 1000;
  } catch {
    // An opaque token without expires_in: assume a short life so that it is refreshed soon.
  }
  return Date.now() + 60_000;
}

/** Sends the browser to the provider's sign-in page, remembering where to come back to. */
export async function startLogin(request: Request, redirectTo: string): Promise<never> {
  const { strategy } = await getProvider();
  // The discovery is cached: make sure the provider is up now, rather than send the browser to a dead host.
  await checkProviderReachable();
  // Only what the strategy needs: no `state` or `code` of the visitor's choosing, and our checked redirectTo.
  const clean = new Request(new URL(`/login?${new URLSearchParams({ redirectTo: safeRedirect(redirectTo) })}`, request.url), {
    headers: request.headers,
  });
  try {
    await strategy.authenticate(clean);
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    const state = new URL(thrown.headers.get("Location") ?? "", env.PORTAL_URL).searchParams.get("state");
    if (state) {
      const pending = await readPendingLogins(request);
      // Keep a few pending sign-ins (several tabs), newest last.
      const entries = Object.entries({ ...pending, [state]: safeRedirect(redirectTo) }).slice(-5);
      thrown.headers.append("Set-Cookie", await loginCookie.serialize(Object.fromEntries(entries)));
    }
    throw thrown;
  }
  throw new Error("The sign-in strategy did not redirect.");
}

async function readPendingLogins(request: Request): Promise<Record<string, string>> {
  const value = await loginCookie.parse(request.headers.get("Cookie"));
  return value && typeof value === "object" ? (value as Record<string, string>) : {};
}

export class SignInError extends Error {
  override name = "SignInError";
}

/**
 * Completes the code + PKCE exchange at /auth/callback and opens a new session (a new id at every
 * sign-in). A tampered or replayed state or code throws SignInError with a reason for the user.
 */
export async function finishLogin(request: Request): Promise<Response> {
  const { strategy } = await getProvider();
  let auth: AuthSession;
  try {
    auth = await strategy.authenticate(request);
  } catch (err) {
    if (err instanceof Response) throw err;
    log.warn("sign-in callback refused", { reason: err instanceof Error ? err.message : String(err) });
    throw new SignInError(callbackErrorMessage(err));
  }
  const state = new URL(request.url).searchParams.get("state") ?? "";
  const pending = await readPendingLogins(request);
  const redirectTo = safeRedirect(pending[state]);
  delete pending[state];

  const previous = await getSession(request);
  if (previous.id) await sessionStorage.destroySession(previous);
  const session = await sessionStorage.getSession(null);
  session.set("auth", auth);

  const headers = new Headers();
  headers.append("Set-Cookie", await sessionStorage.commitSession(session));
  headers.append("Set-Cookie", await loginCookie.serialize(pending));
  for (const name of stateCookieNames(request)) {
    headers.append("Set-Cookie", `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`);
  }
  log.info("signed in", { userId: auth.userId });
  return redirect(redirectTo, { headers });
}

function stateCookieNames(request: Request): string[] {
  const header = request.headers.get("Cookie") ?? "";
  return header
    .split(";")
    .map((part) => part.trim().split("=")[0] ?? "")
    .filter((name) => name.startsWith(`${STATE_COOKIE}:`));
}

function callbackErrorMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : "";
  if (/state/i.test(message)) return "The sign-in request has expired or was not started here. Please sign in again.";
  if (/code/i.test(message) || /invalid_grant/i.test(message)) return "The sign-in code is invalid or was already used. Please sign in again.";
  if (/access_denied/i.test(message)) return "Sign-in was cancelled.";
  return "Sign-in could not be completed. Please sign in again.";
}

export type Authenticated = { session: Session<SessionData>; auth: AuthSession };

/**
 * The signed-in user with a fresh access token, or null. Never redirects. Throws
 * ProviderUnavailableError when the access token needs a refresh and the provider cannot be reached:
 * the session is kept for when it is back.
 */
export function getAuth(request: Request): Promise<Authenticated | null> {
  let found = authByRequest.get(request);
  if (!found) {
    found = readAuth(request);
    authByRequest.set(request, found);
  }
  return found;
}

/** One answer per request: the root loader and the shell's guard ask for the same request. */
const authByRequest = new WeakMap<Request, Promise<Authenticated | null>>();

async function readAuth(request: Request): Promise<Authenticated | null> {
  const session = await getSession(request);
  const auth = session.get("auth");
  if (!session.id || !auth) return null;
  const fresh = await ensureFreshToken(session, auth);
  return fresh ? { session, auth: fresh } : null;
}

/**
 * Guard: the signed-in user, or a redirect to /login with this page as `redirectTo`. While the
 * provider is down and the token needs a refresh: the "Sign-in is unavailable" page (503), session kept.
 */
export async function requireAuth(request: Request): Promise<Authenticated> {
  let found: Authenticated | null;
  try {
    found = await getAuth(request);
  } catch (err) {
    if (err instanceof ProviderUnavailableError) throw signInUnavailable(requestPath(request));
    throw err;
  }
  if (found) return found;
  const session = await getSession(request);
  const headers = session.id ? { "Set-Cookie": await sessionStorage.destroySession(session) } : undefined;
  throw redirect(loginPath(requestPath(request)), { headers });
}

/** Ends the portal session and sends the user to sign in again (a 401 from a service, spec §8). */
export async function endSessionAndSignIn(request: Request, session: Session<SessionData>): Promise<never> {
  throw redirect(loginPath(requestPath(request)), {
    headers: { "Set-Cookie": await sessionStorage.destroySession(session) },
  });
}

const refreshing = new Map<string, Promise<AuthSession | null>>();

async function ensureFreshToken(session: Session<SessionData>, auth: AuthSession): Promise<AuthSession | null> {
  if (auth.accessTokenExpiresAt - Date.now() > TOKEN_EXPIRY_WINDOW_MS) return auth;
  let pending = refreshing.get(session.id);
  if (!pending) {
    pending = refresh(session).finally(() => refreshing.delete(session.id));
    refreshing.set(session.id, pending);
  }
  // A provider that does not answer (packets dropped) must not hold the page: give up waiting after a
  // while. The refresh itself goes on, stores its tokens if it succeeds (a rotated refresh token must
  // not be lost), and later requests join it.
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProviderUnavailableError(auth, { cause: new Error("token refresh timed out") })), PROVIDER_TIMEOUT_MS);
  });
  try {
    const fresh = await Promise.race([pending, gaveUp]);
    if (fresh) session.set("auth", fresh);
    return fresh;
  } finally {
    clearTimeout(timer);
  }
}

async function refresh(session: Session<SessionData>): Promise<AuthSession | null> {
  // Re-read the store: another request may have refreshed already, and refresh tokens rotate,
  // so using the old one again would be refused and would revoke the whole grant.
  const stored = (await readSessionData(session.id))?.auth;
  if (!stored) return null;
  if (stored.accessTokenExpiresAt - Date.now() > TOKEN_EXPIRY_WINDOW_MS) return stored;
  if (!stored.refreshToken) {
    await sessionStorage.destroySession(session);
    return null;
  }
  let idp: Provider;
  try {
    idp = await getProvider();
  } catch (err) {
    // Discovery failed: nothing was asked about this grant.
    log.warn("identity provider unreachable; token refresh postponed, session kept", { userId: stored.userId });
    throw new ProviderUnavailableError(stored, { cause: err });
  }
  let next: AuthSession;
  try {
    const { strategy, jwks } = idp;
    const tokens = await strategy.refreshKeepingScopes(stored.refreshToken);
    next = await authFromTokens(tokens, stored, jwks);
  } catch (err) {
    const reason = err instanceof Error ? `${err.message}${err.cause instanceof Error ? ` (${err.cause.message})` : ""}` : String(err);
    if (isProviderOutage(err)) {
      // Not the provider's verdict: keep the session, the next request tries again.
      log.warn("identity provider unreachable; token refresh postponed, session kept", { userId: stored.userId, reason });
      throw new ProviderUnavailableError(stored, { cause: err });
    }
    log.warn("token refresh refused; ending the session", { userId: stored.userId, reason });
    await sessionStorage.destroySession(session);
    return null;
  }
  session.set("auth", next);
  await sessionStorage.commitSession(session);
  return next;
}

/** How often the session check asks the provider whether the grant still lives. */
export const PROVIDER_CHECK_INTERVAL_MS = 30_000;

/**
 * False when the provider says the session's refresh token is no longer active: the user logged out
 * at the client portal or another application, or the grant was revoked. Asked at most every 30 s
 * per session; an unreachable provider or one without introspection counts as alive (a network
 * glitch must not log anybody out). Ends the portal session when it answers no.
 */
export async function stillSignedInAtProvider(authenticated: Authenticated): Promise<boolean> {
  const { session, auth } = authenticated;
  if (!auth.refreshToken || Date.now() - (auth.providerCheckedAt ?? 0) < PROVIDER_CHECK_INTERVAL_MS) return true;
  let active: boolean | undefined;
  try {
    const { discovery } = await getProvider();
    if (!discovery.introspection_endpoint) return true;
    const res = await fetch(discovery.introspection_endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(env.OIDC_CLIENT_ID)}:${encodeURIComponent(env.OIDC_CLIENT_SECRET)}`).toString("base64")}`,
      },
      body: new URLSearchParams({ token: auth.refreshToken, token_type_hint: "refresh_token" }),
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    });
    if (res.ok) active = ((await res.json()) as { active?: unknown }).active === true;
  } catch (err) {
    log.warn("could not ask the identity provider about the session", { reason: err instanceof Error ? err.message : String(err) });
  }
  if (active === false) {
    log.info("session ended at the identity provider", { userId: auth.userId });
    await sessionStorage.destroySession(session);
    return false;
  }
  if (active) {
    session.set("auth", { ...auth, providerCheckedAt: Date.now() });
    await sessionStorage.commitSession(session);
  }
  return true;
}

/**
 * Logout (a POST): ends the portal session, revokes the refresh token, then ends the session at
 * the provider (RP-initiated logout), which sends the browser back to the portal.
 */
export async function logout(request: Request): Promise<Response> {
  const session = await getSession(request);
  const auth = session.get("auth");
  const headers = { "Set-Cookie": await sessionStorage.destroySession(session) };
  let discovery: Discovery | null = null;
  try {
    const p = await getProvider();
    discovery = p.discovery;
    if (auth?.refreshToken && discovery.revocation_endpoint) await p.strategy.revokeToken(auth.refreshToken).catch(() => undefined);
  } catch (err) {
    log.warn("identity provider unreachable at logout", { reason: err instanceof Error ? err.message : String(err) });
  }
  if (!discovery?.end_session_endpoint) return redirect("/", { headers });
  const endSession = new URL(discovery.end_session_endpoint);
  endSession.searchParams.set("client_id", env.OIDC_CLIENT_ID);
  endSession.searchParams.set("post_logout_redirect_uri", `${env.PORTAL_URL}/`);
  if (auth?.idToken) endSession.searchParams.set("id_token_hint", auth.idToken);
  return redirect(endSession.toString(), { headers });
}

export { requestPath };
