/**
 * The product as `npm start` runs it (production builds, three processes, demo data), on the bench's
 * own ports and a throwaway data folder, with the process ids the bench needs to read CPU and memory.
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export type Stack = Awaited<ReturnType<typeof startStack>>;

const ROOT = path.resolve(import.meta.dirname, "../..");

export async function startStack(options: { basePort: number; env?: Record<string, string> }) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dt-bench-"));
  const ports = { portal: options.basePort, clientPortal: options.basePort + 1, dataApi: options.basePort + 2 };
  const urls = {
    portal: `http://localhost:${ports.portal}`,
    clientPortal: `http://localhost:${ports.clientPortal}`,
    dataApi: `http://localhost:${ports.dataApi}`,
  };
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start-all.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORTAL_PORT: String(ports.portal),
      CLIENT_PORTAL_PORT: String(ports.clientPortal),
      DATA_API_PORT: String(ports.dataApi),
      EMBEDDED_POSTGRES_PORT: String(options.basePort + 3),
      LOG_LEVEL: "warn",
      ...options.env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await waitFor(`${urls.portal}/healthz`, child);
  await waitFor(`${urls.dataApi}/healthz`, child);
  await waitFor(`${urls.clientPortal}/healthz`, child);
  const pids = { portal: pidListening(ports.portal), clientPortal: pidListening(ports.clientPortal), dataApi: pidListening(ports.dataApi) };
  return {
    urls,
    pids,
    dataDir,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function waitFor(url: string, child: ChildProcess, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the product stopped before ${url} answered`);
    const ok = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** The process listening on a TCP port (from /proc: no lsof or ss needed). */
export function pidListening(port: number): number {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set<string>();
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    if (!fs.existsSync(file)) continue;
    for (const line of fs.readFileSync(file, "utf8").split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address ends in :PORT; state 0A is LISTEN.
      if (cols[1]?.endsWith(`:${hexPort}`) && cols[3] === "0A") inodes.add(cols[9]!);
    }
  }
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
        const target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
        const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
        if (inode && inodes.has(inode)) return Number(pid);
      }
    } catch {
      // a process that ended meanwhile, or one we may not read
    }
  }
  throw new Error(`nothing listens on port ${port}`);
}

const TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;

/** CPU time (user + system) a process has used so far, in ms. */
export function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** Resident memory of a process now, in MiB. */
export function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}
