/**
 * Vitest global setup: starts a throwaway PostgreSQL cluster (Debian's `postgresql` package) on a
 * loopback port for the integration tests that run on both engines, and removes it afterwards.
 * Test files get the admin URL through `inject("postgresAdminUrl")` (services/shared/testing/databases.ts).
 * SKIP_POSTGRES=1 runs the SQLite half only (a developer machine without PostgreSQL); CI never sets it.
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

import "../../services/shared/testing/provided-context.ts";
import { freePort } from "../../services/shared/testing/free-port.ts";

function findBin(name: string): string {
  const candidates = [process.env.PG_BIN_DIR, ...listPgBinDirs()].filter(Boolean) as string[];
  for (const dir of candidates) {
    const p = path.join(dir, name);
    if (fs.existsSync(p)) return p;
  }
  const which = spawnSync("which", [name], { encoding: "utf8" });
  if (which.status === 0) return which.stdout.trim();
  throw new Error(`PostgreSQL's ${name} was not found: install Debian's postgresql package, or set SKIP_POSTGRES=1`);
}

function listPgBinDirs(): string[] {
  const root = "/usr/lib/postgresql";
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root)
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => path.join(root, v, "bin"));
}

/** initdb and postgres refuse to run as root: run them as the `postgres` system user then. */
function asClusterUser(cmd: string, args: string[]) {
  const isRoot = process.getuid?.() === 0;
  const [file, argv] = isRoot ? ["runuser", ["-u", "postgres", "--", cmd, ...args]] : [cmd, args];
  execFileSync(file, argv as string[], { stdio: "pipe" });
}

export default async function setup(project: TestProject) {
  if (process.env.SKIP_POSTGRES === "1") {
    project.provide("postgresAdminUrl", null);
    project.provide("projectDatabasesAdminUrl", null);
    return;
  }
  const initdb = findBin("initdb");
  const pgCtl = findBin("pg_ctl");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dt-pg-"));
  const dataDir = path.join(dir, "data");
  if (process.getuid?.() === 0) execFileSync("chown", ["-R", "postgres", dir]);
  const port = await freePort();
  // Password authentication, as on the embedded server and in production: a test that a wrong
  // password is refused must be able to fail.
  const password = "throwaway-test-cluster";
  const pwfile = path.join(dir, "pwfile");
  fs.writeFileSync(pwfile, `${password}\n`);
  if (process.getuid?.() === 0) execFileSync("chown", ["postgres", pwfile]);
  asClusterUser(initdb, ["-D", dataDir, "-U", "postgres", `--pwfile=${pwfile}`, "--auth=scram-sha-256", "--encoding=UTF8", "--no-sync"]);
  asClusterUser(pgCtl, [
    "-D", dataDir, "-w", "-l", path.join(dir, "log"),
    "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`,
    "start",
  ]);
  const adminUrl = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  project.provide("postgresAdminUrl", adminUrl);
  // The tests' project databases are made by a login that is not a superuser, as a managed server's
  // admin is: what works for it works for the embedded server's superuser, not the other way round.
  const projectsAdmin = { name: "dt_projects_admin", password: "throwaway-projects-admin" };
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`CREATE ROLE ${projectsAdmin.name} LOGIN CREATEROLE CREATEDB PASSWORD '${projectsAdmin.password}'`).finally(() => client.end());
  project.provide("projectDatabasesAdminUrl", `postgres://${projectsAdmin.name}:${projectsAdmin.password}@127.0.0.1:${port}/postgres`);
  return () => {
    try {
      asClusterUser(pgCtl, ["-D", dataDir, "-m", "immediate", "stop"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
}
