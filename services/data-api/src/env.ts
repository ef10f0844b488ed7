import path from "node:path";
import { z } from "zod";
import { envFields, parseEnv } from "../../../contracts/env.ts";
import { CLOUD_TARGETS } from "../../../contracts/areas.ts";
import { MAX_UPLOAD_BYTES_DEFAULT } from "../../../contracts/values/loads.ts";
import { AUTO_BACKUPS_KEPT_DEFAULT } from "../../../contracts/values/backups.ts";
import { SCRIPT_LOCK_TTL_MINUTES_DEFAULT } from "../../../contracts/values/templates.ts";
import { RUN_STATEMENT_TIMEOUT_SECONDS_DEFAULT } from "../../../contracts/values/runs.ts";
import { AUDIT_RETENTION_DAYS_DEFAULT } from "../../../contracts/values/sql-access.ts";
import { DEFAULT_ROLES_CLAIM, DEFAULT_TRANSLATION_ANALYST_ROLE } from "../../../contracts/roles.ts";

const httpUrl = z.url({ protocol: /^https?$/ });

/** The data API's whole environment, parsed once at start (server.ts). */
const dataApiEnvSchema = z
  .object({
    NODE_ENV: envFields.nodeEnv,
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
    DATA_API_PORT: envFields.port(3002),
    /** The control-plane SQLite file, the embedded PostgreSQL's data (pg/) and uploads being read (tmp/). */
    DATA_DIR: z.string().trim().min(1).default("./data"),
    /** A `postgres://` URL selects PostgreSQL; anything else is a SQLite file path. Default: under DATA_DIR. */
    DATABASE_URL: z.string().trim().min(1).optional(),
    /**
     * Where project databases live: administrative `postgres://` URLs of one or more PostgreSQL
     * servers, separated by commas. Unset: the data API starts an embedded PostgreSQL with its data
     * under DATA_DIR/pg, listening on loopback at EMBEDDED_POSTGRES_PORT.
     */
    PROJECT_DATABASES_URL: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined)
      .refine((v) => v === undefined || v.split(",").every((u) => /^postgres(ql)?:\/\//i.test(u.trim())), "must be postgres:// URLs separated by commas"),
    /**
     * With PROJECT_DATABASES_URL: the secret the passwords of projects' own logins are derived from
     * (at least 32 characters; changing it locks the data API out of existing projects). The embedded
     * server's is generated and kept in DATA_DIR/.pg-secrets.json.
     */
    PROJECT_DATABASES_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    EMBEDDED_POSTGRES_PORT: envFields.port(5433),
    /** The largest flat file a load takes, in bytes (5 GB). */
    MAX_UPLOAD_BYTES: z.coerce.number().int().min(1).default(MAX_UPLOAD_BYTES_DEFAULT),
    /** Automatic backups (taken before each load and restore, for Undo) kept per workspace. */
    AUTO_BACKUPS_KEPT: z.coerce.number().int().min(1).default(AUTO_BACKUPS_KEPT_DEFAULT),
    /** A script's lock lapses this long after its holder last locked or saved it. */
    SCRIPT_LOCK_TTL_MINUTES: z.coerce.number().int().min(1).default(SCRIPT_LOCK_TTL_MINUTES_DEFAULT),
    /** A run's statement is cancelled after this many seconds. */
    RUN_STATEMENT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(RUN_STATEMENT_TIMEOUT_SECONDS_DEFAULT),
    /**
     * Where users' SQL tools reach project databases (issue 13): shown with a SQL credential's password.
     * Default: each server's own host and port (the embedded server listens on loopback only; README).
     */
    SQL_ACCESS_HOST: z.string().trim().min(1).optional(),
    SQL_ACCESS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    /** Audit log entries older than this many days are deleted (at start and daily). */
    AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).default(AUDIT_RETENTION_DAYS_DEFAULT),
    /** Shown in the connection details when set (require, verify-full, …). */
    SQL_ACCESS_SSLMODE: z.enum(["disable", "allow", "prefer", "require", "verify-ca", "verify-full"]).optional(),
    /**
     * Kept exactly as given (no trailing-slash trimming): jose compares the token's `iss` byte for
     * byte, and some providers' issuers end with a slash.
     */
    OIDC_ISSUER: httpUrl.default("http://localhost:3001"),
    OIDC_JWKS_URL: httpUrl.optional(),
    API_AUDIENCE: z.string().trim().min(1).default("urn:data-transformation:api"),
    ROLES_CLAIM: z.string().trim().min(1).default(DEFAULT_ROLES_CLAIM),
    CLIENT_PORTAL_API_URL: envFields.url("http://localhost:3001"),
    /** AZURE: Fusion PSI Configuration and Data Onboarding do not exist (their endpoints answer 404). */
    CLOUD_TARGET: z.enum(CLOUD_TARGETS).default("AWS"),
    /** The translation module's combined analyst role, allowed into Translations (spec §6). */
    TRANSLATION_ANALYST_ROLE: z.string().trim().min(1).default(DEFAULT_TRANSLATION_ANALYST_ROLE),
    /**
     * Lets webhooks reach loopback, private and link-local addresses (and localhost): for tests' and a
     * developer's local receiver only. Off, a tenant's webhook cannot probe the data API's own network.
     */
    WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: envFields.flag,
    SEED_DEMO: envFields.flag,
    /** With SEED_DEMO: an application, a dictionary and a project in Acme Health to look at. */
    SEED_DEMO_CONTENT: envFields.flag,
  })
  .superRefine((env, ctx) => {
    if (env.PROJECT_DATABASES_URL && !env.PROJECT_DATABASES_SECRET)
      ctx.addIssue({ code: "custom", path: ["PROJECT_DATABASES_SECRET"], message: "is required with PROJECT_DATABASES_URL" });
  })
  .transform((env) => ({
    ...env,
    DATABASE_URL: env.DATABASE_URL ?? path.join(env.DATA_DIR, "data-api.sqlite"),
    OIDC_JWKS_URL: env.OIDC_JWKS_URL ?? `${env.OIDC_ISSUER.replace(/\/+$/, "")}/jwks`,
  }));

export type DataApiEnv = z.output<typeof dataApiEnvSchema>;

/** Throws an EnvError naming every bad variable; server.ts prints it and exits. */
export function loadEnv(source: Record<string, string | undefined> = process.env): DataApiEnv {
  return parseEnv("data-api", dataApiEnvSchema, source);
}
