import path from "node:path";
import { z } from "zod";
import { envFields, parseEnv, refuseDevDefaultsInProduction } from "../../../contracts/env.ts";
import { DEFAULT_ROLES_CLAIM, DEFAULT_TRANSLATION_ANALYST_ROLE } from "../../../contracts/roles.ts";

/** A private JWKS handed in by ops, so that keys can be managed (and rotated) outside the database. */
const privateJwksSchema = z.object({
  keys: z
    .array(z.looseObject({ kty: z.string(), d: z.string({ error: "every key must be a private key (with d)" }) }))
    .min(1, "needs at least one key"),
});

const jsonPrivateJwks = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (!value?.trim()) return undefined;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "must be a JSON private JWKS ({\"keys\": [...]})" });
      return z.NEVER;
    }
  })
  .pipe(privateJwksSchema.optional());

const schema = z
  .object({
    NODE_ENV: envFields.nodeEnv,
    CLIENT_PORTAL_PORT: envFields.port(3001),
    /** The issuer identifier and the public base URL of this service. */
    CLIENT_PORTAL_URL: envFields.url("http://localhost:3001"),
    DATA_DIR: z.string().min(1).default("./data"),
    /** A SQLite file path, or a postgres:// URL; defaults to a file under DATA_DIR. */
    CLIENT_PORTAL_DATABASE_URL: z.string().min(1).optional(),
    PORTAL_URL: envFields.url("http://localhost:3000"),
    PORTAL_CLIENT_ID: z.string().min(1).default("data-transformation-portal"),
    PORTAL_CLIENT_SECRET: z.string().min(1).default("dev-only-portal-client-secret"),
    PORTAL_REDIRECT_URIS: envFields.list("http://localhost:3000/auth/callback").pipe(z.array(z.url())),
    PORTAL_POST_LOGOUT_REDIRECT_URIS: envFields.list("http://localhost:3000/").pipe(z.array(z.url())),
    /** Signs the provider's cookies; the first key signs, all verify, so keys can rotate. */
    OIDC_COOKIE_KEYS: envFields.list("dev-only-cookie-key"),
    OIDC_JWKS: jsonPrivateJwks,
    ROLES_CLAIM: z.string().min(1).default(DEFAULT_ROLES_CLAIM),
    API_AUDIENCE: z.string().min(1).default("urn:data-transformation:api"),
    ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(300),
    /** Off unless asked for: the demo users all share the password "demo". */
    SEED_DEMO: envFields.flag,
    TRANSLATION_ANALYST_ROLE: z.string().min(1).default(DEFAULT_TRANSLATION_ANALYST_ROLE),
    /** Behind a TLS-terminating proxy: trust X-Forwarded-* for the scheme and the client address. */
    TRUST_PROXY: envFields.flag,
  })
  .superRefine(refuseDevDefaultsInProduction(["PORTAL_CLIENT_SECRET", "OIDC_COOKIE_KEYS"]))
  .transform((env) => ({
    ...env,
    CLIENT_PORTAL_DATABASE_URL: env.CLIENT_PORTAL_DATABASE_URL ?? path.join(env.DATA_DIR, "client-portal.sqlite"),
  }));

export type ClientPortalEnv = z.output<typeof schema>;

/** Parses the environment once; throws an EnvError naming every bad variable. */
export function loadEnv(source: Record<string, string | undefined> = process.env): ClientPortalEnv {
  return parseEnv("client-portal", schema, source);
}
