import type { IncomingMessage, ServerResponse } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import { createLocalJWKSet } from "jose";
import type { Kysely } from "kysely";
import type Provider from "oidc-provider";
import type { BearerOptions } from "../../shared/bearer.ts";
import { installErrorHandlers, requestId } from "../../shared/http.ts";
import { hasNulInAddress, refuseNulCharacters } from "../../shared/nul-characters.ts";
import type { Logger } from "../../shared/logger.ts";
import { apiRoutes } from "./api.ts";
import type { AppEnv } from "./app-env.ts";
import { purgeExpiredOidcPayloads } from "./db/oidc-adapter.ts";
import type { Database } from "./db/schema.ts";
import { loadSigningKeys, toPublicJwks } from "./db/signing-keys.ts";
import type { ClientPortalEnv } from "./env.ts";
import { interactionRoutes } from "./interactions.ts";
import { INTERACTION_PATH, USERINFO_PATH, createProvider } from "./oidc.ts";
import { createMemorySignInLimiter, type SignInLimiter } from "./rate-limit.ts";

export type ClientPortalOptions = {
  env: ClientPortalEnv;
  /** A migrated database (see db/migrations); the caller owns it and closes it. */
  db: Kysely<Database>;
  logger: Logger;
  /** How the API verifies bearer tokens; by default against this provider's own keys, issuer and audience. */
  bearer?: BearerOptions;
  signInLimiter?: SignInLimiter;
};

export type ClientPortal = {
  /** Sign-in pages, the API, userinfo, the dashboard and /healthz (use api.request in tests). */
  api: Hono<AppEnv>;
  /** The OpenID Connect provider (discovery, authorize, token, JWKS, userinfo, logout). */
  provider: Provider;
  /** The one Node request handler: our routes to Hono, the rest to the provider. */
  listener: (req: IncomingMessage, res: ServerResponse) => void;
  /** Stops background work; the HTTP server and the database are the caller's to close. */
  close: () => Promise<void>;
};

const PURGE_EVERY_MS = 10 * 60_000;

export async function createClientPortal(options: ClientPortalOptions): Promise<ClientPortal> {
  const { env, db, logger } = options;
  const jwks = await loadSigningKeys(db, env.OIDC_JWKS);
  const provider = createProvider({ env, db, logger, jwks });
  const bearer: BearerOptions = options.bearer ?? {
    // Our own tokens are checked against our own public keys: no HTTP round trip to ourselves.
    getKey: createLocalJWKSet(toPublicJwks(jwks)),
    issuer: env.CLIENT_PORTAL_URL,
    audience: env.API_AUDIENCE,
    rolesClaim: env.ROLES_CLAIM,
  };
  const limiter = options.signInLimiter ?? createMemorySignInLimiter();

  const api = new Hono<AppEnv>();
  api.use(requestId());
  api.use(refuseNulCharacters());
  api.route(INTERACTION_PATH, interactionRoutes({ provider, db, env, limiter, logger }));
  api.route("/", apiRoutes({ db, env, bearer, logger }));
  installErrorHandlers(api, logger);

  const toHono = getRequestListener(api.fetch);
  const toProvider = provider.callback();
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?", 1)[0]!;
    // An address holding a NUL is refused by our routes' check, whatever it names (the provider's stores are in the database too).
    if (isOurRoute(path) || hasNulInAddress(req.url ?? "")) void toHono(req, res);
    else void toProvider(req, res);
  };

  const purge = setInterval(() => {
    purgeExpiredOidcPayloads(db).catch((err) => logger.warn("purging expired oidc rows failed", { err }));
  }, PURGE_EVERY_MS);
  purge.unref();

  return {
    api,
    provider,
    listener,
    close: async () => clearInterval(purge),
  };
}

function isOurRoute(path: string): boolean {
  return (
    path === "/dashboard" ||
    path === "/healthz" ||
    path === USERINFO_PATH ||
    path.startsWith("/api/") ||
    path.startsWith("/assets/") ||
    path.startsWith(`${INTERACTION_PATH}/`)
  );
}
