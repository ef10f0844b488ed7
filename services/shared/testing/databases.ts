/**
 * Fresh databases for integration tests on both engines. Use as
 *   describe.each(TEST_DATABASE_KINDS)("… on %s", (kind) => { … createTestDatabase(kind) … })
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import type { DatabaseKind } from "../db.ts";
import "./provided-context.ts";

const postgresAdminUrl = inject("postgresAdminUrl");

export const TEST_DATABASE_KINDS: DatabaseKind[] = postgresAdminUrl ? ["sqlite", "postgres"] : ["sqlite"];

export type TestDatabase = { url: string; drop: () => Promise<void> };

/** The throwaway PostgreSQL server's superuser: for the control planes' test databases and what tests set up by hand; or null. */
export const TEST_POSTGRES_ADMIN_URL: string | null = postgresAdminUrl;

/**
 * The administrative login of the tests' project databases on that server: CREATEROLE and CREATEDB,
 * not a superuser, as on a managed server (the embedded server's superuser can do all it can); or null.
 */
export const TEST_PROJECT_DATABASES_ADMIN_URL: string | null = inject("projectDatabasesAdminUrl");

/** `user`'s URL to `database` on the throwaway server: a session as a SQL client or a project's own login holds it. */
export function testSessionUrl(user: string, password: string, database: string): string {
  const url = new URL(postgresAdminUrl!);
  url.username = user;
  url.password = password;
  url.pathname = `/${database}`;
  return url.toString();
}

export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  const name = `t_${crypto.randomBytes(6).toString("hex")}`;
  if (kind === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dt-sqlite-"));
    return { url: path.join(dir, `${name}.sqlite`), drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  if (!postgresAdminUrl) throw new Error("PostgreSQL is not running for this test run (SKIP_POSTGRES=1?)");
  await withAdmin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresAdminUrl! });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
