import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError } from "../../../contracts/env.ts";
import { loadEnv } from "./env.ts";

describe("data API environment", () => {
  it("starts with development defaults when nothing is set", () => {
    expect(loadEnv({})).toEqual({
      NODE_ENV: "development",
      LOG_LEVEL: "info",
      DATA_API_PORT: 3002,
      DATA_DIR: "./data",
      DATABASE_URL: path.join("data", "data-api.sqlite"),
      OIDC_ISSUER: "http://localhost:3001",
      OIDC_JWKS_URL: "http://localhost:3001/jwks",
      API_AUDIENCE: "urn:data-transformation:api",
      AUDIT_RETENTION_DAYS: 365,
      ROLES_CLAIM: "custom:roles",
      CLIENT_PORTAL_API_URL: "http://localhost:3001",
      CLOUD_TARGET: "AWS",
      TRANSLATION_ANALYST_ROLE: "FusionPSI_TranslationAnalyst",
      SEED_DEMO: false,
      SEED_DEMO_CONTENT: false,
      WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: false,
      EMBEDDED_POSTGRES_PORT: 5433,
      MAX_UPLOAD_BYTES: 5 * 1024 ** 3,
      AUTO_BACKUPS_KEPT: 10,
      SCRIPT_LOCK_TTL_MINUTES: 120,
      RUN_STATEMENT_TIMEOUT_SECONDS: 3600,
    });
  });

  it("places project databases on the embedded server unless PROJECT_DATABASES_URL names servers, which need the secret", () => {
    expect(loadEnv({}).PROJECT_DATABASES_URL).toBeUndefined();
    const servers = "postgres://admin:pw@pg1.internal:5432/postgres, postgres://admin:pw@pg2.internal/postgres";
    const secret = "s".repeat(32);
    expect(loadEnv({ PROJECT_DATABASES_URL: servers, PROJECT_DATABASES_SECRET: secret })).toMatchObject({ PROJECT_DATABASES_URL: servers, PROJECT_DATABASES_SECRET: secret });
    expect(() => loadEnv({ PROJECT_DATABASES_URL: servers })).toThrow(/PROJECT_DATABASES_SECRET.*required/);
    expect(() => loadEnv({ PROJECT_DATABASES_URL: servers, PROJECT_DATABASES_SECRET: "short" })).toThrow(/PROJECT_DATABASES_SECRET.*32/);
    expect(() => loadEnv({ PROJECT_DATABASES_URL: "mysql://x", PROJECT_DATABASES_SECRET: secret })).toThrow(/PROJECT_DATABASES_URL.*postgres/);
  });

  it("keeps the database under DATA_DIR unless DATABASE_URL says otherwise", () => {
    expect(loadEnv({ DATA_DIR: "/srv/dt" }).DATABASE_URL).toBe("/srv/dt/data-api.sqlite");
    const pgUrl = "postgres://dt:secret@db.internal:5432/dt";
    expect(loadEnv({ DATA_DIR: "/srv/dt", DATABASE_URL: pgUrl }).DATABASE_URL).toBe(pgUrl);
  });

  it("derives the JWKS URL from the issuer unless it is given", () => {
    expect(loadEnv({ OIDC_ISSUER: "https://id.example.com/" })).toMatchObject({
      OIDC_ISSUER: "https://id.example.com/", // compared with the token's `iss` exactly
      OIDC_JWKS_URL: "https://id.example.com/jwks",
    });
    expect(loadEnv({ OIDC_JWKS_URL: "https://id.example.com/.well-known/jwks.json" }).OIDC_JWKS_URL).toBe(
      "https://id.example.com/.well-known/jwks.json",
    );
  });

  it("reads the port, the flag and the client portal URL", () => {
    expect(loadEnv({ DATA_API_PORT: "4002", SEED_DEMO: "true", CLIENT_PORTAL_API_URL: "http://cp:3001/", WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: "true" })).toMatchObject({
      DATA_API_PORT: 4002,
      SEED_DEMO: true,
      WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: true,
      CLIENT_PORTAL_API_URL: "http://cp:3001",
    });
  });

  it("reads the cloud target and the translation analyst role", () => {
    expect(loadEnv({ CLOUD_TARGET: "AZURE", TRANSLATION_ANALYST_ROLE: "Acme_TranslationAnalyst" })).toMatchObject({
      CLOUD_TARGET: "AZURE",
      TRANSLATION_ANALYST_ROLE: "Acme_TranslationAnalyst",
    });
  });

  it.each([
    ["DATA_API_PORT", "eighty"],
    ["DATA_API_PORT", "70000"],
    ["SEED_DEMO", "yes please"],
    ["OIDC_ISSUER", "not a url"],
    ["CLIENT_PORTAL_API_URL", "ftp://cp"],
    ["NODE_ENV", "staging"],
    ["API_AUDIENCE", ""],
    ["CLOUD_TARGET", "GCP"],
    ["TRANSLATION_ANALYST_ROLE", " "],
  ])("refuses %s=%j with a message naming the variable", (name, value) => {
    expect(() => loadEnv({ [name]: value })).toThrow(EnvError);
    expect(() => loadEnv({ [name]: value })).toThrow(new RegExp(`^data-api: invalid environment\\n  ${name}: `));
  });

  it("stops the server with the message and exit code 1, no stack trace", () => {
    const server = path.join(import.meta.dirname, "server.ts");
    const run = spawnSync(process.execPath, ["--import", "tsx", server], {
      env: { PATH: process.env.PATH, DATA_API_PORT: "eighty", DATA_DIR: "/nonexistent/never-created" },
      encoding: "utf8",
      timeout: 15_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("DATA_API_PORT");
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe("");
  });
});
