import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_POSTGRES_ADMIN_URL } from "../../../../shared/testing/databases.ts";
import { TEST_DATABASE_SERVER, createTestDataPlane } from "../../testing/harness.ts";
import { column } from "../../testing/project-fixtures.ts";
import { asProjectOwner, createProjectDatabase, createProjectSchema, dropProjectDatabase, runnerUrl } from "../project-databases.ts";
import { loadInWorker, type LoadHooks } from "./load-in-worker.ts";
import { DEFAULT_FLAT_FILE_PARAMETERS } from "../../../../../contracts/values/flat-files.ts";

const dataPlane = createTestDataPlane();
const projectId = randomUUID();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dt-load-"));
afterAll(async () => {
  await dropProjectDatabase(dataPlane, TEST_DATABASE_SERVER, projectId).catch(() => undefined);
  await dataPlane.closePools();
  fs.rmSync(dir, { recursive: true, force: true });
});

const tableNamed = (name: string) => ({ name, columns: [column("Id", "int", { isKey: true, nullable: false }), column("Text", "nvarchar")] });

/** A replacing load of `file` into `table`, its hooks doing nothing unless given. */
function load(file: string, table: ReturnType<typeof tableNamed>, hooks: Partial<LoadHooks>, signal?: AbortSignal, progressEveryMs?: number) {
  return loadInWorker(
    {
      progressEveryMs,
      files: [{ filePath: file, fileName: path.basename(file), table }],
      parameters: DEFAULT_FLAT_FILE_PARAMETERS,
      mode: "replace",
      onRejected: "loadNothing",
      connectionUrl: runnerUrl(dataPlane, TEST_DATABASE_SERVER, projectId),
    },
    {
      onHeader: async () => undefined,
      onRejected: async () => undefined,
      onReset: async () => undefined,
      onFileRead: () => undefined,
      onProgress: async () => undefined,
      beforeCommit: async () => undefined,
      ...hooks,
    },
    signal,
  );
}

describe.skipIf(!TEST_POSTGRES_ADMIN_URL)("a load in its worker", () => {
  beforeAll(async () => {
    await createProjectDatabase(dataPlane, TEST_DATABASE_SERVER, projectId);
    await createProjectSchema(dataPlane, TEST_DATABASE_SERVER, projectId, "source", [tableNamed("Big"), tableNamed("Counted"), tableNamed("Unwanted")]);
  });

  it("stops at once when cancelled mid-file: the worker ends, its transaction is rolled back, the table keeps its rows", async () => {
    const table = tableNamed("Big");
    await asProjectOwner(dataPlane, TEST_DATABASE_SERVER, projectId, (c) => c.query(`insert into source."Big" values (-1, 'before')`));
    const file = path.join(dir, "big.csv");
    const rows = Array.from({ length: 300_000 }, (_, i) => `${i},row ${i}\n`);
    fs.writeFileSync(file, `Id,Text\n${rows.join("")}`);

    const controller = new AbortController();
    let cancelledAt = 0;
    // The first progress report comes with the file's first chunk: the load is under way.
    const cancel = async () => {
      cancelledAt = performance.now();
      controller.abort(new Error("Cancelled by the test"));
    };
    const run = load(file, table, { onProgress: cancel }, controller.signal);
    await expect(run).rejects.toThrow("Cancelled by the test");
    // Timed from the cancel, not from the start: starting a worker on a busy machine is not what this measures.
    expect(cancelledAt).toBeGreaterThan(0);
    expect(performance.now() - cancelledAt).toBeLessThan(2000);
    // The replaced table is whole again once PostgreSQL has seen the connection go.
    await expect
      .poll(() => asProjectOwner(dataPlane, TEST_DATABASE_SERVER, projectId, async (c) => (await c.query(`select "Id", "Text" from source."Big"`)).rows), {
        timeout: 5000,
      })
      .toEqual([{ Id: -1, Text: "before" }]);
  });

  it("reports how far it is in bytes and in rows as it reads the file", async () => {
    const table = tableNamed("Counted");
    const file = path.join(dir, "counted.csv");
    fs.writeFileSync(file, `Id,Text\n${Array.from({ length: 400_000 }, (_, i) => `${i},row ${i}\n`).join("")}`);
    const size = fs.statSync(file).size;
    const reports: { bytes: number; rows: number }[] = [];
    // Told at every chunk read, not every 250 ms: a fast machine reads the whole file within one such wait.
    const outcome = await load(file, table, { onProgress: async (_file, bytes, rows) => void reports.push({ bytes, rows }) }, undefined, 0);
    expect(outcome).toMatchObject({ status: "Loaded", files: [{ rowsRead: 400_000, rowsLoaded: 400_000, rowsRejected: 0 }] });
    // More than the first chunk's report (with no row yet): rows are counted as they are read, never past the file.
    expect(reports.length).toBeGreaterThan(1);
    expect(reports.some((r) => r.rows > 0)).toBe(true);
    for (const [i, r] of reports.entries()) {
      expect(r.bytes).toBeLessThanOrEqual(size);
      expect(r.rows).toBeLessThanOrEqual(400_000);
      if (i > 0) expect(r.rows).toBeGreaterThanOrEqual(reports[i - 1]!.rows);
    }
  });

  it("asks before it commits, and keeps nothing when the job is no longer wanted (a force-unlock in another process)", async () => {
    const table = tableNamed("Unwanted");
    await asProjectOwner(dataPlane, TEST_DATABASE_SERVER, projectId, (c) => c.query(`insert into source."Unwanted" values (-1, 'before')`));
    const file = path.join(dir, "unwanted.csv");
    fs.writeFileSync(file, `Id,Text\n${Array.from({ length: 1000 }, (_, i) => `${i},row ${i}\n`).join("")}`);
    let asked = 0;
    const run = load(file, table, {
      beforeCommit: async () => {
        asked++;
        throw new Error("Force-unlocked: the server is being moved");
      },
    });
    await expect(run).rejects.toThrow("Force-unlocked: the server is being moved");
    expect(asked).toBe(1);
    await expect
      .poll(() => asProjectOwner(dataPlane, TEST_DATABASE_SERVER, projectId, async (c) => (await c.query(`select "Id", "Text" from source."Unwanted"`)).rows), {
        timeout: 5000,
      })
      .toEqual([{ Id: -1, Text: "before" }]);
  });
});
