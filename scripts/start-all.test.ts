import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../services/shared/testing/free-port.ts";

const root = path.resolve(import.meta.dirname, "..");

/** `npm start` as the README runs it (tsx scripts/start-all.ts), with these variables; nothing else of the stack is needed. */
function startAll(vars: Record<string, string>) {
  const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "dt-start-all-")), "data");
  const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/start-all.ts"], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, ...vars },
    encoding: "utf8",
    timeout: 30_000,
  });
  const wroteData = fs.existsSync(dataDir);
  fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
  return { status: run.status, stderr: run.stderr, wroteData };
}

describe("npm start's own variables", () => {
  it("refuses a bad port by its variable's name, with no stack trace, before it writes anything", () => {
    for (const [name, value] of [
      ["PORTAL_PORT", "abc"],
      ["DATA_API_PORT", ""],
      ["CLIENT_PORTAL_PORT", "70000"],
    ] as const) {
      const { status, stderr, wroteData } = startAll({ [name]: value });
      expect(status, stderr).toBe(1);
      expect(stderr).toContain("npm start: invalid environment");
      expect(stderr).toMatch(new RegExp(`^  ${name}: `, "m"));
      expect(stderr).not.toMatch(/RangeError|ERR_SOCKET_BAD_PORT|\n\s+at /);
      expect(wroteData).toBe(false);
    }
  });
});

/** A server listening on `port` at `host` (what holds a port), closed by the returned function. */
async function hold(port: number, host: string): Promise<() => Promise<void>> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, host, resolve));
  return () => new Promise((resolve) => server.close(() => resolve()));
}

/** startAll, asynchronously: the ports held by this process must answer while it runs. */
async function startAllAsync(vars: Record<string, string>, dataDir: string) {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start-all.ts"], { cwd: root, env: { ...process.env, DATA_DIR: dataDir, ...vars } });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill("SIGTERM"), 30_000);
  const status = await new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  clearTimeout(timer);
  return { status, stderr };
}

describe("npm start's ports", () => {
  it("refuses a taken embedded PostgreSQL port at once, by its variable's name, as it refuses the three servers' ports", async () => {
    const [portal, clientPortal, dataApi, pg] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    const vars = { PORTAL_PORT: String(portal), CLIENT_PORTAL_PORT: String(clientPortal), DATA_API_PORT: String(dataApi), EMBEDDED_POSTGRES_PORT: String(pg) };
    const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "dt-start-all-")), "data");
    const release = await hold(pg, "127.0.0.1");
    try {
      const started = Date.now();
      const { status, stderr } = await startAllAsync(vars, dataDir);
      expect(status, stderr).toBe(1);
      expect(stderr.trim()).toBe(
        `Port ${pg} is already in use (another \`npm start\`?). Stop what holds it, or choose another port with EMBEDDED_POSTGRES_PORT.`,
      );
      // At once: no process was started (three attempts at start took several seconds and said "did not start").
      expect(Date.now() - started).toBeLessThan(15_000);

      // This DATA_DIR's own embedded PostgreSQL, left running by a data API that was killed, holds the port itself and is used:
      // not refused (here its postmaster.pid names this live process, and the portal's port, taken, is what is refused).
      fs.mkdirSync(path.join(dataDir, "pg"), { recursive: true });
      fs.writeFileSync(path.join(dataDir, "pg", "postmaster.pid"), `${process.pid}\n${dataDir}/pg\n0\n${pg}\n`);
      const releasePortal = await hold(portal, "0.0.0.0");
      try {
        const own = await startAllAsync(vars, dataDir);
        expect(own.status, own.stderr).toBe(1);
        expect(own.stderr).toContain(`choose another port with PORTAL_PORT.`);
        expect(own.stderr).not.toContain("EMBEDDED_POSTGRES_PORT");
      } finally {
        await releasePortal();
      }
    } finally {
      await release();
      fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
    }
  }, 90_000);
});
