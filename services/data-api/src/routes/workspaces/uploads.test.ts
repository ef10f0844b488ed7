import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import type { Project } from "../../../../../contracts/projects.ts";
import type { StagedUpload } from "../../../../../contracts/loads.ts";
import { DEMO_COMPANIES } from "../../../../../scripts/demo-data.ts";
import { TEST_POSTGRES_ADMIN_URL } from "../../../../shared/testing/databases.ts";
import { databaseNameOf } from "../../data-plane/project-databases.ts";
import { INTERRUPTED_MESSAGE, recoverInterruptedJobs } from "../../jobs/recover.ts";
import { stagedUploadsDir } from "../../data-plane/flat-file/staged-uploads.ts";
import { TEST_DATABASE_SERVER, USERS, createOwnerTestApi, type TestApi } from "../../testing/harness.ts";
import { holdJobsOf, settleJobs } from "../../testing/hold-jobs.ts";
import { zipOf } from "../../testing/xlsx-files.ts";
import { addProjectTable, column, loadableProject } from "../../testing/project-fixtures.ts";
import { PREVIEW_READ_OTHERWISE_MESSAGE } from "./loads.ts";

const [, , birch] = DEMO_COMPANIES;

describe.skipIf(!TEST_POSTGRES_ADMIN_URL)("flat-file uploads: preview, then load without sending again", () => {
  let api: TestApi;
  let applicationId: string;
  let owner: string;

  beforeAll(async () => {
    ({ api, applicationId, owner } = await createOwnerTestApi("sqlite", birch.id));
  });
  afterEach(() => settleJobs(api.jobs));
  afterAll(() => api?.close());

  const ready = () => loadableProject(api, owner, { companyId: birch.id, applicationId, sourceType: "BackUp" });

  async function stage(project: Project, files: { name: string; text: string }[], fields: Record<string, string> = {}, token = owner) {
    return api.postForm(`/api/v1/projects/${project.id}/flat-file/uploads`, token, { file: files.map((f) => ({ name: f.name, content: f.text })), ...fields });
  }
  const startStaged = (project: Project, body: Record<string, string>, token = owner) =>
    api.send("POST", `/api/v1/projects/${project.id}/flat-file/loads`, token, body);
  const rowsOf = (project: Project) =>
    api.dataPlane.withAdmin(
      TEST_DATABASE_SERVER,
      databaseNameOf(project.id),
      async (client) => (await client.query(`select "CustomerId", "Code" from source."Customers" order by 1`)).rows,
    );

  const ordersOf = (project: Project) =>
    api.dataPlane.withAdmin(
      TEST_DATABASE_SERVER,
      databaseNameOf(project.id),
      async (client) => (await client.query(`select "OrderId" from source."Orders" order by 1`)).rows,
    );

  it("previews the first rows as read, with the columns matched, then loads the same file from its upload id", async () => {
    const project = await ready();
    const lines = ["CustomerId;code;Extra", ...Array.from({ length: 30 }, (_, i) => `${i + 1};00${i};x`)];
    const staged = await stage(project, [{ name: "customers.csv", text: lines.join("\n") }], { table: "Customers" });
    expect(staged.status, JSON.stringify(staged.body)).toBe(201);
    const preview = staged.body as StagedUpload;
    // No choice sent: the load under the preview starts from the defaults.
    expect(preview).toMatchObject({ mode: "replace", onRejected: "loadNothing" });
    expect(preview.files).toHaveLength(1);
    const [file] = preview.files;
    expect(file).toMatchObject({
      name: "customers.csv",
      table: "Customers",
      delimiter: "Semicolon",
      header: ["CustomerId", "code", "Extra"],
      missingColumns: ["Balance", "Since"],
      extraColumns: ["Extra"],
    });
    expect(file!.rows).toHaveLength(20);
    expect(file!.rows[0]).toEqual({ line: 2, cells: ["1", "000", "x"] });
    expect(file!.columns).toEqual([
      { file: "CustomerId", table: "CustomerId" },
      { file: "code", table: "Code" },
      { file: "Extra", table: null },
    ]);
    expect(file!.problem).toMatch(/lacks: Extra/);
    // The preview is there again by its id (the page shows it after a redirect), and only under its own project.
    expect((await api.get(`/api/v1/projects/${project.id}/flat-file/uploads/${preview.uploadId}`, owner)).body).toEqual(preview);
    const other = await ready();
    expect((await api.get(`/api/v1/projects/${other.id}/flat-file/uploads/${preview.uploadId}`, owner)).status).toBe(404);

    // A file without the extra column loads from its upload, and the upload is gone afterwards. The
    // choices sent with it are kept with its preview, also when read again by its id.
    const choices = { table: "Customers", mode: "append", onRejected: "loadOthers" };
    const good = (await stage(project, [{ name: "customers.csv", text: "CustomerId,Code\n1,007\n2,010\n" }], choices)).body as StagedUpload;
    expect(good.files[0]!.problem).toBeNull();
    expect(good).toMatchObject({ mode: "append", onRejected: "loadOthers" });
    expect((await api.get(`/api/v1/projects/${project.id}/flat-file/uploads/${good.uploadId}`, owner)).body).toEqual(good);
    const wrong = await stage(project, [{ name: "customers.csv", text: "CustomerId\n1\n" }], { ...choices, mode: "merge" });
    expect(wrong).toMatchObject({ status: 400, body: { fieldErrors: { mode: ["Choose how to load"] } } });
    const started = await startStaged(project, { uploadId: good.uploadId });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body.load).toMatchObject({ fileName: "customers.csv", tableName: "Customers" });
    await api.jobs.idle();
    expect(await rowsOf(project)).toEqual([
      { CustomerId: 1, Code: "007" },
      { CustomerId: 2, Code: "010" },
    ]);
    // Its entry says what it loaded, and no "Skipped" of the one file it loaded.
    const { entry } = (await api.get(`/api/v1/projects/${project.id}/history/${started.body.load.id}`, owner)).body;
    expect(entry).toMatchObject({ status: "Loaded", message: null });
    expect((await api.get(`/api/v1/projects/${project.id}/flat-file/uploads/${good.uploadId}`, owner)).status).toBe(404);
    expect(fs.readdirSync(stagedUploadsDir(api.dataDir)).filter((n) => n.startsWith(good.uploadId))).toEqual([]);
    // Loaded once: the same id again is refused with a message at the file, nothing started.
    const again = await startStaged(project, { uploadId: good.uploadId });
    expect(again).toMatchObject({ status: 400, body: { fieldErrors: { file: [expect.stringMatching(/choose it again/)] } } });
  });

  it("refuses a load under a preview read with other parameters than those saved now (saved in another tab), loading nothing; read again, it loads", async () => {
    const saveParameters = async (project: Project, hasHeaderRow: boolean) => {
      const { version } = (await api.get(`/api/v1/projects/${project.id}`, owner)).body as Project;
      const saved = await api.send("POST", `/api/v1/projects/${project.id}/updateFlatFileParameters`, owner, {
        version,
        extension: ".csv",
        delimiter: "Comma",
        hasHeaderRow,
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    };
    const project = await loadableProject(api, owner, { companyId: birch.id, applicationId, sourceType: "FlatFile" }, (p) => saveParameters(p, true));
    const preview = (
      await stage(project, [{ name: "customers.csv", text: "CustomerId,Code,Balance,Since\n1,007,,\n" }], { table: "Customers", mode: "append" })
    ).body as StagedUpload;
    expect(preview.files[0]).toMatchObject({ header: ["CustomerId", "Code", "Balance", "Since"], problem: null });
    // Another tab saves the parameters without the header row: the page under the preview still shows it read with one.
    await saveParameters(project, false);
    const stale = await startStaged(project, { uploadId: preview.uploadId });
    expect(stale).toMatchObject({ status: 409, body: { errors: [PREVIEW_READ_OTHERWISE_MESSAGE] } });
    await api.jobs.idle();
    expect(await rowsOf(project)).toEqual([]);
    // The page asks the preview again after the refusal: read as the load will read it, the header a row now; then it loads.
    const again = (await api.get(`/api/v1/projects/${project.id}/flat-file/uploads/${preview.uploadId}`, owner)).body as StagedUpload;
    expect(again.files[0]).toMatchObject({ header: null });
    expect(again.files[0]!.rows[0]).toMatchObject({ line: 1, cells: ["CustomerId", "Code", "Balance", "Since"] });
    const started = await startStaged(project, { uploadId: preview.uploadId, onRejected: "loadOthers" });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    await api.jobs.idle();
    const { entry } = (await api.get(`/api/v1/projects/${project.id}/history/${started.body.load.id}`, owner)).body;
    expect(entry, JSON.stringify(entry)).toMatchObject({ status: "Loaded", rowsLoaded: 1, rowsRejected: 1 });
    expect(await rowsOf(project)).toEqual([{ CustomerId: 1, Code: "007" }]);
  });

  it("says of each previewed row the load would reject why, as the load would: a bad date, a text too long, a bad decimal, a row too short", async () => {
    const project = await ready();
    const text = [
      "CustomerId,Code,Balance,Since",
      "1,A1,10.50,2026-09-30",
      "2,A2,1.00,2021-13-40",
      "3,ABCDEFGHIJK,2.00,",
      "4,A4,1.234,",
      "5,A5",
      "x,A6,1.234,",
    ].join("\n");
    const preview = (await stage(project, [{ name: "customers.csv", text }], { table: "Customers" })).body as StagedUpload;
    expect(preview.files[0]!.rows.map((r) => r.rejected ?? null)).toEqual([
      null,
      { column: "Since", value: "2021-13-40", reason: "not a date (yyyy-mm-dd)" },
      { column: "Code", value: "ABCDEFGHIJK", reason: "longer than 10 characters" },
      { column: "Balance", value: "1.234", reason: "more than 2 decimals" },
      { column: null, value: null, reason: expect.stringMatching(/2 values/) },
      // A row with several cells that do not fit: the first is its column, the others are named in its reason, as the load says.
      { column: "CustomerId", value: "x", reason: "not a whole number; also Balance: more than 2 decimals" },
    ]);
    // The preview's problem is the file's: these rows do not refuse the load by themselves.
    expect(preview.files[0]!.problem).toBeNull();
  });

  it("matches several files to tables by name, lists what matches nothing, and refuses several files as a single file", async () => {
    const project = await ready();
    const files = [
      { name: "CUSTOMERS.csv", text: "CustomerId,Code\n1,A\n" },
      { name: "Suppliers.csv", text: "Id\n1\n" },
    ];
    const single = await stage(project, files, { uploadType: "SingleFile" });
    expect(single).toMatchObject({ status: 400, body: { fieldErrors: { file: [expect.stringMatching(/Multiple files/)] } } });
    const multiple = (await stage(project, files, { uploadType: "MultipleFiles" })).body as StagedUpload;
    expect(multiple.files.map((f) => [f.name, f.table])).toEqual([
      ["CUSTOMERS.csv", "Customers"],
      ["Suppliers.csv", null],
    ]);
    expect(multiple.unmatchedTables).toEqual(["Orders"]);
  });

  it("refuses two files of one upload that go into the same table (Customers.csv and customers.txt), at the file: never a 500, nothing loaded", async () => {
    const project = await ready();
    await startStaged(project, { uploadId: ((await stage(project, [{ name: "Customers.csv", text: "CustomerId,Code\n1,KEEP\n" }])).body as StagedUpload).uploadId });
    await api.jobs.idle();
    const twice = [
      { name: "Customers.csv", text: "CustomerId,Code\n2,A\n" },
      { name: "customers.txt", text: "CustomerId,Code\n3,B\n" },
    ];
    const stagedBefore = fs.readdirSync(stagedUploadsDir(api.dataDir));
    const refused = await stage(project, twice, { uploadType: "MultipleFiles" });
    const words = "Customers.csv and customers.txt both go into the table Customers: each table takes one file. Leave one of them out";
    expect(refused).toMatchObject({ status: 400, body: { fieldErrors: { file: [words] } } });
    // In a .zip too; and nothing of either upload is kept.
    const zipped = await api.postForm(`/api/v1/projects/${project.id}/flat-file/uploads`, owner, {
      file: { name: "delivery.zip", content: zipOf(twice.map((f) => ({ name: f.name, data: f.text }))) },
      uploadType: "MultipleFiles",
    });
    expect(zipped).toMatchObject({ status: 400, body: { fieldErrors: { file: [words] } } });
    expect(fs.readdirSync(stagedUploadsDir(api.dataDir))).toEqual(stagedBefore);

    // Two files named after no table are previewed (and left out); once the dictionary has that table, the preview read
    // again matches both to it, and the load is refused before anything starts, the upload kept.
    const clients = [
      { name: "Clients.csv", text: "ClientId\n1\n" },
      { name: "CLIENTS.txt", text: "ClientId\n2\n" },
    ];
    const before = (await stage(project, clients, { uploadType: "MultipleFiles" })).body as StagedUpload;
    expect(before.files.map((f) => f.table)).toEqual([null, null]);
    await addProjectTable(api, project.id, { name: "Clients", columns: [column("ClientId", "int")] });
    const again = (await api.get(`/api/v1/projects/${project.id}/flat-file/uploads/${before.uploadId}`, owner)).body as StagedUpload;
    expect(again.files.map((f) => f.table)).toEqual(["Clients", "Clients"]);
    const load = await startStaged(project, { uploadId: before.uploadId });
    expect(load).toMatchObject({
      status: 400,
      body: { fieldErrors: { file: ["Clients.csv and CLIENTS.txt both go into the table Clients: each table takes one file. Leave one of them out"] } },
    });
    expect((await api.get(`/api/v1/projects/${project.id}/flat-file/uploads/${before.uploadId}`, owner)).status).toBe(200);
    await api.jobs.idle();
    expect(await rowsOf(project)).toEqual([{ CustomerId: 1, Code: "KEEP" }]);
    expect((await api.get(`/api/v1/projects/${project.id}/history`, owner)).body.total).toBe(1);
  });

  it("loads several files in one job, a step per file and one transaction: a rejected row in one leaves every table as it was", async () => {
    const project = await ready();
    const files = [
      { name: "Customers.csv", text: "CustomerId,Code\n1,007\n2,010\n" },
      { name: "orders.csv", text: "OrderId,Note\n5,first\nx,bad\n" },
      { name: "readme.txt", text: "Not a table\n" },
    ];
    const refusedUpload = (await stage(project, files, { uploadType: "MultipleFiles" })).body as StagedUpload;
    const refused = await startStaged(project, { uploadId: refusedUpload.uploadId });
    expect(refused.status, JSON.stringify(refused.body)).toBe(202);
    // The file named after no table is left out, and the entry says so from the start.
    const skipped = "Skipped, named after no table of the dictionary: readme.txt (no table 'readme').";
    expect(refused.body.load).toMatchObject({ fileName: "2 files", tableName: "2 tables", message: skipped });
    await api.jobs.idle();
    expect(await rowsOf(project)).toEqual([]);
    const { entry } = (await api.get(`/api/v1/projects/${project.id}/history/${refused.body.load.id}`, owner)).body;
    expect(entry).toMatchObject({ status: "Refused", rowsRejected: 1 });
    expect(entry.message).toBe(`1 row was rejected, so nothing was loaded (“Load nothing”). ${skipped}`);
    expect(entry.tables.map((t: any) => [t.table, t.fileName, t.rowsRead, t.rowsLoaded, t.rowsRejected])).toEqual([
      ["Customers", "Customers.csv", 2, 0, 0],
      ["Orders", "orders.csv", 2, 0, 1],
    ]);
    const jobs = (await api.get(`/api/v1/projects/${project.id}/jobs`, owner)).body;
    expect(jobs.jobs[0].steps.map((s: any) => [s.name, s.status])).toEqual([
      ["Back up the current data", "Completed"],
      ["Load Customers.csv into Customers", "Completed"],
      ["Load orders.csv into Orders", "Failed"],
    ]);

    const fixed = [files[0]!, { name: "orders.csv", text: "OrderId,Note\n5,first\n6,second\n" }];
    const good = (await stage(project, fixed, { uploadType: "MultipleFiles" })).body as StagedUpload;
    const started = await startStaged(project, { uploadId: good.uploadId });
    expect(started.status).toBe(202);
    await api.jobs.idle();
    expect(await rowsOf(project)).toEqual([
      { CustomerId: 1, Code: "007" },
      { CustomerId: 2, Code: "010" },
    ]);
    expect(await ordersOf(project)).toEqual([{ OrderId: 5 }, { OrderId: 6 }]);
    expect((await api.get(`/api/v1/projects/${project.id}/jobs`, owner)).body.jobs[0]).toMatchObject({ status: "SUCCESS", progress: 100 });

    // A file of the upload without rows: its preview says a Replace is refused, and the load refuses every file's Replace.
    const header = [
      { name: "Customers.csv", text: "CustomerId,Code\n3,030\n" },
      { name: "orders.csv", text: "OrderId,Note\r\n" },
    ];
    const emptying = (await stage(project, header, { uploadType: "MultipleFiles" })).body as StagedUpload;
    expect(emptying.files.map((f) => f.problem)).toEqual([null, "The file has no rows: loading it with Replace is refused, as it would empty Orders"]);
    const refusedWhole = await startStaged(project, { uploadId: emptying.uploadId });
    expect(refusedWhole.status).toBe(202);
    await api.jobs.idle();
    const refusedEntry = (await api.get(`/api/v1/projects/${project.id}/history/${refusedWhole.body.load.id}`, owner)).body.entry;
    expect(refusedEntry).toMatchObject({
      status: "Refused",
      rowsLoaded: 0,
      message: "orders.csv: the file has no rows, so Replace would have emptied Orders. Nothing was loaded.",
    });
    expect(await rowsOf(project)).toEqual([
      { CustomerId: 1, Code: "007" },
      { CustomerId: 2, Code: "010" },
    ]);
    expect(await ordersOf(project)).toEqual([{ OrderId: 5 }, { OrderId: 6 }]);
  });

  it("keeps the files it skipped in the entry of a load a restart ended, after the interruption", async () => {
    const project = await ready();
    // The "kill": this process's runner never gets past the step's start; the restart's recovery ends the job.
    let kill!: (err: Error) => void;
    const dead = new Promise<void>((_, reject) => (kill = reject));
    dead.catch(() => undefined);
    api.jobs.hooks.beforeStep = (step) => (step.projectId === project.id ? dead : undefined);
    const files = [
      { name: "Customers.csv", text: "CustomerId,Code\n1,007\n" },
      { name: "readme.txt", text: "Not a table\n" },
    ];
    const staged = (await stage(project, files, { uploadType: "MultipleFiles" })).body as StagedUpload;
    const started = await startStaged(project, { uploadId: staged.uploadId });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(await recoverInterruptedJobs(api.db)).toHaveLength(1);
    const { entry } = (await api.get(`/api/v1/projects/${project.id}/history/${started.body.load.id}`, owner)).body;
    expect(entry).toMatchObject({
      status: "Failed",
      message: `${INTERRUPTED_MESSAGE}. Nothing was changed. Skipped, named after no table of the dictionary: readme.txt (no table 'readme').`,
    });
    kill(new Error("killed"));
  });

  it("unpacks a .zip sent as multiple files, each file matched to its table, and refuses a .zip as a single file", async () => {
    const project = await ready();
    const text = (t: string) => new TextEncoder().encode(t);
    const zip = zipOf([
      { name: "delivery/Customers.csv", data: text("CustomerId,Code\n1,007\n") },
      { name: "delivery/orders.csv", data: text("OrderId,Note\n5,first\n"), store: true },
      { name: "__MACOSX/delivery/._Customers.csv", data: text("junk") },
      { name: "delivery/Unknown.csv", data: text("a,b\n1,2\n") },
    ]);
    const form = (uploadType: string) =>
      api.postForm(`/api/v1/projects/${project.id}/flat-file/uploads`, owner, { file: { name: "delivery.zip", content: zip }, uploadType });
    const single = await form("SingleFile");
    expect(single.status).toBe(400);
    expect(single.body.fieldErrors.file[0]).toMatch(/choose Multiple files/);
    const res = await form("MultipleFiles");
    expect(res.status).toBe(201);
    const preview = res.body as StagedUpload;
    expect(preview.files.map((f) => [f.name, f.table, f.rows[0]?.cells, f.problem])).toEqual([
      ["Customers.csv", "Customers", ["1", "007"], null],
      ["orders.csv", "Orders", ["5", "first"], null],
      ["Unknown.csv", null, expect.anything(), null],
    ]);
    expect(preview.unmatchedTables).toEqual([]);
    // Loaded: the file that matched no table is named in the entry, with why, as the preview flagged it.
    const started = await startStaged(project, { uploadId: preview.uploadId });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    await api.jobs.idle();
    const { entry } = (await api.get(`/api/v1/projects/${project.id}/history/${started.body.load.id}`, owner)).body;
    expect(entry).toMatchObject({
      status: "Loaded",
      rowsLoaded: 2,
      message: "Skipped, named after no table of the dictionary: Unknown.csv (no table 'Unknown').",
    });

    const refused = await api.postForm(`/api/v1/projects/${project.id}/flat-file/uploads`, owner, {
      file: { name: "broken.zip", content: text("not a zip at all") },
      uploadType: "MultipleFiles",
    });
    expect(refused.status).toBe(400);
    expect(refused.body.fieldErrors.file[0]).toMatch(/broken.zip could not be unpacked/);
  });

  it("names what is wrong with a file or the form, keeps nothing, and is 404 for another company's project", async () => {
    const project = await ready();
    expect(await stage(project, [])).toMatchObject({ status: 400, body: { fieldErrors: { file: ["Choose a file to load"] } } });
    expect(await stage(project, [{ name: "empty.csv", text: "" }])).toMatchObject({ status: 400, body: { fieldErrors: { file: ["The file is empty"] } } });
    expect(await stage(project, [{ name: "a.csv", text: "x\n1\n" }], { table: "Nope" })).toMatchObject({
      status: 400,
      body: { fieldErrors: { table: [expect.stringMatching(/no table 'Nope'/)] } },
    });
    const binary = (await stage(project, [{ name: "photo.csv", text: "\u0000\u0001PNG\u0000" }], { table: "Customers" })).body as StagedUpload;
    expect(binary.files[0]!.problem).toMatch(/binary/);
    const stranger = await api.tokenFor(USERS.viewer);
    expect((await stage(project, [{ name: "a.csv", text: "CustomerId\n1\n" }], {}, stranger)).status).toBe(404);
    // The refused ones left nothing behind.
    const left = fs.existsSync(stagedUploadsDir(api.dataDir)) ? fs.readdirSync(stagedUploadsDir(api.dataDir)) : [];
    expect(left.filter((n) => !fs.existsSync(path.join(stagedUploadsDir(api.dataDir), n, "manifest.json")))).toEqual([]);
  });

  it("a load refused because the project is locked keeps the upload, to load once the lock is gone", async () => {
    const project = await ready();
    const staged = (await stage(project, [{ name: "c.csv", text: "CustomerId,Code\n1,A\n" }], { table: "Customers" })).body as StagedUpload;
    const release = holdJobsOf(api.jobs, project.id);
    const first = (await stage(project, [{ name: "d.csv", text: "CustomerId,Code\n2,B\n" }], { table: "Customers" })).body as StagedUpload;
    expect((await startStaged(project, { uploadId: first.uploadId })).status).toBe(202);
    expect(await startStaged(project, { uploadId: staged.uploadId })).toMatchObject({ status: 409 });
    release();
    await api.jobs.idle();
    expect((await startStaged(project, { uploadId: staged.uploadId })).status).toBe(202);
    await api.jobs.idle();
    expect(await rowsOf(project)).toEqual([{ CustomerId: 1, Code: "A" }]);
  });
});
