import fs from "node:fs";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import type { HistoryEntry, Load } from "../../../../../contracts/loads.ts";
import { auditWriteLabel } from "../../../../../contracts/values/sql-access.ts";
import type { FlatFileParameters, Job, Project } from "../../../../../contracts/projects.ts";
import { DEMO_COMPANIES } from "../../../../../scripts/demo-data.ts";
import { TEST_DATABASE_KINDS, TEST_POSTGRES_ADMIN_URL } from "../../../../shared/testing/databases.ts";
import { savedAs } from "../../../../shared/testing/saved-as.ts";
import { databaseNameOf } from "../../data-plane/project-databases.ts";
import { SERVER_LOST_MESSAGE } from "../../data-plane/server-lost.ts";
import { INTERRUPTED_MESSAGE, recoverInterruptedJobs } from "../../jobs/recover.ts";
import { UPLOAD_STOPPED_MESSAGE } from "../../data-plane/flat-file/arriving-file.ts";
import { AUTOMATIC_BACKUP_SHARE } from "../../data-plane/backups/backup-jobs.ts";
import { NOT_TEXT_MESSAGE, ZIP_NOT_TEXT_MESSAGE } from "../../data-plane/flat-file/text-encoding.ts";
import { TEXT_NOT_WORKBOOK_MESSAGE } from "../../data-plane/flat-file/read-worksheet.ts";
import { TEST_DATABASE_SERVER, USERS, createOwnerTestApi, type TestApi } from "../../testing/harness.ts";
import { addProjectTable, column, loadableProject as loadableProjectOf, makeProject } from "../../testing/project-fixtures.ts";
import { holdJobsOf, settleJobs } from "../../testing/hold-jobs.ts";
import { sheetXml, textCell, workbookParts, zipOf } from "../../testing/xlsx-files.ts";

const [, acme, birch] = DEMO_COMPANIES;

describe.skipIf(!TEST_POSTGRES_ADMIN_URL).each(TEST_DATABASE_KINDS)("flat-file loads on %s", (kind) => {
  let api: TestApi;
  let applicationId: string;
  let owner: string;

  beforeAll(async () => {
    ({ api, applicationId, owner } = await createOwnerTestApi(kind, birch.id));
  });
  afterEach(() => settleJobs(api.jobs));
  afterAll(() => api?.close());

  /** A project whose databases exist (the fixture's tables), at "Setup: load source data"; with `parameters`, a Flat file project reading files so. */
  const loadableProject = (parameters?: Partial<FlatFileParameters>) =>
    loadableProjectOf(api, owner, { companyId: birch.id, applicationId, sourceType: parameters ? "FlatFile" : "BackUp" }, async (project) => {
      if (parameters) expect((await setParameters(project, parameters)).status).toBe(200);
    });

  /** Saves the parameters based on the project's version now (a save based on an older one is refused). */
  const setParameters = async (project: Project, parameters: Partial<FlatFileParameters>) =>
    api.send("POST", `/api/v1/projects/${project.id}/updateFlatFileParameters`, owner, {
      version: (await api.get(`/api/v1/projects/${project.id}`, owner)).body.version,
      extension: ".csv",
      delimiter: "AutoDetect",
      hasHeaderRow: true,
      ...parameters,
    });

  async function upload(
    project: Project,
    file: { name: string; text: string | Uint8Array },
    fields: Record<string, string> = {},
    options: { token?: string; app?: TestApi["app"] } = {},
  ) {
    return api.postForm(
      `/api/v1/projects/${project.id}/flat-file/loads`,
      options.token ?? owner,
      { file: { name: file.name, content: file.text }, table: "Customers", ...fields },
      options.app,
    );
  }

  /** Uploads, waits for the job, and answers the load as it ended. */
  async function load(project: Project, file: { name: string; text: string | Uint8Array }, fields: Record<string, string> = {}): Promise<Load> {
    const res = await upload(project, file, fields);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.load).toMatchObject({ status: "Loading", fileName: file.name, tableName: "Customers" });
    await api.jobs.idle();
    return (await api.get(`/api/v1/projects/${project.id}/flat-file/loads/${res.body.load.id}`, owner)).body;
  }

  /**
   * A load's upload as a browser sends the load form: its fields, then the file, with the body's
   * length declared. The test says when the file's bytes go: `sendUpTo` some, `finish` (the rest and
   * the closing boundary) or `cut` (the body ends there, as a dropped connection's does).
   */
  function streamedLoad(
    project: Project,
    file: { name: string; text: string },
    fields: Record<string, string> = { table: "Customers", mode: "replace", onRejected: "loadNothing" },
  ) {
    const boundary = `----dt${Math.random().toString(16).slice(2)}`;
    const encoder = new TextEncoder();
    const head = encoder.encode(
      Object.entries(fields)
        .map(([name, value]) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
        .join("") + `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${file.name}"\r\ncontent-type: text/csv\r\n\r\n`,
    );
    const bytes = encoder.encode(file.text);
    const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    controller.enqueue(head);
    let sent = 0;
    const sendUpTo = (to: number) => {
      controller.enqueue(bytes.slice(sent, to));
      sent = to;
    };
    const response = Promise.resolve(
      api.app.request(`/api/v1/projects/${project.id}/flat-file/loads`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${owner}`,
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "content-length": String(head.length + bytes.length + tail.length),
        },
        body,
        duplex: "half",
      } as RequestInit),
    ).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));
    return {
      sendUpTo,
      finish: () => {
        sendUpTo(bytes.length);
        controller.enqueue(tail);
        controller.close();
        return response;
      },
      cut: () => {
        controller.close();
        return response;
      },
    };
  }

  /** The project's running load job once it has read some of its file (polled: the upload is still open). */
  async function readingJob(project: Project) {
    for (let i = 0; i < 200; i++) {
      const { jobs } = (await api.get(`/api/v1/projects/${project.id}/jobs`, owner)).body as { jobs: Job[] };
      const job = jobs.find((j) => j.kind === "FlatFile" && j.status === "IN_PROGRESS");
      if (job?.progressDetail && job.progressDetail.bytesRead > 0) return job;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error("no load read its file while the upload was open");
  }

  const rowsOf = (project: Project, table = "Customers") =>
    api.dataPlane.withAdmin(TEST_DATABASE_SERVER, databaseNameOf(project.id), async (client) => {
      const { rows } = await client.query(`select * from source."${table}" order by 1`);
      return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v instanceof Date ? v.toISOString().slice(0, 10) : v])));
    });
  const rejectedOf = async (project: Project, loadId: string, table = "Customers") =>
    (await api.get(`/api/v1/projects/${project.id}/history/${loadId}/tables/${table}/rejected-rows?pageSize=100`, owner)).body;

  it("loads a CSV into its table as written (leading zeros kept), moves the project to its next step, and lists the load", async () => {
    const project = await loadableProject();
    const done = await load(project, { name: "customers.csv", text: "CustomerId,Code,Balance,Since\r\n1,007,10.50,2024-05-01\r\n2,=SUM(A1),,\r\n\r\n" });
    expect(done).toMatchObject({ status: "Loaded", rowsRead: 2, rowsLoaded: 2, rowsRejected: 0, message: null, mode: "replace", onRejected: "loadNothing" });
    expect(await rowsOf(project)).toEqual([
      { CustomerId: 1, Code: "007", Balance: "10.50", Since: "2024-05-01" },
      { CustomerId: 2, Code: "=SUM(A1)", Balance: null, Since: null },
    ]);
    expect((await api.get(`/api/v1/projects/${project.id}`, owner)).body).toMatchObject({ status: "SetupAssignTemplatesIncomplete", isLocked: false });
    const history = (await api.get(`/api/v1/projects/${project.id}/history`, owner)).body;
    expect(history).toMatchObject({ total: 1, items: [{ id: done.id, type: "FlatFile", status: "Loaded" }] });
    const jobs = (await api.get(`/api/v1/projects/${project.id}/jobs`, owner)).body;
    expect(jobs.jobs[0]).toMatchObject({ kind: "FlatFile", status: "SUCCESS", steps: [
        { name: "Back up the current data", status: "Completed" },
        { name: "Load customers.csv into Customers", status: "Completed" },
      ],
    });

    // Replace: the table holds the new file's rows only. Append adds to them.
    await load(project, { name: "second.csv", text: "customerid,code\n3,A\n" });
    expect((await rowsOf(project)).map((r) => r.CustomerId)).toEqual([3]);
    await load(project, { name: "third.csv", text: "Code,CustomerId\nB,4\n" }, { mode: "append" });
    expect((await rowsOf(project)).map((r) => [r.CustomerId, r.Code])).toEqual([
      [3, "A"],
      [4, "B"],
    ]);
  });

  it("lists the history filtered by type and status, sorted and paged in SQL, each entry with its tables; another company's is not found", async () => {
    const project = await loadableProject();
    const loaded = await load(project, { name: "a.csv", text: "CustomerId,Code\n1,A\n" });
    const refused = await load(project, { name: "b.csv", text: "CustomerId,Code\nx,B\n" });
    const failed = await load(project, { name: "c.csv", text: "CustomerId,Code,Extra\n1,A,x\n" });
    const history = (query: string, token = owner) => api.get(`/api/v1/projects/${project.id}/history${query}`, token);
    const ids = async (query: string) => (await history(query)).body.items.map((e: HistoryEntry) => e.id);
    // Newest first.
    const all = (await history("")).body;
    expect(all.items.map((e: HistoryEntry) => e.id)).toEqual([failed.id, refused.id, loaded.id]);
    expect(all.items[1]).toMatchObject({
      type: "FlatFile",
      status: "Refused",
      tables: [{ table: "Customers", fileName: "b.csv", rowsRead: 1, rowsLoaded: 0, rowsRejected: 1 }],
    });
    expect(await ids("?status=Refused&status=Failed")).toEqual([failed.id, refused.id]);
    expect(await ids("?type=FlatFile&status=Loaded")).toEqual([loaded.id]);
    // A filter that matches nothing: an empty page, not an error.
    expect((await history("?type=Restore&type=Backup")).body).toMatchObject({ items: [], total: 0 });
    expect(await ids("?sort=createdAt")).toEqual([loaded.id, refused.id, failed.id]);
    expect(await ids("?sort=-file")).toEqual([failed.id, refused.id, loaded.id]);
    expect(await ids("?sort=status")).toEqual([failed.id, loaded.id, refused.id]);
    expect((await history("?pageSize=10&page=2")).body).toMatchObject({ items: [], total: 3, page: 2, pageSize: 10 });
    expect((await history("?status=Nope")).status).toBe(400);
    expect((await history("?sort=who")).status).toBe(400);
    expect((await history("", await api.tokenFor(USERS.viewer))).status).toBe(404);
  });

  it("an entry keeps the parameters it read with, its job's steps and its table's counts; a table's rejected rows; others' entries are not found", async () => {
    const project = await loadableProject();
    const used = { extension: ".txt", delimiter: "Semicolon", hasHeaderRow: true, textQualifier: "DoubleQuote", encoding: "UTF-8" };
    const setParameters = (parameters: object) =>
      api.db
        .updateTable("projects")
        .set({ flat_file_parameters: JSON.stringify(parameters) })
        .where("id", "=", project.id)
        .execute();
    await setParameters(used);
    const done = await load(project, { name: "semi.txt", text: "CustomerId;Code\n1;A\nx;B\n" }, { onRejected: "loadOthers" });
    // The workspace's parameters change after the load: its entry keeps those it read with.
    await setParameters({ extension: ".csv", delimiter: "Comma", hasHeaderRow: false, textQualifier: "None", encoding: "Windows-1252" });
    const details = (await api.get(`/api/v1/projects/${project.id}/history/${done.id}`, owner)).body;
    expect(details.parameters).toEqual({ ...used, dateOrder: "YMD", worksheet: "", columnWidths: {} });
    expect(details.entry).toMatchObject({
      id: done.id,
      status: "Loaded",
      tables: [{ table: "Customers", fileName: "semi.txt", rowsRead: 2, rowsLoaded: 1, rowsRejected: 1 }],
    });
    expect(details.job).toMatchObject({
      kind: "FlatFile",
      status: "SUCCESS",
      progressDetail: null,
      steps: [
        { name: "Back up the current data", status: "Completed" },
        { name: "Load semi.txt into Customers", status: "Completed", startedAt: expect.any(String), finishedAt: expect.any(String) },
      ],
    });
    expect(await rejectedOf(project, done.id)).toMatchObject({
      total: 1,
      items: [{ line: 3, column: "CustomerId", value: "x", reason: "not a whole number" }],
    });

    // Not found: a table the load did not fill; another company's user; the entry asked through another project.
    const stranger = await api.tokenFor(USERS.viewer);
    const noTable = { status: 404, body: { errors: ["The load has no such table."] } };
    expect(await api.get(`/api/v1/projects/${project.id}/history/${done.id}/tables/Orders/rejected-rows`, owner)).toMatchObject(noTable);
    // A name longer than any table's (a hand-edited or cut link): the same 404 in the same words, the page and its download alike.
    const long = "T".repeat(200);
    expect(await api.get(`/api/v1/projects/${project.id}/history/${done.id}/tables/${long}/rejected-rows`, owner)).toMatchObject(noTable);
    const longCsv = await api.app.request(`/api/v1/projects/${project.id}/history/${done.id}/tables/${long}/rejected-rows.csv`, {
      headers: { authorization: `Bearer ${owner}` },
    });
    expect({ status: longCsv.status, body: await longCsv.json() }).toMatchObject(noTable);
    expect((await api.get(`/api/v1/projects/${project.id}/history/${done.id}`, stranger)).status).toBe(404);
    expect((await api.get(`/api/v1/projects/${project.id}/history/${done.id}/tables/Customers/rejected-rows`, stranger)).status).toBe(404);
    const csv = await api.app.request(`/api/v1/projects/${project.id}/history/${done.id}/tables/Customers/rejected-rows.csv`, {
      headers: { authorization: `Bearer ${stranger}` },
    });
    expect(csv.status).toBe(404);
    const other = await makeProject(api, owner, { companyId: birch.id, applicationId, sourceType: "BackUp" });
    expect((await api.get(`/api/v1/projects/${other.id}/history/${done.id}`, owner)).status).toBe(404);
  });

  it("shows a table's rows as stored, paged, sorted and filtered in SQL; an unknown table or another company's project is not found", async () => {
    const project = await loadableProject();
    await load(project, { name: "rows.csv", text: "CustomerId,Code,Balance\n10,XYZ,\n1,007,1.50\n2,010,\n3,ABC,2\n" });
    const rowsUrl = (query = "") => `/api/v1/projects/${project.id}/databases/source/tables/Customers/rows${query}`;
    const first = (await api.get(rowsUrl("?pageSize=10"), owner)).body;
    expect(first).toMatchObject({ table: "Customers", total: 4, page: 1, pageSize: 10, sort: "CustomerId" });
    // Each column's type as stored, and as the dictionary defines it.
    const sizes = { length: null, precision: null, scale: null };
    expect(first.columns).toEqual([
      { name: "CustomerId", type: "integer", defined: { ...sizes, type: "int" } },
      { name: "Code", type: "character varying(10)", defined: { ...sizes, type: "nvarchar", length: 10 } },
      { name: "Balance", type: "numeric(12,2)", defined: { ...sizes, type: "decimal", precision: 12, scale: 2 } },
      { name: "Since", type: "date", defined: { ...sizes, type: "date" } },
    ]);
    expect(first.items).toEqual([
      ["1", "007", "1.50", null],
      ["2", "010", null, null],
      ["3", "ABC", "2.00", null],
      // Sorted as the column's type, not as its text ("10" before "2").
      ["10", "XYZ", null, null],
    ]);
    expect((await api.get(rowsUrl("?sort=-CustomerId"), owner)).body.items.map((r: string[]) => r[0])).toEqual(["10", "3", "2", "1"]);
    expect((await api.get(rowsUrl("?sort=-Code"), owner)).body.items.map((r: string[]) => r[1])).toEqual(["XYZ", "ABC", "010", "007"]);
    const filtered = (await api.get(rowsUrl("?column=Code&contains=0"), owner)).body;
    expect(filtered).toMatchObject({ total: 2 });
    expect(filtered.items.map((r: string[]) => r[0])).toEqual(["1", "2"]);
    // Without a column ("Any column"), rows any of whose columns contains it: the id, the code or the balance.
    const anywhere = (await api.get(rowsUrl("?contains=1"), owner)).body;
    expect(anywhere).toMatchObject({ total: 3 });
    expect(anywhere.items.map((r: string[]) => r[0])).toEqual(["1", "2", "10"]);
    expect((await api.get(rowsUrl("?contains=abc"), owner)).body.items).toEqual([["3", "ABC", "2.00", null]]);
    expect((await api.get(rowsUrl("?pageSize=10&page=2"), owner)).body).toMatchObject({ items: [], total: 4 });
    expect((await api.get(`/api/v1/projects/${project.id}/databases/source/tables/Nope/rows`, owner)).status).toBe(404);
    // A name longer than any table's (an old or hand-edited link): the same 404, in words, not a rule of the request.
    const long = "T".repeat(200);
    expect(await api.get(`/api/v1/projects/${project.id}/databases/source/tables/${long}/rows`, owner)).toMatchObject({
      status: 404,
      body: { errors: [`The source database has no table '${long}'.`] },
    });
    expect((await api.get(rowsUrl(), await api.tokenFor(USERS.viewer))).status).toBe(404);
    // A table the dictionary does not define (made by a script in the destination database): PostgreSQL's types alone.
    await api.dataPlane.withAdmin(TEST_DATABASE_SERVER, databaseNameOf(project.id), (client) =>
      client.query(`create table destination."Scratch" ("Note" text); grant select on destination."Scratch" to public`),
    );
    const scratch = await api.get(`/api/v1/projects/${project.id}/databases/destination/tables/Scratch/rows`, owner);
    expect(scratch.body.columns).toEqual([{ name: "Note", type: "text", defined: null }]);
  });

  it("searches every column for a filter whose column the table does not have, and answers that column null: never every row as if it matched", async () => {
    const project = await loadableProject();
    await load(project, { name: "rows.csv", text: "CustomerId,Code\n1,ABC\n2,XYZ\n3,QABQ\n" });
    const rowsUrl = (query: string) => `/api/v1/projects/${project.id}/databases/source/tables/Customers/rows${query}`;
    // A filter kept from another table's page (Orders' OrderDate), or an old link's.
    const kept = (await api.get(rowsUrl("?column=OrderDate&contains=ab"), owner)).body;
    expect(kept).toMatchObject({ total: 2, column: null });
    expect(kept.items.map((r: string[]) => r[1])).toEqual(["ABC", "QABQ"]);
    expect((await api.get(rowsUrl("?column=OrderDate&contains=zzz"), owner)).body).toMatchObject({ total: 0, items: [], column: null });
    expect((await api.get(rowsUrl("?column=Code&contains=ab"), owner)).body).toMatchObject({ total: 2, column: "Code" });
    expect((await api.get(rowsUrl(""), owner)).body).toMatchObject({ total: 3, column: null });
  });

  it("with Load nothing, a file with bad rows changes nothing and every bad row is listed, and downloadable as it was", async () => {
    const project = await loadableProject();
    await load(project, { name: "good.csv", text: "CustomerId,Code\n1,KEEP\n" });
    const text = [
      "CustomerId,Code,Balance,Since",
      "2,OK,1.00,2024-01-01",
      "x,BAD1,,",
      "3,much too long code,,",
      "4,B4,1.234,",
      "5,B5,,2023-02-30",
      ",B6,,",
      "7,B7",
      "2,DUP,,",
    ].join("\n");
    const refused = await load(project, { name: "bad.csv", text });
    expect(refused).toMatchObject({ status: "Refused", rowsRead: 8, rowsLoaded: 0, rowsRejected: 7 });
    expect(refused.message).toBe("7 rows were rejected, so nothing was loaded (“Load nothing”)");
    expect(await rowsOf(project)).toEqual([{ CustomerId: 1, Code: "KEEP", Balance: null, Since: null }]);
    const rejected = await rejectedOf(project, refused.id);
    expect(rejected.total).toBe(7);
    expect(rejected.items).toEqual([
      { line: 3, column: "CustomerId", value: "x", reason: "not a whole number" },
      { line: 4, column: "Code", value: "much too long code", reason: "longer than 10 characters" },
      { line: 5, column: "Balance", value: "1.234", reason: "more than 2 decimals" },
      { line: 6, column: "Since", value: "2023-02-30", reason: "not a date (yyyy-mm-dd)" },
      { line: 7, column: "CustomerId", value: "", reason: "a value is required" },
      { line: 8, column: null, value: null, reason: "2 values where the header has 4" },
      { line: 9, column: "CustomerId", value: "2", reason: "the same key as row 2" },
    ]);
    const csv = await api.app.request(`/api/v1/projects/${project.id}/history/${refused.id}/tables/Customers/rejected-rows.csv`, {
      headers: { authorization: `Bearer ${owner}` },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const bytes = new Uint8Array(await csv.arrayBuffer());
    // A BOM first, so Excel reads it as UTF-8.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes).split("\r\n");
    expect(lines[0]).toBe("CustomerId,Code,Balance,Since,Rejected row,Rejection reason");
    // The reason names its column, as the preview does: the row's other cells may be right.
    expect(lines[1]).toBe("x,BAD1,,,3,CustomerId: not a whole number");
    expect(lines[6]).toBe("7,B7,8,2 values where the header has 4");
    // The refused load is the job's failure, with the reason, and the project stays where it was.
    const jobs = (await api.get(`/api/v1/projects/${project.id}/jobs`, owner)).body;
    expect(jobs.jobs[0]).toMatchObject({ kind: "FlatFile", status: "ERROR", error: refused.message });
  });

  it("names every cell a rejected row does not fit: the first as its column, the others in its reason, listed and downloaded", async () => {
    const project = await loadableProject();
    const text = ["CustomerId,Code,Balance,Since", "1,OK,1.00,2024-01-01", "x,much too long code,1.234,2023-02-30", ",B3,,nope"].join("\n");
    const loaded = await load(project, { name: "Customers.csv", text }, { onRejected: "loadOthers" });
    expect(loaded).toMatchObject({ status: "Loaded", rowsRead: 3, rowsLoaded: 1, rowsRejected: 2 });
    const reasons = [
      "not a whole number; also Code: longer than 10 characters; Balance: more than 2 decimals; Since: not a date (yyyy-mm-dd)",
      "a value is required; also Since: not a date (yyyy-mm-dd)",
    ];
    expect((await rejectedOf(project, loaded.id)).items).toEqual([
      { line: 3, column: "CustomerId", value: "x", reason: reasons[0] },
      { line: 4, column: "CustomerId", value: "", reason: reasons[1] },
    ]);
    const csv = await api.app.request(`/api/v1/projects/${project.id}/history/${loaded.id}/tables/Customers/rejected-rows.csv`, {
      headers: { authorization: `Bearer ${owner}` },
    });
    expect((await csv.text()).split("\r\n")).toEqual([
      "CustomerId,Code,Balance,Since,Rejected row,Rejection reason",
      `x,much too long code,1.234,2023-02-30,3,CustomerId: ${reasons[0]}`,
      `,B3,,nope,4,CustomerId: ${reasons[1]}`,
      "",
    ]);
  });

  it("downloads a table's rejected rows in the delimiter the load read, and loads them again once corrected, without the columns the download adds", async () => {
    const project = await loadableProject({ delimiter: "Pipe", textQualifier: "None" });
    const first = await load(project, { name: "Customers.csv", text: 'CustomerId|Code\n1|A\nx|Bob "B"\n3|much too long code\n' }, { onRejected: "loadOthers" });
    expect(first).toMatchObject({ status: "Loaded", rowsLoaded: 1, rowsRejected: 2 });
    const download = async (loadId: string) =>
      (
        await api.app.request(`/api/v1/projects/${project.id}/history/${loadId}/tables/Customers/rejected-rows.csv`, {
          headers: { authorization: `Bearer ${owner}` },
        })
      ).text();
    const csv = await download(first.id);
    // (text() reads the BOM the download starts with, and leaves it out.)
    expect(csv).toBe(
      'CustomerId|Code|Rejected row|Rejection reason\r\nx|Bob "B"|3|CustomerId: not a whole number\r\n3|much too long code|4|Code: longer than 10 characters\r\n',
    );
    // One row corrected, one not: the corrected one loads, the other is rejected again, and its download has the added columns once.
    const again = await load(project, { name: "Customers.csv", text: `\uFEFF${csv.replace("x|", "2|")}` }, { mode: "append", onRejected: "loadOthers" });
    expect(again).toMatchObject({ status: "Loaded", rowsRead: 2, rowsLoaded: 1, rowsRejected: 1 });
    expect(await download(again.id)).toBe("CustomerId|Code|Rejected row|Rejection reason\r\n3|much too long code|3|Code: longer than 10 characters\r\n");
    expect(await rowsOf(project)).toMatchObject([
      { CustomerId: 1, Code: "A" },
      { CustomerId: 2, Code: 'Bob "B"' },
    ]);
  });

  it("downloads a table's rejected rows in the encoding the load read (Windows-1252, UTF-16), which loads again under the same parameters once corrected", async () => {
    const downloadOf = async (project: Project, loadId: string) => {
      const res = await api.app.request(`/api/v1/projects/${project.id}/history/${loadId}/tables/Customers/rejected-rows.csv`, {
        headers: { authorization: `Bearer ${owner}` },
      });
      return { type: res.headers.get("content-type"), bytes: Buffer.from(await res.arrayBuffer()) };
    };
    // A legacy export in Windows-1252: "Hélène" is 0xE9 and 0xE8, a byte-order mark is none of its bytes.
    const legacy = await loadableProject({ delimiter: "Semicolon", encoding: "Windows-1252" });
    const first = await load(legacy, { name: "Customers.csv", text: Buffer.from("CustomerId;Code\n1;Café\nx;Hélène\n", "latin1") }, { onRejected: "loadOthers" });
    expect(first).toMatchObject({ status: "Loaded", rowsLoaded: 1, rowsRejected: 1 });
    const csv = await downloadOf(legacy, first.id);
    expect(csv.type).toBe("text/csv; charset=windows-1252");
    expect(csv.bytes).toEqual(Buffer.from("CustomerId;Code;Rejected row;Rejection reason\r\nx;Hélène;3;CustomerId: not a whole number\r\n", "latin1"));
    const again = await load(legacy, { name: "Customers.csv", text: Buffer.from(csv.bytes.toString("latin1").replace("x;", "2;"), "latin1") }, { mode: "append" });
    expect(again).toMatchObject({ status: "Loaded", rowsRead: 1, rowsLoaded: 1, rowsRejected: 0 });
    expect(await rowsOf(legacy)).toMatchObject([
      { CustomerId: 1, Code: "Café" },
      { CustomerId: 2, Code: "Hélène" },
    ]);

    // UTF-16 big-endian: written so, with its byte-order mark.
    const wide = await loadableProject({ delimiter: "Comma", encoding: "UTF-16BE" });
    const utf16be = (text: string) => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, "utf16le").swap16()]);
    const rejected = await load(wide, { name: "Customers.csv", text: utf16be("CustomerId,Code\nx,Zoë\n") }, { onRejected: "loadOthers" });
    expect(rejected).toMatchObject({ status: "Refused", rowsRejected: 1 });
    const wideCsv = await downloadOf(wide, rejected.id);
    expect(wideCsv.type).toBe("text/csv; charset=utf-16be");
    expect(wideCsv.bytes).toEqual(utf16be("CustomerId,Code,Rejected row,Rejection reason\r\nx,Zoë,2,CustomerId: not a whole number\r\n"));
    const wideText = Buffer.from(wideCsv.bytes.subarray(2)).swap16().toString("utf16le");
    const corrected = await load(wide, { name: "Customers.csv", text: utf16be(wideText.replace("x,", "3,")) });
    expect(corrected).toMatchObject({ status: "Loaded", rowsLoaded: 1 });
    expect(await rowsOf(wide)).toMatchObject([{ CustomerId: 3, Code: "Zoë" }]);
  });

  it("names a table's rejected-rows download after the file loaded, as a browser saves it: letters beyond ASCII, semicolons and percent signs kept", async () => {
    const project = await loadableProject();
    const savedName = async (name: string) => {
      const loaded = await load(project, { name, text: "CustomerId,Code\nx,A\n" });
      const res = await api.app.request(`/api/v1/projects/${project.id}/history/${loaded.id}/tables/Customers/rejected-rows.csv`, {
        headers: { authorization: `Bearer ${owner}` },
      });
      expect(res.status).toBe(200);
      return savedAs(res.headers.get("content-disposition"));
    };
    expect(await savedName("Müller_Kunden.csv")).toBe("Müller_Kunden-rejected-rows.csv");
    // (A browser sends a quote of a file's name as %22, which the name then holds: the quotes are attachment's own test's.)
    expect(await savedName("Kunden; Stand 'Mai' 100%.csv")).toBe("Kunden; Stand 'Mai' 100%-rejected-rows.csv");
    expect(await savedName("customers.csv")).toBe("customers-rejected-rows.csv");
  });

  it("refuses a load whose mode or rejected-rows choice is sent empty or unknown, at the field, and loads nothing: never read as Replace", async () => {
    const project = await loadableProject();
    expect((await load(project, { name: "Customers.csv", text: "CustomerId,Code\n1,KEEP\n" })).status).toBe("Loaded");
    for (const fields of [{ mode: "" }, { onRejected: "" }, { mode: "truncate" }] as Record<string, string>[]) {
      const refused = await upload(project, { name: "Customers.csv", text: "CustomerId,Code\n2,NEW\n" }, fields);
      expect(refused.status, JSON.stringify(fields)).toBe(400);
      expect(Object.keys(refused.body.fieldErrors)).toEqual(Object.keys(fields));
    }
    await api.jobs.idle();
    expect(await rowsOf(project)).toEqual([{ CustomerId: 1, Code: "KEEP", Balance: null, Since: null }]);
  });

  it("with Load the other rows, loads what fits; Append refuses keys the table already holds", async () => {
    const project = await loadableProject();
    await load(project, { name: "first.csv", text: "CustomerId,Code\n1,ONE\n" });
    const done = await load(project, { name: "more.csv", text: "CustomerId,Code\n1,AGAIN\n2,TWO\n3,\n" }, { mode: "append", onRejected: "loadOthers" });
    expect(done).toMatchObject({ status: "Loaded", rowsRead: 3, rowsLoaded: 1, rowsRejected: 2 });
    expect((await rowsOf(project)).map((r) => [r.CustomerId, r.Code])).toEqual([
      [1, "ONE"],
      [2, "TWO"],
    ]);
    expect((await rejectedOf(project, done.id)).items).toEqual([
      { line: 2, column: "CustomerId", value: "1", reason: "a row with this key is already in the table" },
      { line: 4, column: "Code", value: "", reason: "a value is required" },
    ]);
  });

  it("refuses a Replace that would empty the table (a file of any kind without rows, or whose every row is rejected): the table keeps its rows", async () => {
    const project = await loadableProject({});
    await load(project, { name: "good.csv", text: "CustomerId,Code\n9,KEEP\n" });
    const kept = [{ CustomerId: 9, Code: "KEEP", Balance: null, Since: null }];
    const refused = async (file: { name: string; text: string | Uint8Array }, message: string, fields: Record<string, string> = {}) => {
      const done = await load(project, file, fields);
      expect(done).toMatchObject({ status: "Refused", rowsLoaded: 0, message });
      expect(await rowsOf(project)).toEqual(kept);
      return done;
    };
    const noRows = (file: string) => `${file}: the file has no rows, so Replace would have emptied Customers. Nothing was loaded.`;
    const header = await refused({ name: "header.csv", text: "CustomerId,Code\r\n" }, noRows("header.csv"));
    expect(header).toMatchObject({ rowsRead: 0, rowsRejected: 0 });
    const jobs = (await api.get(`/api/v1/projects/${project.id}/jobs`, owner)).body;
    expect(jobs.jobs[0]).toMatchObject({ kind: "FlatFile", status: "ERROR", error: noRows("header.csv") });
    // Blank lines are no rows, whatever is done with rejected rows.
    await refused({ name: "blank.csv", text: "CustomerId,Code\n\n,\n" }, noRows("blank.csv"), { onRejected: "loadOthers" });
    // "Load the other rows" with none that fits: the rows are listed, and the table kept.
    const rejected = await refused(
      { name: "bad.csv", text: "CustomerId,Code\nx,A\n7,\n" },
      "bad.csv: all 2 rows were rejected, so Replace would have emptied Customers. Nothing was loaded.",
      { onRejected: "loadOthers" },
    );
    expect(rejected).toMatchObject({ rowsRead: 2, rowsRejected: 2 });
    expect((await rejectedOf(project, rejected.id)).total).toBe(2);
    await refused(
      { name: "one.csv", text: "CustomerId,Code\nx,A\n" },
      "one.csv: its only row was rejected, so Replace would have emptied Customers. Nothing was loaded.",
      { onRejected: "loadOthers" },
    );
    // With "Load nothing", rows all rejected are refused as any rejected row is.
    await refused({ name: "bad.csv", text: "CustomerId,Code\nx,A\n" }, "1 row was rejected, so nothing was loaded (“Load nothing”)");
    // Append: nothing to add, nothing changed, as before.
    expect(await load(project, { name: "header.csv", text: "CustomerId,Code\n" }, { mode: "append" })).toMatchObject({
      status: "Loaded",
      rowsRead: 0,
      rowsLoaded: 0,
    });
    expect(await rowsOf(project)).toEqual(kept);

    // A fixed-length file of blank lines; a worksheet of its header alone.
    await setParameters(project, { extension: ".txt", delimiter: "FixedLength", hasHeaderRow: false });
    await refused({ name: "blank.txt", text: "\n   \n" }, noRows("blank.txt"));
    await setParameters(project, { extension: ".xlsx", delimiter: "Excel", worksheet: "Customers" });
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet("Customers").addRow(["CustomerId", "Code"]);
    await refused({ name: "header.xlsx", text: new Uint8Array(await workbook.xlsx.writeBuffer()) }, noRows("header.xlsx"));
  });

  it("leaves the wizard's load step only once a load put rows in the source, not for an Append of a file without rows", async () => {
    const project = await loadableProject({});
    const status = async () => (await api.get(`/api/v1/projects/${project.id}`, owner)).body.status;
    expect(await status()).toBe("SetupRestoreDatabaseIncomplete");
    expect(await load(project, { name: "header.csv", text: "CustomerId,Code\n" }, { mode: "append" })).toMatchObject({ status: "Loaded", rowsLoaded: 0 });
    expect(await status()).toBe("SetupRestoreDatabaseIncomplete");
    expect(await load(project, { name: "one.csv", text: "CustomerId,Code\n1,A\n" }, { mode: "append" })).toMatchObject({ status: "Loaded", rowsLoaded: 1 });
    expect(await status()).toBe("SetupAssignTemplatesIncomplete");
  });

  it("moves a project that has a template already (made from its Templates tab) past the templates step to Active with its first load", async () => {
    const project = await loadableProject({});
    const made = await api.send("POST", `/api/v1/projects/${project.id}/templates`, owner, { name: "Made early", type: "Core", description: null });
    expect(made.status).toBe(201);
    // Not at the templates step yet: the template alone ends no step.
    expect((await api.get(`/api/v1/projects/${project.id}`, owner)).body.status).toBe("SetupRestoreDatabaseIncomplete");
    expect(await load(project, { name: "one.csv", text: "CustomerId,Code\n1,A\n" })).toMatchObject({ status: "Loaded", rowsLoaded: 1 });
    expect((await api.get(`/api/v1/projects/${project.id}`, owner)).body).toMatchObject({ status: "Active", isLocked: false });
  });

  it("loads every line as written, whether it goes to COPY as it is or cell by cell", async () => {
    const project = await loadableProject();
    // A backslash, a qualified delimiter, a tab, a number with spaces and a date to rewrite: each
    // line's cells written one by one; the last line (and any like it) goes to COPY as it is.
    const text = 'CustomerId,Code,Balance,Since\n1,a\\b,1.5,2024-01-02\n2,"x,y",,\n3,tab\tin, 2.25 ,2024/01/03\n4,plain,3,2024-01-04\n';
    expect(await load(project, { name: "mixed.csv", text })).toMatchObject({ status: "Loaded", rowsLoaded: 4 });
    expect(await rowsOf(project)).toEqual([
      { CustomerId: 1, Code: "a\\b", Balance: "1.50", Since: "2024-01-02" },
      { CustomerId: 2, Code: "x,y", Balance: null, Since: null },
      { CustomerId: 3, Code: "tab\tin", Balance: "2.25", Since: "2024-01-03" },
      { CustomerId: 4, Code: "plain", Balance: "3.00", Since: "2024-01-04" },
    ]);
    // Columns in another order than the table's: every line cell by cell.
    expect(await load(project, { name: "other-order.csv", text: "Code,CustomerId\nz,5\n" })).toMatchObject({ status: "Loaded", rowsLoaded: 1 });
    expect(await rowsOf(project)).toEqual([{ CustomerId: 5, Code: "z", Balance: null, Since: null }]);
  });

  it("reads the delimiter, qualifier and encoding the project's parameters give, or detects the delimiter", async () => {
    const project = await loadableProject();
    const detected = await load(project, { name: "semi.txt", text: "CustomerId;Code;Balance\n1;'A;B';2,5\n" });
    // Detected: semicolons; the default qualifier is the double quote, so 'A is a value of its own.
    expect(detected).toMatchObject({ status: "Refused", rowsRejected: 1 });
    await api.db
      .updateTable("projects")
      .set({
        flat_file_parameters: JSON.stringify({
          extension: ".txt",
          delimiter: "Semicolon",
          hasHeaderRow: false,
          textQualifier: "SingleQuote",
          encoding: "Windows-1252",
        }),
      })
      .where("id", "=", project.id)
      .execute();
    // Windows-1252's é (0xE9), and one value too many.
    const text = new Uint8Array([...Buffer.from("1;Caf"), 0xe9, ...Buffer.from(";x;3.5;2024-02-29\n")]);
    const done = await load(project, { name: "latin.txt", text });
    expect(done).toMatchObject({ status: "Refused", rowsRejected: 1 });
    expect((await rejectedOf(project, done.id)).items[0]).toMatchObject({ line: 1, reason: "5 values where the table has 4 columns" });
    // The qualifier is the single quote: a doubled one is a quote, and the delimiter inside is text.
    const fixed = await load(project, { name: "latin.txt", text: new Uint8Array([...Buffer.from("1;'Caf"), 0xe9, ...Buffer.from(";''';3.5;2024-02-29\n")]) });
    expect(fixed).toMatchObject({ status: "Loaded", rowsLoaded: 1 });
    expect(await rowsOf(project)).toEqual([{ CustomerId: 1, Code: "Café;'", Balance: "3.50", Since: "2024-02-29" }]);
  });

  it.each([
    [
      "a header naming a column the table lacks",
      "CustomerId,Code,Extra\n1,A,x\n",
      "The file has a column the table 'Customers' lacks: Extra. Add it to the data dictionary, or leave it out of the file. Nothing was loaded.",
    ],
    [
      // A file without a header row read as having one: its first row is data, not "columns the table lacks".
      "a first row of data where the header should be",
      "1,A,10.00,2024-01-31\n2,B,,\n",
      "The first row (row 1, the header) names none of the columns of the table 'Customers': it reads 1, A, 10.00, 2024-01-31. If the file has no header row, untick Header row in the flat-file parameters: its columns are then read by position. Nothing was loaded.",
    ],
    [
      "a binary file named .csv",
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 1, 2, 3]),
      `${NOT_TEXT_MESSAGE}. Nothing was loaded.`,
    ],
    ["a workbook named .csv", new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 1, 2, 3]), `${ZIP_NOT_TEXT_MESSAGE}. Nothing was loaded.`],

    [
      "a file in another encoding than the UTF-8 chosen",
      new Uint8Array([...Buffer.from("CustomerId,Code\n1,Caf"), 0xe9, 0x0a]),
      "The file is not UTF-8 text: choose the encoding it was saved in. Nothing was loaded.",
      { encoding: "UTF-8" },
    ],
    [
      "broken quoting",
      'CustomerId,Code\n1,"never closed\n',
      "The file could not be read: on row 2, a quoted field is never closed. If the file does not quote its fields, read it with the text qualifier None. Nothing was loaded.",
    ],
    [
      "a quote inside a field that is not quoted",
      'CustomerId,Code\n1,Bob "Bobby" Brown\n',
      'The file could not be read: on row 2, a field with a quote in it must be quoted, with the quote doubled (""). If the file does not quote its fields, read it with the text qualifier None. Nothing was loaded.',
    ],
    [
      "a text file under .xlsx parameters",
      "not a workbook",
      `${TEXT_NOT_WORKBOOK_MESSAGE}. Nothing was loaded.`,
      { extension: ".xlsx", delimiter: "Excel" },
    ],
  ] as const)("refuses %s with a message, and changes nothing", async (_what, text, message, parameters?: Partial<FlatFileParameters>) => {
    const project = await loadableProject(parameters ? {} : undefined);
    if (parameters) await setParameters(project, {});
    await load(project, { name: "good.csv", text: "CustomerId,Code\n9,KEEP\n" });
    if (parameters) await setParameters(project, parameters);
    const failed = await load(project, { name: "bad.csv", text });
    expect(failed).toMatchObject({ status: "Failed", rowsLoaded: 0, message });
    expect(await rowsOf(project)).toEqual([{ CustomerId: 9, Code: "KEEP", Balance: null, Since: null }]);
  });

  it("a file that cannot be read at its third row counts the rows read before it, and lists those rejected", async () => {
    const project = await loadableProject();
    const failed = await load(project, { name: "bad.csv", text: 'CustomerId,Code\nx,A\n2,Bob "Bobby" Brown\n3,C\n' }, { onRejected: "loadOthers" });
    expect(failed).toMatchObject({ status: "Failed", rowsRead: 1, rowsLoaded: 0, rowsRejected: 1 });
    expect(failed.message).toMatch(/^The file could not be read: on row 3, /);
    const entry = (await api.get(`/api/v1/projects/${project.id}/history/${failed.id}`, owner)).body.entry;
    expect(entry.tables).toMatchObject([{ table: "Customers", rowsRead: 1, rowsLoaded: 0, rowsRejected: 1 }]);
    expect((await rejectedOf(project, failed.id)).items).toMatchObject([{ line: 2, column: "CustomerId", value: "x" }]);
  });

  it.each([
    [
      "a fixed-length file not UTF-8 at its third row",
      { extension: ".txt", delimiter: "FixedLength", hasHeaderRow: false, encoding: "UTF-8", columnWidths: { customers: "4, 6, 8, 10" } as never },
      Buffer.from("   xA\n   2B\n   3Müller\n   4D\n", "latin1"),
      { rowsRead: 2, line: 1, message: "The file is not UTF-8 text: choose the encoding it was saved in. Nothing was loaded." },
    ],
    [
      "a worksheet with a value past its last column at its third row",
      { extension: ".xlsx", delimiter: "Excel" },
      zipOf(
        workbookParts(
          sheetXml(
            `<row r="1">${textCell("A1", "CustomerId")}${textCell("B1", "Code")}</row><row r="2">${textCell("A2", "x")}${textCell("B2", "A")}</row>` +
              `<row r="3"><c r="A3"><v>2</v></c>${textCell("BIO3", "far")}</row><row r="4"><c r="A4"><v>4</v></c></row>`,
          ),
        ),
      ),
      { rowsRead: 1, line: 2, message: "Row 3 has a value in column BIO (column 1,601); a load has at most 1,600 columns. Nothing was loaded." },
    ],
  ] as const)("%s counts the rows read before it, and lists those rejected", async (_what, parameters, text, expected) => {
    const project = await loadableProject(parameters);
    const failed = await load(project, { name: parameters.extension === ".xlsx" ? "bad.xlsx" : "bad.txt", text }, { onRejected: "loadOthers" });
    expect(failed).toMatchObject({ status: "Failed", rowsRead: expected.rowsRead, rowsLoaded: 0, rowsRejected: 1, message: expected.message });
    const entry = (await api.get(`/api/v1/projects/${project.id}/history/${failed.id}`, owner)).body.entry;
    expect(entry.tables).toMatchObject([{ table: "Customers", rowsRead: expected.rowsRead, rowsLoaded: 0, rowsRejected: 1 }]);
    expect((await rejectedOf(project, failed.id)).items).toMatchObject([{ line: expected.line, column: "CustomerId", value: "x" }]);
  });

  it("rejects a row holding a NUL past the file's start, and lists it with ␀ where the NUL was", async () => {
    // The file's start (the first 64 KB) is text: the NUL is met row by row, where no column can store it.
    const project = await loadableProject();
    const rows = Array.from({ length: 8000 }, (_, i) => `${i + 1},C${i}`).join("\n");
    const done = await load(project, { name: "late-nul.csv", text: `CustomerId,Code\n${rows}\n8001,A\u0000B\n` });
    expect(done).toMatchObject({ status: "Refused", rowsLoaded: 0, rowsRejected: 1 });
    expect((await rejectedOf(project, done.id)).items).toEqual([expect.objectContaining({ line: 8002, column: "Code", value: "A␀B" })]);
  });

  it("loads one worksheet of an .xlsx: text with its leading zeros, numbers as written, date cells as dates; a missing worksheet is named, an empty one with the others", async () => {
    const project = await loadableProject({ extension: ".xlsx", delimiter: "Excel", worksheet: "Customers" });
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet("Read me").addRow(["Not the data"]);
    const sheet = workbook.addWorksheet("Customers");
    sheet.addRow(["CustomerId", "Code", "Balance", "Since"]);
    sheet.addRow([1, "007", 10.5, new Date(Date.UTC(2024, 4, 1))]);
    sheet.addRow([2, "0042", 0.25]);
    sheet.addRow([3, "=cmd|' /C calc'!A0", 1.234, "31/01/2024"]);
    sheet.getColumn(4).numFmt = "dd/mm/yyyy";
    const file = new Uint8Array(await workbook.xlsx.writeBuffer());
    const done = await load(project, { name: "customers.xlsx", text: file }, { onRejected: "loadOthers" });
    expect(done).toMatchObject({ status: "Loaded", rowsRead: 3, rowsLoaded: 2, rowsRejected: 1 });
    expect(await rowsOf(project)).toEqual([
      { CustomerId: 1, Code: "007", Balance: "10.50", Since: "2024-05-01" },
      { CustomerId: 2, Code: "0042", Balance: "0.25", Since: null },
    ]);
    // Its other cells that do not fit are named too: a text date in the year-first order, a third decimal.
    expect((await rejectedOf(project, done.id)).items).toEqual([
      {
        line: 4,
        column: "Code",
        value: "=cmd|' /C calc'!A0",
        reason: "longer than 10 characters; also Balance: more than 2 decimals; Since: not a date (yyyy-mm-dd)",
      },
    ]);

    // The date order chosen reads text dates; a worksheet that is not there is named with those that are.
    await setParameters(project, { extension: ".xlsx", delimiter: "Excel", worksheet: "Customers", dateOrder: "DMY" });
    sheet.getCell("B4").value = "ABC";
    sheet.getCell("C4").value = 1.23;
    // A cell holding COPY's delimiter or escape is written cell by cell, its neighbours joined as they are.
    sheet.getCell("B2").value = "t\tab";
    sheet.getCell("B3").value = "back\\";
    expect(await load(project, { name: "again.xlsx", text: new Uint8Array(await workbook.xlsx.writeBuffer()) })).toMatchObject({
      status: "Loaded",
      rowsLoaded: 3,
    });
    expect((await rowsOf(project)).map((row) => row.Code)).toEqual(["t\tab", "back\\", "ABC"]);
    expect((await rowsOf(project))[2]).toEqual({ CustomerId: 3, Code: "ABC", Balance: "1.23", Since: "2024-01-31" });
    await setParameters(project, { extension: ".xlsx", delimiter: "Excel", worksheet: "Clients" });
    const missing = await load(project, { name: "again.xlsx", text: file });
    expect(missing).toMatchObject({
      status: "Failed",
      message: "The workbook has no worksheet 'Clients': its worksheets are Read me, Customers. Nothing was loaded.",
    });
    // An empty worksheet of a workbook that has others (the first, when none is chosen) is named, with the others: the file is not empty.
    const blankFirst = new ExcelJS.Workbook();
    blankFirst.addWorksheet("Notes");
    blankFirst.addWorksheet("Customers").addRow(["CustomerId", "Code"]);
    const blank = new Uint8Array(await blankFirst.xlsx.writeBuffer());
    for (const worksheet of ["", "notes"]) {
      await setParameters(project, { extension: ".xlsx", delimiter: "Excel", worksheet });
      expect(await load(project, { name: "blank.xlsx", text: blank })).toMatchObject({
        status: "Failed",
        message: "The worksheet 'Notes' is empty: the workbook's worksheets are Notes, Customers. Nothing was loaded.",
      });
    }
    expect((await rowsOf(project)).map((row) => row.Code)).toEqual(["t\tab", "back\\", "ABC"]);
  });

  it("loads a fixed-length file cut by the widths saved for its table; a short line's missing fields are blank, a line too long is a rejected row", async () => {
    const project = await loadableProject({
      extension: ".txt",
      delimiter: "FixedLength",
      hasHeaderRow: false,
      dateOrder: "MDY",
      columnWidths: { customers: "4, 6, 8, 10" } as never,
    });
    const line = (id: string, code: string, balance: string, since: string) => id.padStart(4) + code.padEnd(6) + balance.padStart(8) + since.padEnd(10);
    // Line 2's last fields are blank and an editor trimmed their spaces; line 4 has two characters too many.
    const text = [line("1", "007", "10.50", "05/01/2024"), "   2ABC", line("3", "X", "2.00", ""), `${line("4", "Y", "1.00", "")}xx`, ""].join("\n");
    const done = await load(project, { name: "customers.txt", text }, { onRejected: "loadOthers" });
    expect(done).toMatchObject({ status: "Loaded", rowsRead: 4, rowsLoaded: 3, rowsRejected: 1 });
    expect(await rowsOf(project)).toEqual([
      { CustomerId: 1, Code: "007", Balance: "10.50", Since: "2024-05-01" },
      { CustomerId: 2, Code: "ABC", Balance: null, Since: null },
      { CustomerId: 3, Code: "X", Balance: "2.00", Since: null },
    ]);
    expect((await rejectedOf(project, done.id)).items).toEqual([
      { line: 4, column: null, value: null, reason: "30 characters where the column widths add up to 28" },
    ]);
  });

  it("answers 400 at the field without a file or with a table the dictionary lacks, 413 over the size limit, and stores nothing", async () => {
    const project = await loadableProject();
    const noFile = await api.postForm(`/api/v1/projects/${project.id}/flat-file/loads`, owner, { table: "Customers" });
    expect(noFile.status).toBe(400);
    expect(noFile.body.fieldErrors).toEqual({ file: ["Choose a file to load"] });
    const noTable = await upload(project, { name: "a.csv", text: "a\n1\n" }, { table: "Nope" });
    expect(noTable).toMatchObject({ status: 400, body: { fieldErrors: { table: ["The project's dictionary has no table 'Nope'"] } } });
    const tooBig = await upload(
      project,
      { name: "big.csv", text: "CustomerId,Code\n" + "1,A\n".repeat(100) },
      {},
      { app: api.appWith({ maxUploadBytes: 100 }) },
    );
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.fieldErrors.file[0]).toMatch(/^The file is larger than 0 MB, the most a load takes/);
    // Refused while its file is read, to load or to preview: the choices sent before the file come back for the form.
    const choices = { uploadType: "SingleFile", table: "Customers", mode: "append", onRejected: "loadOthers" };
    for (const to of ["loads", "uploads"]) {
      const refused = await api.postForm(
        `/api/v1/projects/${project.id}/flat-file/${to}`,
        owner,
        { ...choices, file: { name: "big.csv", content: "CustomerId,Code\n" + "1,A\n".repeat(100) } },
        api.appWith({ maxUploadBytes: 100 }),
      );
      expect(refused).toMatchObject({ status: 413, body: { values: choices } });
    }
    expect((await api.get(`/api/v1/projects/${project.id}/history`, owner)).body.total).toBe(0);
  });

  /** 20,000 rows, 217 KB: more than the encoding's sniff, so the file is read before all of it has come. */
  const ARRIVING_CSV = "CustomerId,Code\n" + Array.from({ length: 20_000 }, (_, i) => `${i + 1},C${i}\n`).join("");

  it("starts a load as its file arrives when the form's choices come first: backed up and read along with the upload", async () => {
    const project = await loadableProject();
    const upload = streamedLoad(project, { name: "arriving.csv", text: ARRIVING_CSV });
    upload.sendUpTo(150_000);
    // The upload is still open: its load's backup is done and its file is being read.
    const job = await readingJob(project);
    expect(job.steps.map((step) => [step.name, step.status])).toEqual([
      ["Back up the current data", "Completed"],
      ["Load arriving.csv into Customers", "Started"],
    ]);
    expect(job.progressDetail!.bytesRead).toBeLessThanOrEqual(150_000);
    // The bar grows with the bytes read: the backup done is a small share of it, not half.
    const { bytesRead, bytesTotal } = job.progressDetail!;
    expect(Math.abs(job.progress - (100 * AUTOMATIC_BACKUP_SHARE + 100 * (1 - AUTOMATIC_BACKUP_SHARE) * (bytesRead / bytesTotal)))).toBeLessThanOrEqual(1);
    const res = await upload.finish();
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toMatchObject({ jobId: job.id, load: { fileName: "arriving.csv", tableName: "Customers", fileBytes: ARRIVING_CSV.length } });
    await api.jobs.idle();
    const done = (await api.get(`/api/v1/projects/${project.id}/flat-file/loads/${res.body.load.id}`, owner)).body;
    expect(done).toMatchObject({ status: "Loaded", rowsRead: 20_000, rowsLoaded: 20_000, fileBytes: ARRIVING_CSV.length });
    const rows = await rowsOf(project);
    expect([rows.length, rows[0], rows.at(-1)]).toEqual([
      20_000,
      { CustomerId: 1, Code: "C0", Balance: null, Since: null },
      { CustomerId: 20_000, Code: "C19999", Balance: null, Since: null },
    ]);
  });

  it("an upload cut after its load started fails the load, and the table stays as it was; a form refused first starts nothing", async () => {
    const project = await loadableProject();
    await load(project, { name: "good.csv", text: "CustomerId,Code\n9,KEEP\n" });
    const upload = streamedLoad(project, { name: "cut.csv", text: ARRIVING_CSV });
    upload.sendUpTo(150_000);
    await readingJob(project);
    const res = await upload.cut();
    // The choices sent before the file come back for the form.
    expect(res).toMatchObject({
      status: 400,
      body: {
        errors: ["The upload is not a readable form: it ends before its closing boundary"],
        values: { table: "Customers", mode: "replace", onRejected: "loadNothing" },
      },
    });
    await api.jobs.idle();
    const history = (await api.get(`/api/v1/projects/${project.id}/history`, owner)).body as { items: HistoryEntry[] };
    expect(history.items.find((entry) => entry.fileName === "cut.csv")).toMatchObject({
      status: "Failed",
      rowsLoaded: 0,
      message: `${UPLOAD_STOPPED_MESSAGE}. Nothing was loaded.`,
    });
    expect(await rowsOf(project)).toEqual([{ CustomerId: 9, Code: "KEEP", Balance: null, Since: null }]);
    expect((await api.get(`/api/v1/projects/${project.id}`, owner)).body).toMatchObject({ isLocked: false });

    // A form for several files starts nothing before its upload is in: no load reads while it is open.
    const several = streamedLoad(project, { name: "several.csv", text: ARRIVING_CSV }, { uploadType: "MultipleFiles", table: "Customers", mode: "replace", onRejected: "loadNothing" });
    several.sendUpTo(150_000);
    await new Promise((r) => setTimeout(r, 500));
    const { jobs } = (await api.get(`/api/v1/projects/${project.id}/jobs`, owner)).body as { jobs: Job[] };
    expect(jobs.filter((j) => j.status === "IN_PROGRESS")).toEqual([]);
    expect((await several.finish()).status).toBe(202);
    await api.jobs.idle();

    // A table the dictionary lacks, named before the file: refused at its field once the upload is in, as ever.
    const refused = await streamedLoad(project, { name: "nope.csv", text: "CustomerId\n1\n" }, { table: "Nope", mode: "replace", onRejected: "loadNothing" }).finish();
    expect(refused).toMatchObject({ status: 400, body: { fieldErrors: { table: ["The project's dictionary has no table 'Nope'"] } } });
    expect((await api.get(`/api/v1/projects/${project.id}/history`, owner)).body.total).toBe(3);
  });

  it("a load's worker starts with its job, waits for the backup, and stops when the backup fails: nothing loaded, no connection left", async () => {
    const project = await loadableProject();
    await load(project, { name: "good.csv", text: "CustomerId,Code\n9,KEEP\n" });
    // The project's backups folder is a file now: the next backup cannot be written.
    const backups = path.join(api.dataDir, "backups", project.id);
    fs.rmSync(backups, { recursive: true, force: true });
    fs.writeFileSync(backups, "in the way");
    onTestFinished(() => fs.rmSync(backups, { force: true }));
    const started = await upload(project, { name: "never.csv", text: "CustomerId,Code\n1,A\n" });
    expect(started.status).toBe(202);
    await api.jobs.idle();
    const after = (await api.get(`/api/v1/projects/${project.id}/flat-file/loads/${started.body.load.id}`, owner)).body;
    expect(after).toMatchObject({ status: "Failed", rowsLoaded: 0 });
    expect(after.message).toMatch(/Nothing was loaded\.$/);
    expect(await rowsOf(project)).toEqual([{ CustomerId: 9, Code: "KEEP", Balance: null, Since: null }]);
    // A worker left waiting would connect within a fraction of a second and stay: watched for 1.5 s.
    const workers = () =>
      api.dataPlane.withAdmin(TEST_DATABASE_SERVER, "postgres", async (client) => {
        const { rows } = await client.query(`select count(*)::int as n from pg_stat_activity where datname = $1 and application_name like '%flat-file load%'`, [
          databaseNameOf(project.id),
        ]);
        return rows[0].n as number;
      });
    const seen: number[] = [];
    for (let i = 0; i < 15; i++, await new Promise((r) => setTimeout(r, 100))) seen.push(await workers());
    expect(Math.max(...seen)).toBe(0);
  });

  it("a load whose process died is Failed at restart, with the table as it was", async () => {
    const project = await loadableProject();
    await load(project, { name: "good.csv", text: "CustomerId,Code\n9,KEEP\n" });
    // The "kill": this process's runner never gets past the step's start.
    let kill!: (err: Error) => void;
    const dead = new Promise<void>((_, reject) => (kill = reject));
    dead.catch(() => undefined);
    api.jobs.hooks.beforeStep = (step) => (step.projectId === project.id ? dead : undefined);
    const started = await upload(project, { name: "killed.csv", text: "CustomerId,Code\n1,A\n" });
    expect(started.status).toBe(202);
    expect(await recoverInterruptedJobs(api.db, { dataPlane: api.dataPlane })).toHaveLength(1);
    const after = (await api.get(`/api/v1/projects/${project.id}/flat-file/loads/${started.body.load.id}`, owner)).body;
    expect(after).toMatchObject({ status: "Failed", rowsLoaded: 0, message: `${INTERRUPTED_MESSAGE}. Nothing was changed.` });
    expect(await rowsOf(project)).toEqual([{ CustomerId: 9, Code: "KEEP", Balance: null, Since: null }]);
    expect((await api.get(`/api/v1/projects/${project.id}`, owner)).body).toMatchObject({ isLocked: false });
    kill(new Error("killed"));
  });

  it("a load whose database server went away midway says so: Failed, the table as it was, the lock released", async () => {
    const project = await loadableProject();
    await load(project, { name: "good.csv", text: "CustomerId,Code\n9,KEEP\n" });
    // As PostgreSQL does to every session when it stops or is killed: the load's own session is ended.
    const endLoadSession = () =>
      api.dataPlane.withAdmin(TEST_DATABASE_SERVER, "postgres", async (client) => {
        const sql = `select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = $1 and application_name like '%flat-file load%'`;
        for (let tries = 0; tries < 100; tries++, await new Promise((r) => setTimeout(r, 50))) {
          if ((await client.query(sql, [databaseNameOf(project.id)])).rows.some((r) => r.ended)) return;
        }
        throw new Error("the load's worker never connected");
      });
    api.jobs.hooks.beforeStep = (step) => (step.projectId === project.id && step.position === 1 ? endLoadSession() : undefined);
    const started = await upload(project, { name: "lost.csv", text: "CustomerId,Code\n1,A\n" });
    expect(started.status).toBe(202);
    await api.jobs.idle();
    const jobs = (await api.get(`/api/v1/projects/${project.id}/jobs`, owner)).body;
    expect(jobs).toMatchObject({ isLocked: false });
    // Said as what happened, not in pg's words ("terminating connection due to administrator command").
    expect(jobs.jobs[0]).toMatchObject({ id: started.body.jobId, status: "ERROR", error: SERVER_LOST_MESSAGE });
    const after = (await api.get(`/api/v1/projects/${project.id}/flat-file/loads/${started.body.load.id}`, owner)).body;
    expect(after).toMatchObject({ status: "Failed", rowsLoaded: 0, message: `${SERVER_LOST_MESSAGE} Nothing was loaded.` });
    expect(await rowsOf(project)).toEqual([{ CustomerId: 9, Code: "KEEP", Balance: null, Since: null }]);
  });

  it("a load can be cancelled by someone with write access: Failed, the table as it was, the lock released", async () => {
    const project = await loadableProject();
    await load(project, { name: "good.csv", text: "CustomerId,Code\n9,KEEP\n" });
    const release = holdJobsOf(api.jobs, project.id);
    const started = await upload(project, { name: "cancelled.csv", text: "CustomerId,Code\n1,A\n" });
    expect(started.status).toBe(202);
    const jobId = started.body.jobId as string;
    const cancel = (token = owner) =>
      api.app.request(`/api/v1/projects/${project.id}/jobs/${jobId}/cancel`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    // Another company's user does not even learn the job exists.
    expect((await cancel(await api.tokenFor(USERS.viewer))).status).toBe(404);
    expect((await cancel()).status).toBe(202);
    release();
    await api.jobs.idle();
    const jobs = (await api.get(`/api/v1/projects/${project.id}/jobs`, owner)).body;
    expect(jobs).toMatchObject({ isLocked: false });
    expect(jobs.jobs[0]).toMatchObject({ id: jobId, status: "ERROR", error: "Cancelled: nothing it did was kept." });
    const after = (await api.get(`/api/v1/projects/${project.id}/flat-file/loads/${started.body.load.id}`, owner)).body;
    expect(after).toMatchObject({ status: "Failed", message: "Cancelled. Nothing was loaded." });
    expect(await rowsOf(project)).toEqual([{ CustomerId: 9, Code: "KEEP", Balance: null, Since: null }]);
    // Over: there is nothing left to cancel.
    expect((await cancel()).status).toBe(409);
    // The cancel asked is in the audit log once: the refused one is not.
    const audit = await api.get(`/api/v1/audit-log?action=job.cancel_requested&companyId=${project.companyId}`, await api.tokenFor(USERS.superAdmin));
    expect(audit.body.items.filter((e: { workspaceId: string }) => e.workspaceId === project.id)).toEqual([
      expect.objectContaining({ userId: USERS.analyst.id, summary: { jobId } }),
    ]);
  });

  it("a load cancelled while it reads counts the rows it had read and the rejected rows it lists, none loaded", async () => {
    const project = await loadableProject();
    // Every fifth row's key is not a number: rejected, and reported a thousand at a time.
    const text = "CustomerId,Code\n" + Array.from({ length: 20_000 }, (_, i) => `${i % 5 === 4 ? "x" : i + 1},C${i}\n`).join("");
    const upload = streamedLoad(project, { name: "cancelled.csv", text }, { table: "Customers", mode: "replace", onRejected: "loadOthers" });
    upload.sendUpTo(150_000);
    const job = await readingJob(project);
    // What has come is read: the reader waits for the rest.
    await new Promise((r) => setTimeout(r, 1_000));
    const cancelled = await api.app.request(`/api/v1/projects/${project.id}/jobs/${job.id}/cancel`, { method: "POST", headers: { authorization: `Bearer ${owner}` } });
    expect(cancelled.status).toBe(202);
    await upload.finish();
    await api.jobs.idle();
    const history = (await api.get(`/api/v1/projects/${project.id}/history`, owner)).body as { items: HistoryEntry[] };
    const after = history.items.find((entry) => entry.fileName === "cancelled.csv")!;
    expect(after).toMatchObject({ status: "Failed", rowsLoaded: 0, message: "Cancelled. Nothing was loaded." });
    // The rows of the lines that had come, read (but the last few, which the upload's reader holds
    // back until it knows they are not its closing boundary); those rejected as far as they were listed.
    const linesCome = text.slice(0, 150_000).split("\n").length - 2;
    expect(after.rowsRead).toBeGreaterThanOrEqual(linesCome - 5);
    expect(after.rowsRead).toBeLessThanOrEqual(linesCome);
    const listed = (await rejectedOf(project, after.id)).total;
    expect(listed).toBeGreaterThanOrEqual(1_000);
    expect(after.rowsRejected).toBe(listed);
    const entry = (await api.get(`/api/v1/projects/${project.id}/history/${after.id}`, owner)).body.entry;
    expect(entry.tables).toMatchObject([{ table: "Customers", rowsRead: after.rowsRead, rowsLoaded: 0, rowsRejected: listed }]);
    expect(await rowsOf(project)).toEqual([]);
  });

  it("a SuperAdmin force-unlocks with a reason: the load stops and fails, the lock state says ForceUnlocked, the event is recorded", async () => {
    const project = await loadableProject();
    const release = holdJobsOf(api.jobs, project.id);
    const started = await upload(project, { name: "stuck.csv", text: "CustomerId,Code\n1,A\n" });
    onTestFinished(() => release());
    const unlock = async (token: string, body: unknown) => api.send("POST", `/api/v1/projects/${project.id}/force-unlock`, token, body);
    const admin = await api.tokenFor(USERS.superAdmin);
    expect((await unlock(owner, { reason: "stuck" })).status).toBe(403);
    expect(await unlock(admin, { reason: "  " })).toMatchObject({ status: 400, body: { fieldErrors: { reason: ["Say why the lock is forced"] } } });
    const done = await unlock(admin, { reason: "the file never finishes" });
    expect(done).toMatchObject({ status: 200, body: { jobId: started.body.jobId } });
    const now = (await api.get(`/api/v1/projects/${project.id}/jobs`, owner)).body;
    expect(now).toMatchObject({ isLocked: false, lockState: "ForceUnlocked" });
    // By the name the token carries.
    expect(now.jobs[0]).toMatchObject({ status: "ERROR", error: expect.stringMatching(/^Force-unlocked by .+: the file never finishes$/) });
    expect((await api.get(`/api/v1/projects/${project.id}/flat-file/loads/${started.body.load.id}`, owner)).body).toMatchObject({ status: "Failed" });
    const events = await api.db.selectFrom("lock_events").selectAll().where("project_id", "=", project.id).execute();
    expect(events).toMatchObject([
      { action: "ForceUnlock", lock_reason: "FlatFileCreation", reason: "the file never finishes", user_id: USERS.superAdmin.id, job_id: started.body.jobId },
    ]);
    // And in the audit log, with its reason.
    const audit = await api.get(`/api/v1/audit-log?action=workspace.force_unlocked&companyId=${project.companyId}`, admin);
    expect(audit.body.items.find((e: { workspaceId: string }) => e.workspaceId === project.id)).toMatchObject({
      reason: "the file never finishes",
      userId: USERS.superAdmin.id,
      summary: { lockReason: "FlatFileCreation", jobId: started.body.jobId },
    });
    // The stopped job, woken, changes nothing; and there is nothing left to unlock.
    release();
    await api.jobs.idle();
    expect(await rowsOf(project)).toEqual([]);
    expect((await api.get(`/api/v1/projects/${project.id}/jobs`, owner)).body).toMatchObject({ isLocked: false, lockState: "ForceUnlocked" });
    expect((await unlock(admin, { reason: "again" })).status).toBe(409);
  });

  it("refuses a load before the databases exist (409), while another job holds the lock (409), and for another company's project (404)", async () => {
    const fresh = await makeProject(api, owner, { companyId: birch.id, applicationId, sourceType: "BackUp" });
    await addProjectTable(api, fresh.id, { name: "Customers", columns: [column("CustomerId", "int")] });
    expect((await upload(fresh, { name: "a.csv", text: "CustomerId\n1\n" })).status).toBe(409);

    const project = await loadableProject();
    const release = holdJobsOf(api.jobs, project.id);
    const first = await upload(project, { name: "a.csv", text: "CustomerId,Code\n1,A\n" });
    expect(first.status).toBe(202);
    const second = await upload(project, { name: "b.csv", text: "CustomerId,Code\n2,B\n" });
    expect(second.status).toBe(409);
    expect(second.body.errors[0]).toMatch(/locked \(Flat file creation\)/);
    release();
    await api.jobs.idle();
    // The audit log has the load that started, with its job, what it loaded where and how, in words; the refused one left no entry.
    const audit = await api.get(
      `/api/v1/audit-log?action=api.write&companyId=${birch.id}&contains=flat-file&pageSize=100`,
      await api.tokenFor(USERS.superAdmin),
    );
    const loads = audit.body.items.filter((e: { workspaceId: string }) => e.workspaceId === project.id);
    expect(loads).toEqual([
      expect.objectContaining({
        target: "POST /api/v1/projects/:id/flat-file/loads",
        summary: {
          path: `/api/v1/projects/${project.id}/flat-file/loads`,
          file: "a.csv",
          table: "Customers",
          mode: "Replace the table's rows",
          loadId: first.body.load.id,
          jobId: first.body.jobId,
        },
      }),
    ]);
    expect(auditWriteLabel(loads[0].target)).toBe("Flat-file load started");

    const stranger = await api.tokenFor(USERS.viewer);
    expect((await upload(project, { name: "a.csv", text: "CustomerId,Code\n1,A\n" }, {}, { token: stranger })).status).toBe(404);
    const someLoad = (await api.get(`/api/v1/projects/${project.id}/history`, owner)).body.items[0];
    expect((await api.get(`/api/v1/projects/${project.id}/flat-file/loads/${someLoad.id}`, stranger)).status).toBe(404);
    expect(acme.id).not.toBe(birch.id);
  });
});
