import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../../shared/logger.ts";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded-postgres.ts";
import { freePort } from "../../../shared/testing/free-port.ts";

/** Answers 1 once the server takes a connection, else throws. */
async function selectOne(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => undefined);
  await client.connect();
  try {
    return (await client.query<{ one: number }>("select 1 as one")).rows[0]!.one;
  } finally {
    await client.end();
  }
}

describe("the embedded PostgreSQL", () => {
  let dataDir: string;
  let embedded: EmbeddedPostgres;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dt-embedded-"));
    embedded = await startEmbeddedPostgres({ dataDir, port: await freePort(), logger: createLogger("test", "silent"), watchMs: 200 });
  });

  afterAll(async () => {
    await embedded?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("is started again when it is killed under a running data API", { timeout: 60_000 }, async () => {
    expect(await selectOne(embedded.adminUrl)).toBe(1);
    // kill -9 of the server and its processes (the OOM killer, an operator): its postmaster.pid stays behind.
    const postmaster = Number(fs.readFileSync(path.join(dataDir, "pg", "postmaster.pid"), "utf8").split("\n")[0]);
    const children = execFileSync("pgrep", ["-P", String(postmaster)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map(Number);
    for (const pid of [postmaster, ...children]) process.kill(pid, "SIGKILL");
    await expect(selectOne(embedded.adminUrl)).rejects.toThrow();
    // Back within a few looks, with its data: the same cluster, the same password.
    const deadline = Date.now() + 45_000;
    let answer: number | undefined;
    while (answer === undefined && Date.now() < deadline) {
      answer = await selectOne(embedded.adminUrl).catch(() => undefined);
      if (answer === undefined) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(answer).toBe(1);
  });
});
