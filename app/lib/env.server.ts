import { z } from "zod";
import { DEFAULT_ROLES_CLAIM, DEFAULT_TRANSLATION_ANALYST_ROLE } from "../../contracts/roles";
import { EnvError, envFields, parseEnv, refuseDevDefaultsInProduction } from "../../contracts/env";

/** The portal's environment, parsed once at start (README lists every variable). */
export const portalEnvSchema = z
  .object({
    NODE_ENV: envFields.nodeEnv,
    DATA_DIR: z.string().min(1).default("./data"),
    PORTAL_DATABASE_URL: z.string().optional(),
    PORTAL_URL: envFields.url("http://localhost:3000"),
    OIDC_ISSUER: envFields.url("http://localhost:3001"),
    OIDC_CLIENT_ID: z.string().min(1).default("data-transformation-portal"),
    OIDC_CLIENT_SECRET: z.string().min(1).default("dev-only-portal-client-secret"),
    OIDC_SCOPES: z.string().default("openid profile offline_access"),
    ROLES_CLAIM: z.string().min(1).default(DEFAULT_ROLES_CLAIM),
    CLIENT_PORTAL_URL: envFields.url("http://localhost:3001"),
    CLIENT_PORTAL_API_URL: envFields.url("http://localhost:3001"),
    DATA_API_URL: envFields.url("http://localhost:3002"),
    SESSION_SECRETS: envFields.list("dev-only-session-secret"),
    SESSION_MAX_AGE_SECONDS: z.coerce.number().int().min(60).default(12 * 60 * 60),
    /** How long a page waits for a service's answer to a read before it says so: a hung service must not hang every page. */
    SERVICE_READ_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
    CLOUD_TARGET: z.enum(["AWS", "AZURE"]).default("AWS"),
    TRANSLATION_ANALYST_ROLE: z.string().min(1).default(DEFAULT_TRANSLATION_ANALYST_ROLE),
    /** Forces Secure cookies where PORTAL_URL is http but the browser reaches the portal by https (a TLS proxy; the container). */
    COOKIE_SECURE: envFields.flag,
    /** Adds `Server-Timing: svc;…` (time waiting on services, calls, sequential depth) to pages and data answers: for the bench. */
    SERVER_TIMING: envFields.flag,
  })
  .superRefine(refuseDevDefaultsInProduction(["OIDC_CLIENT_SECRET", "SESSION_SECRETS"]))
  .transform((env) => ({
    ...env,
    PORTAL_DATABASE_URL: env.PORTAL_DATABASE_URL ?? `${env.DATA_DIR}/portal.sqlite`,
    secureCookies: secureCookies(env),
  }));

/**
 * Cookies are `Secure` when the browser talks to the portal over https: PORTAL_URL is https, or
 * COOKIE_SECURE=true says so. Not merely in production: a browser never sends a Secure cookie back
 * over plain http (text browsers such as w3m apply this even to localhost), so `npm start` on
 * http://localhost would loop between sign-in and "The sign-in request has expired".
 */
export function secureCookies(env: { PORTAL_URL: string; COOKIE_SECURE: boolean }): boolean {
  return env.COOKIE_SECURE || env.PORTAL_URL.startsWith("https:");
}

export type PortalEnv = z.output<typeof portalEnvSchema>;

export function loadPortalEnv(source: Record<string, string | undefined> = process.env): PortalEnv {
  return parseEnv("portal", portalEnvSchema, source);
}

function loadOrExit(): PortalEnv {
  try {
    return loadPortalEnv();
  } catch (err) {
    // A bad environment is an operator's mistake: say which variable, without a stack trace.
    if (err instanceof EnvError && !process.env.VITEST) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

export const env = loadOrExit();
