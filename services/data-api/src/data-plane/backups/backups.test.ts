import { randomUUID } from "node:crypto";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { createHash } from "node:crypto";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it, vi } from "vitest";
import { TEST_POSTGRES_ADMIN_URL, TEST_PROJECT_DATABASES_ADMIN_URL } from "../../../../shared/testing/databases.ts";
import { TEST_DATABASE_SERVER, createTestDataPlane } from "../../testing/harness.ts";
import type { DdlColumn, DdlTable } from "../postgres-ddl.ts";
import { asProjectOwner, createProjectDatabase, createProjectSchema, dropProjectDatabase } from "../project-databases.ts";
import { BACKUP_FORMAT, readBackupArchive, verifyBackupArchive, writeBackupArchive, type BackupManifest } from "./backup-archive.ts";
import { compareSource } from "./compare-source.ts";
import { restoreSource } from "./restore-source.ts";
import { inspectSqliteExport, sqliteTableInputs } from "./sqlite-export.ts";
import { restoreNotes } from "./backup-jobs.ts";
import { takeBackup } from "./take-backup.ts";
import type { TableInput } from "./table-input.ts";

const col = (name: string, type: DdlColumn["type"], extra: Partial<DdlColumn> = {}): DdlColumn => ({
  name,
  type,
  length: type === "nvarchar" ? 20 : null,
  precision: type === "decimal" ? 12 : null,
  scale: type === "decimal" ? 2 : null,
  nullable: true,
  isKey: false,
  ...extra,
});
const customers: DdlTable = {
  name: "Customers",
  columns: [
    col("Id", "int", { isKey: true, nullable: false }),
    col("Code", "nvarchar"),
    col("Balance", "decimal"),
    col("Since", "date"),
    col("Ref", "uniqueidentifier"),
  ],
};
const notes: DdlTable = { name: "Notes", columns: [col("Note", "nvarchar")] };

const dataPlane = createTestDataPlane();
/** A CSV input read from its start at each iteration, as the product's inputs are (a refused value's row is looked for so). */
const csvOf = (text: string): AsyncIterable<Buffer> => ({
  async *[Symbol.asyncIterator]() {
    yield Buffer.from(text);
  },
});
const server = TEST_DATABASE_SERVER;
const created: string[] = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dt-backup-unit-"));

async function freshProject(): Promise<string> {
  const projectId = randomUUID();
  created.push(projectId);
  await createProjectDatabase(dataPlane, server, projectId);
  await createProjectSchema(dataPlane, server, projectId, "source", [customers, notes]);
  await createProjectSchema(dataPlane, server, projectId, "destination", [customers, notes]);
  return projectId;
}
const run = (projectId: string, sql: string) => asProjectOwner(dataPlane, server, projectId, async (c) => (await c.query(sql)).rows);
const snapshot = (projectId: string, schema = "source") =>
  run(
    projectId,
    `select (select coalesce(json_agg(t::text order by t::text), '[]') from ${schema}."Customers" t) as c, (select coalesce(json_agg(n::text order by n::text), '[]') from ${schema}."Notes" n) as n`,
  );
const schemasOf = (projectId: string) => run(projectId, "select nspname from pg_namespace where nspname like 'source%' order by 1");

/** An archive of one source table whose CSV is given, its manifest declaring `declared` bytes. */
async function archiveOf(csv: Buffer, declared = csv.length): Promise<string> {
  const gz = path.join(tmp, `${randomUUID()}.gz`);
  const bytes = zlib.gzipSync(csv);
  fs.writeFileSync(gz, bytes);
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    version: 1,
    createdAt: new Date().toISOString(),
    projectId: randomUUID(),
    tables: [
      {
        schema: "source",
        name: "Notes",
        columns: [{ name: "Note", type: "text", nullable: true }],
        key: [],
        rows: 0,
        csvBytes: declared,
        gzBytes: bytes.length,
        sha256: createHash("sha256").update(bytes).digest("hex"),
        entry: "source/0.csv.gz",
      },
    ],
  };
  const file = path.join(tmp, `${randomUUID()}.backup.tar`);
  await writeBackupArchive(file, manifest, [gz]);
  return file;
}

afterAll(async () => {
  for (const id of created) await dropProjectDatabase(dataPlane, server, id);
  await dataPlane.closePools();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(!TEST_POSTGRES_ADMIN_URL)("backups, restores and comparisons on PostgreSQL", () => {
  it("restores exactly what it backed up: leading zeros, NULL and empty strings, separators in text, every type; the destination untouched", async () => {
    const projectId = await freshProject();
    const rows = `insert into source."Customers" values (1, '007', 10.50, '2024-02-29', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),
      (2, '', null, null, null), (3, 'a,"b"' || chr(10) || 'c', -0.01, '1900-01-01', null)`;
    await run(projectId, rows);
    await run(projectId, `insert into source."Notes" values (null), ('')`);
    await run(projectId, `insert into destination."Notes" values ('kept')`);
    const before = await snapshot(projectId);
    const file = path.join(tmp, `${projectId}.backup.tar`);
    const manifest = await takeBackup(dataPlane, server, projectId, file, { tmpDir: tmp });
    expect(manifest.tables.map((t) => [t.schema, t.name, t.rows])).toEqual([
      ["source", "Customers", 3],
      ["source", "Notes", 2],
      ["destination", "Customers", 0],
      ["destination", "Notes", 1],
    ]);
    expect(manifest.tables[0]!.key).toEqual(["Id"]);
    expect((await verifyBackupArchive(file)).tables).toHaveLength(4);

    await run(projectId, `delete from source."Customers"; insert into source."Customers" ("Id") values (9)`);
    await run(projectId, `insert into destination."Notes" values ('after')`);
    const outcome = await restoreSource(dataPlane, server, projectId, [customers, notes], readBackupArchive(file, { schemas: ["source"] }));
    expect(outcome).toEqual({
      tables: [
        { table: "Customers", rows: 3 },
        { table: "Notes", rows: 2 },
      ],
      emptyTables: [],
      leftOutTables: [],
      leftOutColumns: [],
      emptyColumns: [],
    });
    expect(await snapshot(projectId)).toEqual(before);
    expect((await snapshot(projectId, "destination"))[0].n).toEqual(["(after)", "(kept)"]);
    expect(await schemasOf(projectId)).toEqual([{ nspname: "source" }]);
    // The reader may still read the restored tables (grants follow the new schema).
    const grants = await run(projectId, `select has_table_privilege('${`dt_${projectId.replaceAll("-", "")}_reader`}', 'source."Customers"', 'select') as ok`);
    expect(grants).toEqual([{ ok: true }]);
  });

  it("is all or nothing: a value that does not fit refuses the restore with its table, row, column and reason, the source as before, no schema left", async () => {
    const projectId = await freshProject();
    await run(projectId, `insert into source."Customers" ("Id", "Code") values (1, 'A')`);
    const before = await snapshot(projectId);
    async function* inputs(): AsyncGenerator<TableInput> {
      yield { table: "notes", columns: [{ name: "note", type: null }], csv: csvOf("Note\nfine\n"), bytes: null };
      yield {
        table: "CUSTOMERS",
        columns: [
          { name: "Id", type: null },
          { name: "Extra", type: null },
        ],
        csv: csvOf("Id,Extra\n1,x\nabc,y\n"),
        bytes: null,
      };
    }
    // An input with a column the dictionary lacks (Extra) is staged, then cast: the refusal still names the row (the header being row 1).
    await expect(restoreSource(dataPlane, server, projectId, [customers, notes], inputs())).rejects.toThrow(
      'Table "Customers", row 3, column Id: not a whole number ("abc"). Nothing was restored.',
    );
    expect(await snapshot(projectId)).toEqual(before);
    expect(await schemasOf(projectId)).toEqual([{ nspname: "source" }]);
  });

  it("names the row of a refused value as a person counts rows, past values that span lines, whether the input has a column the dictionary lacks or not", async () => {
    const projectId = await freshProject();
    await run(projectId, `insert into source."Customers" ("Id", "Code") values (1, 'A')`);
    const before = await snapshot(projectId);
    const restore = (columns: string[], csv: string) =>
      restoreSource(
        dataPlane,
        server,
        projectId,
        [customers, notes],
        (async function* (): AsyncGenerator<TableInput> {
          yield { table: "Customers", columns: columns.map((name) => ({ name, type: null })), csv: csvOf(csv), bytes: null };
        })(),
      );
    // Row 2 spans three lines of text: the bad date is on line 5, in row 3.
    await expect(restore(["Id", "Code", "Since"], 'Id,Code,Since\n1,"two\nline\nbreaks",2020-01-01\n2,B,2020-02-31\n')).rejects.toThrow(
      'Table "Customers", row 3, column Since: not a date (yyyy-mm-dd) ("2020-02-31"). Nothing was restored.',
    );
    await expect(restore(["Id", "Code", "Since", "Extra"], 'Id,Code,Since,Extra\n1,"two\nlines",2020-01-01,x\n2,B,2020-02-31,y\n')).rejects.toThrow(
      'Table "Customers", row 3, column Since: not a date (yyyy-mm-dd) ("2020-02-31"). Nothing was restored.',
    );
    await expect(restore(["Id", "Code", "Extra"], "Id,Code,Extra\n1,A,x\n,B,y\n")).rejects.toThrow(
      'Table "Customers", row 3, column Id: a value is required. Nothing was restored.',
    );
    await expect(restore(["Id", "Code"], "Id,Code\n7,A\n7,B\n")).rejects.toThrow(
      'Table "Customers": more than one row has the key Id = 7, and a key names one row. Nothing was restored.',
    );
    // A header naming one column twice (in any case) would have COPY refuse in PostgreSQL's words, or one value overwrite the other.
    await expect(restore(["Id", "CODE", "code"], "Id,CODE,code\n1,A,B\n")).rejects.toThrow(
      'Table "Customers": its header names column Code more than once. Nothing was restored.',
    );
    await expect(restore(["Id", "Code"], "Id,Code\n1,A\n2,B,C\n")).rejects.toThrow(
      'Table "Customers", row 3: more values than the header names. Nothing was restored.',
    );
    // The product's own inputs, read again from their start for the row: a backup archive's entry, a SQLite export's table.
    const archive = await archiveOf(Buffer.from(`Note\n"two\nlines"\nfine\n${"x".repeat(30)}\n`));
    await expect(restoreSource(dataPlane, server, projectId, [customers, notes], readBackupArchive(archive, { schemas: ["source"] }))).rejects.toThrow(
      'Table "Notes", row 4, column Note: longer than 20 characters. Nothing was restored.',
    );
    const exported = path.join(tmp, `${randomUUID()}.sqlite`);
    const sqlite = new Database(exported);
    sqlite.exec(
      `create table customers (Id integer, Code text, Since text); insert into customers values (1, 'two' || char(10) || 'lines', '2020-01-01'), (2, 'B', '2020-02-31')`,
    );
    sqlite.close();
    const plan = inspectSqliteExport(exported, [customers, notes]);
    await expect(restoreSource(dataPlane, server, projectId, [customers, notes], sqliteTableInputs(exported, plan))).rejects.toThrow(
      'Table "Customers", row 3, column Since: not a date (yyyy-mm-dd) ("2020-02-31"). Nothing was restored.',
    );
    expect(await snapshot(projectId)).toEqual(before);
    expect(await schemasOf(projectId)).toEqual([{ nspname: "source" }]);
  });

  it("refuses an archive that expands beyond what it declares, or far too much, as a zip bomb", async () => {
    const zeros = Buffer.alloc(20 * 1024 * 1024, "0");
    await expect(verifyBackupArchive(await archiveOf(zeros))).rejects.toThrow(/expands \d+ times: refused, like a zip bomb/);
    const lying = await archiveOf(Buffer.from(`Note\n${"x\n".repeat(5000)}`), 100);
    await expect(verifyBackupArchive(lying)).rejects.toThrow(/expands beyond the size its manifest declares/);
    const projectId = await freshProject();
    await expect(restoreSource(dataPlane, server, projectId, [customers, notes], readBackupArchive(lying, { schemas: ["source"] }))).rejects.toThrow(
      /expands beyond/,
    );
    expect(await schemasOf(projectId)).toEqual([{ nspname: "source" }]);
  });

  it("a value refused deep inside a large archive's table ends the restore promptly, with its line, nothing changed", async () => {
    const projectId = await freshProject();
    await run(projectId, `insert into source."Notes" values ('before')`);
    const lines = Array.from({ length: 300_000 }, (_, i) => (i === 250_000 ? "x".repeat(30) : `note ${i}`));
    const file = await archiveOf(Buffer.from(`Note\n${lines.join("\n")}\n`));
    await expect(restoreSource(dataPlane, server, projectId, [customers, notes], readBackupArchive(file, { schemas: ["source"] }))).rejects.toThrow(
      'Table "Notes", row 250002, column Note: longer than 20 characters. Nothing was restored.',
    );
    expect((await snapshot(projectId))[0].n).toEqual(["(before)"]);
    expect(await schemasOf(projectId)).toEqual([{ nspname: "source" }]);
  });

  it("a backup cancelled mid-copy ends at once, leaves no file, and the next backup works", async () => {
    const projectId = await freshProject();
    await run(projectId, `insert into source."Notes" select 'note ' || g from generate_series(1, 1500000) g`);
    const file = path.join(tmp, `${projectId}-cancelled.backup.tar`);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("Cancelled by the test")), 150);
    const started = Date.now();
    await expect(takeBackup(dataPlane, server, projectId, file, { tmpDir: tmp, signal: controller.signal })).rejects.toThrow(/aborted|Cancelled by the test/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.readdirSync(tmp).filter((f) => f.startsWith("backup-"))).toEqual([]);
    // A progress report that fails does not stop the backup (nor the process).
    const manifest = await takeBackup(dataPlane, server, projectId, file, { tmpDir: tmp, onProgress: () => Promise.reject(new Error("control plane away")) });
    expect(manifest.tables.find((t) => t.schema === "source" && t.name === "Notes")?.rows).toBe(1_500_000);
  }, 60_000);

  it("reads a load's tables first and lets them go: the load empties and fills them while the rest is backed up, and the backup holds every table as it was", async () => {
    const projectId = await freshProject();
    await run(projectId, `insert into source."Customers" ("Id", "Code") values (1, 'a'), (2, 'b'), (3, 'c')`);
    await run(projectId, `insert into source."Notes" values ('before')`);
    const before = await snapshot(projectId);
    const file = path.join(tmp, `${projectId}-first.backup.tar`);
    const order: string[] = [];
    const manifest = await takeBackup(dataPlane, server, projectId, file, {
      tmpDir: tmp,
      readFirst: {
        tables: [{ schema: "source", name: "Customers" }],
        // The load's work, before the backup reads the rest: its table's lock must be free by now
        // (a lock the backup kept would time out here), and what it and anyone else commit meanwhile
        // is not in the backup.
        read: async () => {
          order.push("read");
          await run(projectId, `begin; set local lock_timeout = '2s'; truncate source."Customers"; insert into source."Customers" ("Id") values (9); commit`);
          await run(projectId, `insert into source."Notes" values ('during')`);
        },
      },
    });
    order.push("done");
    expect(order).toEqual(["read", "done"]);
    expect(manifest.tables.map((t) => [t.schema, t.name, t.rows])).toEqual([
      ["source", "Customers", 3],
      ["source", "Notes", 1],
      ["destination", "Customers", 0],
      ["destination", "Notes", 0],
    ]);
    await restoreSource(dataPlane, server, projectId, [customers, notes], readBackupArchive(file, { schemas: ["source"] }));
    expect(await snapshot(projectId)).toEqual(before);
  });

  it("compares whole rows where a table has no key, a duplicated row counting per copy", async () => {
    const projectId = await freshProject();
    await run(projectId, `insert into source."Notes" values ('a'), ('a'), ('b'), (null)`);
    async function* earlier(): AsyncGenerator<TableInput> {
      yield { table: "Notes", columns: [{ name: "Note", type: "character varying(20)" }], csv: csvOf("Note\na\nc\n\n"), bytes: null };
    }
    const [customersResult, notesResult] = await compareSource(dataPlane, server, projectId, [customers, notes], earlier());
    expect(notesResult).toMatchObject({ table: "Notes", key: null, earlierRows: 3, currentRows: 4, added: 2, removed: 1, changed: 0 });
    expect(notesResult!.samples.removed).toEqual([["c"]]);
    expect(notesResult!.samples.added.map((r) => r[0]).sort()).toEqual(["a", "b"]);
    // A table the earlier data lacks: every current row is added (none here).
    expect(customersResult).toMatchObject({ table: "Customers", added: 0, removed: 0 });
  });

  it("restores a backup of another shape: its columns the dictionary lacks left out, the dictionary's it lacks left empty, both said", async () => {
    const projectId = await freshProject();
    async function* earlier(): AsyncGenerator<TableInput> {
      const columns = [
        { name: "Id", type: "integer" },
        { name: "code", type: "character varying(20)" },
        { name: "Phone", type: "character varying(20)" },
      ];
      yield { table: "Customers", columns, csv: csvOf("Id,code,Phone\n1,A,555-0100\n"), bytes: null };
    }
    const outcome = await restoreSource(dataPlane, server, projectId, [customers, notes], earlier());
    expect(outcome).toMatchObject({
      leftOutColumns: [{ table: "Customers", column: "Phone" }],
      emptyColumns: ["Balance", "Since", "Ref"].map((column) => ({ table: "Customers", column })),
      emptyTables: ["Notes"],
    });
    expect(restoreNotes(outcome)).toBe(
      "Tables with nothing to restore, now empty: Notes. Columns left out, not in the data dictionary: Customers.Phone. Columns with nothing to restore, now empty: Customers.Balance, Customers.Since, Customers.Ref.",
    );
    expect((await snapshot(projectId))[0].c).toEqual(["(1,A,,,)"]);
  });

  it("restores text of a backup into a column since made a date, read in the workspace's date order", async () => {
    const projectId = await freshProject();
    // Taken while Since was text, as a day-first delivery wrote it.
    async function* earlier(): AsyncGenerator<TableInput> {
      const columns = [
        { name: "Id", type: "integer" },
        { name: "Since", type: "character varying(20)" },
      ];
      yield { table: "Customers", columns, csv: csvOf("Id,Since\n1,13/01/2020\n2,03/04/2020\n3,2020-05-06\n"), bytes: null };
    }
    await restoreSource(dataPlane, server, projectId, [customers, notes], earlier(), { dateOrder: "DMY" });
    expect(await run(projectId, `select "Since"::text as d from source."Customers" order by "Id"`)).toEqual([
      { d: "2020-01-13" },
      { d: "2020-04-03" },
      { d: "2020-05-06" },
    ]);
  });

  it("compares earlier data of another shape: names matched in any case, and the columns removed, added or retyped said", async () => {
    const projectId = await freshProject();
    await run(projectId, `insert into source."Customers" ("Id", "Code", "Since") values (1, 'A', '2024-01-31'), (2, 'B', '2024-02-01')`);
    // Taken before the dictionary changed: Code spelled code, a Phone since dropped, Since then text.
    async function* earlier(): AsyncGenerator<TableInput> {
      const columns = [
        { name: "Id", type: "integer" },
        { name: "code", type: "character varying(20)" },
        { name: "Phone", type: "character varying(20)" },
        { name: "Since", type: "character varying(20)" },
      ];
      yield { table: "Customers", columns, csv: csvOf("Id,code,Phone,Since\n1,A,555-0100,2024-01-31\n2,C,555-0101,2024-02-01\n"), bytes: null };
    }
    const [result] = await compareSource(dataPlane, server, projectId, [customers, notes], earlier());
    expect(result).toMatchObject({ table: "Customers", key: ["Id"], columns: ["Id", "Code", "Since"], added: 0, removed: 0, changed: 1 });
    expect(result!.changedColumns).toEqual([{ column: "Code", rows: 1 }]);
    expect(result!.columnChanges).toEqual([
      { column: "Phone", earlier: "nvarchar(20)", current: null },
      { column: "Since", earlier: "nvarchar(20)", current: "date" },
      { column: "Balance", earlier: null, current: "decimal(12, 2)" },
      { column: "Ref", earlier: null, current: "uniqueidentifier" },
    ]);
  });

  it("a restore killed mid-copy (kill -9) leaves the source exactly as before, and no schema behind", async () => {
    const projectId = await freshProject();
    await run(projectId, `insert into source."Notes" values ('before')`);
    const script = path.join(tmp, "restore-forever.mts");
    fs.writeFileSync(
      script,
      `import { createDataPlane } from ${JSON.stringify(path.resolve(import.meta.dirname, "../servers.ts"))};
import { restoreSource } from ${JSON.stringify(path.resolve(import.meta.dirname, "restore-source.ts"))};
const TEST_DATABASE_SERVER = ${JSON.stringify(server)};
const dataPlane = createDataPlane([{ id: TEST_DATABASE_SERVER, adminUrl: ${JSON.stringify(TEST_PROJECT_DATABASES_ADMIN_URL)} }], { secret: "unused here" });
async function* csv() { yield Buffer.from("Note\\n"); let n = 0; for (;;) { yield Buffer.from("row\\n".repeat(10000)); if (++n === 5) console.log("copying"); await new Promise((r) => setTimeout(r, 5)); } }
async function* inputs() { yield { table: "Notes", columns: [{ name: "Note", type: null }], csv: csv(), bytes: null }; }
await restoreSource(dataPlane, TEST_DATABASE_SERVER, ${JSON.stringify(projectId)}, [{ name: "Notes", columns: [{ name: "Note", type: "nvarchar", length: 20, precision: null, scale: null, nullable: true, isKey: false }] }], inputs());
`,
    );
    const child = spawn(process.execPath, ["--import", "tsx", script], { env: { ...process.env }, stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (d: Buffer) => d.toString().includes("copying") && resolve());
      child.on("exit", (code) => reject(new Error(`the restore ended by itself (${code})`)));
    });
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    // PostgreSQL notices the dead connection and rolls its transaction back.
    await vi.waitFor(async () => expect(await schemasOf(projectId)).toEqual([{ nspname: "source" }]), { timeout: 5_000, interval: 100 });
    expect((await snapshot(projectId))[0].n).toEqual(["(before)"]);
  }, 60_000);
});
