import fs from "node:fs";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../../../scripts/demo-data.ts";
import { BULK_UPLOAD_MAX_BYTES, COLUMN_TYPES, type Dictionary, type PendingReviews, type Review } from "../../../../../contracts/dictionary.ts";
import { TEST_DATABASE_KINDS } from "../../../../shared/testing/databases.ts";
import {
  createReview,
  INTERRUPTED_REVIEW_MESSAGE,
  REVIEW_HAS_ERRORS_MESSAGE,
  REVIEW_NOT_FOUND_MESSAGE,
  REVIEW_STALE_MESSAGE,
  REVIEW_STILL_READING_MESSAGE,
} from "../../dictionary-bulk/reviews.ts";
import { recoverInterruptedJobs } from "../../jobs/recover.ts";
import { EMPTY_FILE_MESSAGE, FILE_TOO_LARGE_MESSAGE, TOO_MANY_ROWS_MESSAGE, WRONG_EXTENSION_MESSAGE } from "../../dictionary-bulk/sheet-rows.ts";
import { fixture, readFullReview, seedDictionary, send, upload } from "../../testing/dictionary-fixtures.ts";
import { USERS, createTestApi, type TestApi } from "../../testing/harness.ts";
import { sheetXml, textCell, workbookParts, zipOf } from "../../testing/xlsx-files.ts";
import { uploadsTmpDir } from "../../dictionary-bulk/receive-upload.ts";
import { CHOOSE_FILE_MESSAGE } from "./bulk-uploads.ts";
import { DICTIONARY_NOT_FOUND_MESSAGE } from "./shared.ts";

const [, acme, birch] = DEMO_COMPANIES;
const HEADER = "table,column,type,length,precision,scale,nullable,key,description";

describe.each(TEST_DATABASE_KINDS)("dictionary bulk uploads on %s", (kind) => {
  let api: TestApi;
  let analyst: string;
  beforeAll(async () => {
    api = await createTestApi(kind);
    analyst = await api.tokenFor(USERS.analyst);
  });
  afterAll(() => api?.close());

  const path = (id: string, rest = "") => `/api/v1/data-dictionaries/${encodeURIComponent(id)}${rest}`;
  /** The upload's answer; a stored review (201) is read back whole, its tables and problems from their pages. */
  const uploadTo = async (d: Pick<Dictionary, "id">, file: Uint8Array | string, name: string, token = analyst, fields: Record<string, string> = {}) => {
    const res = await upload(api, path(d.id, "/bulk-uploads"), token, file, name, fields);
    if (res.status !== 201) return res;
    const review = await readFullReview(api, path(d.id, `/bulk-uploads/${res.body.id}`), token);
    expect(review.body).toMatchObject(res.body);
    return { ...res, body: review.body };
  };
  const readReview = async (d: Pick<Dictionary, "id">, reviewId: string) => (await readFullReview(api, path(d.id, `/bulk-uploads/${reviewId}`), analyst)).body;
  const read = async (d: Pick<Dictionary, "id">) => (await api.get(`${path(d.id)}?tables=all`, analyst)).body as Dictionary;
  /** Applies a review. Its answer is the new version and counts; once applied, the tables are read as a page would (`tables`). */
  const apply = async (d: Pick<Dictionary, "id">, reviewId: string) => {
    const res = await send(api, "POST", path(d.id, `/bulk-uploads/${reviewId}/apply`), analyst);
    if (res.status !== 200) return res;
    expect(res.body).not.toHaveProperty("tables");
    return { ...res, body: { ...res.body, tables: (await read(d)).tables } };
  };

  /** The dictionary as the review describes it: names and definitions, without ids. */
  const shape = (d: Dictionary) => d.tables.map((t) => ({ name: t.name, columns: t.columns.map(({ id: _id, order: _order, ...c }) => c) }));

  it("reviews the sample CSV without changing the dictionary, then applies exactly what the review said", async () => {
    const dict = await seedDictionary(api, analyst, acme.id);
    const res = await uploadTo(dict, fixture("sample-dictionary.csv"), "sample-dictionary.csv");
    expect(res.status).toBe(201);
    const review = res.body as Review;
    expect(review).toMatchObject({ fileName: "sample-dictionary.csv", baseVersion: 1, mode: "replace", rowCount: 10, errors: [], canApply: true });
    expect(review.tables.map((t) => [t.name, t.status, t.added.length])).toEqual([
      ["Customers", "added", 5],
      ["Orders", "added", 5],
    ]);
    expect(await read(dict)).toMatchObject({ version: 1, tables: [] });
    expect(await readReview(dict, review.id)).toEqual(review);

    const applied = await apply(dict, review.id);
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ version: 2, tableCount: 2, columnCount: 10 });
    expect(shape(applied.body)).toEqual(review.tables.map((t) => ({ name: t.name, columns: t.added.map((c) => c.after) })));
    expect(new Set(applied.body.tables.flatMap((t: Dictionary["tables"][number]) => t.columns.map((c) => c.type)))).toEqual(new Set(COLUMN_TYPES));
    // A review is used up by applying it.
    expect((await api.get(path(dict.id, `/bulk-uploads/${review.id}`), analyst)).status).toBe(404);
    expect((await apply(dict, review.id)).status).toBe(404);
  });

  it("updates with the sample .xlsx: changes the tables it names, adds new ones, never deletes the others", async () => {
    const dict = await seedDictionary(api, analyst, acme.id);
    const first = await uploadTo(dict, fixture("sample-dictionary.csv"), "sample-dictionary.csv");
    const before = (await apply(dict, first.body.id)).body as Dictionary;

    const res = await uploadTo(dict, fixture("sample-dictionary-update.xlsx"), "sample-dictionary-update.xlsx");
    expect(res.status).toBe(201);
    const review = res.body as Review;
    expect(review).toMatchObject({ baseVersion: 2, rowCount: 7, errors: [], canApply: true });
    expect(review.tables.map((t) => t.name)).toEqual(["Customers", "Products"]);
    const [customers, products] = review.tables;
    expect(customers).toMatchObject({ status: "changed", unchanged: 3 });
    expect(customers!.added.map((c) => c.name)).toEqual(["Email"]);
    expect(customers!.changed.map((c) => [c.name, c.fields])).toEqual([["Name", ["length"]]]);
    expect(customers!.removed.map((c) => c.name)).toEqual(["BirthDate"]);
    expect(products).toMatchObject({ status: "added" });

    const after = (await apply(dict, review.id)).body as Dictionary;
    expect(after.version).toBe(3);
    expect(after.tables.map((t) => t.name)).toEqual(["Customers", "Orders", "Products"]);
    const [oldCustomers, oldOrders] = before.tables;
    const [newCustomers, newOrders] = after.tables;
    expect(newOrders).toEqual(oldOrders);
    expect(newCustomers!.id).toBe(oldCustomers!.id);
    expect(newCustomers!.columns.map((c) => c.name)).toEqual(["CustomerId", "Name", "Email", "CreditLimit", "CreatedAt"]);
    const idOf = (t: Dictionary["tables"][number], name: string) => t.columns.find((c) => c.name === name)?.id;
    expect(idOf(newCustomers!, "Name")).toBe(idOf(oldCustomers!, "Name"));
    expect(newCustomers!.columns.find((c) => c.name === "Name")!.length).toBe(250);
  });

  it("with mode=merge (only add and change) proposes no removal and applies without removing a column", async () => {
    const dict = await seedDictionary(api, analyst, acme.id);
    const first = await uploadTo(dict, fixture("sample-dictionary.csv"), "sample-dictionary.csv");
    const before = (await apply(dict, first.body.id)).body as Dictionary;

    const res = await uploadTo(dict, fixture("sample-dictionary-update.xlsx"), "sample-dictionary-update.xlsx", analyst, { mode: "merge" });
    expect(res.status).toBe(201);
    const review = res.body as Review;
    expect(review).toMatchObject({ mode: "merge", baseVersion: 2, errors: [], canApply: true });
    expect(review.tables.flatMap((t) => t.removed)).toEqual([]);
    const customers = review.tables.find((t) => t.name === "Customers")!;
    expect(customers.added.map((c) => c.name)).toEqual(["Email"]);
    // The kept columns stay where they are: the only change is Name's length, no column moves.
    expect(customers.changed.map((c) => [c.name, c.fields])).toEqual([["Name", ["length"]]]);
    expect(customers.unchanged).toBe(4);

    const after = (await apply(dict, review.id)).body as Dictionary;
    const newCustomers = after.tables.find((t) => t.name === "Customers")!;
    expect(newCustomers.columns.map((c) => c.name)).toEqual(["CustomerId", "Name", "CreditLimit", "BirthDate", "CreatedAt", "Email"]);
    const birthDate = (t: Dictionary["tables"][number]) => t.columns.find((c) => c.name === "BirthDate");
    expect(birthDate(newCustomers)).toEqual(birthDate(before.tables.find((t) => t.name === "Customers")!));
    expect(after.tables.map((t) => t.name)).toEqual(["Customers", "Orders", "Products"]);
  });

  it("refuses an unknown mode on `mode`, and stores no review", async () => {
    const dict = await seedDictionary(api, analyst, acme.id);
    const res = await uploadTo(dict, fixture("sample-dictionary.csv"), "sample-dictionary.csv", analyst, { mode: "delete-everything" });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.fieldErrors)).toEqual(["mode"]);
    expect(await api.db.selectFrom("dictionary_reviews").select("id").where("dictionary_id", "=", dict.id).execute()).toEqual([]);
  });

  it("lists the pending reviews newest first, without used-up, discarded or stale ones", async () => {
    const dict = await seedDictionary(api, analyst, acme.id);
    const pending = async () => {
      const res = await api.get(path(dict.id, "/bulk-uploads"), analyst);
      expect(res.status).toBe(200);
      return (res.body as PendingReviews).items;
    };
    expect(await pending()).toEqual([]);

    const bad = await uploadTo(dict, fixture("sample-dictionary-errors.csv"), "sample-dictionary-errors.csv");
    // Newest first goes by the upload's time (milliseconds): make sure the two differ.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const good = await uploadTo(dict, fixture("sample-dictionary.csv"), "sample-dictionary.csv", analyst, { mode: "merge" });
    const items = await pending();
    expect(items.map((r) => r.id)).toEqual([good.body.id, bad.body.id]);
    expect(items[0]).toEqual({
      id: good.body.id,
      fileName: "sample-dictionary.csv",
      createdAt: good.body.createdAt,
      baseVersion: 1,
      mode: "merge",
      rowCount: 10,
      canApply: true,
      errorCount: 0,
    });
    expect(items[1]).toMatchObject({ canApply: false, errorCount: 4 });

    // Like every dictionary route: 404 to another company's user (data-dictionaries.test.ts has the rest).
    expect((await api.get(path(dict.id, "/bulk-uploads"), await api.tokenFor(USERS.clientAdmin))).status).toBe(404);

    await send(api, "DELETE", path(dict.id, `/bulk-uploads/${bad.body.id}`), analyst);
    expect((await pending()).map((r) => r.id)).toEqual([good.body.id]);
    // Applying one moves the dictionary on: the others are stale and no longer pending.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const other = await uploadTo(dict, fixture("sample-dictionary.csv"), "again.csv");
    expect((await pending()).map((r) => r.id)).toEqual([other.body.id, good.body.id]);
    await apply(dict, good.body.id);
    expect(await pending()).toEqual([]);
  });

  it("round-trips a workbook built in the test", async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Anything");
    sheet.addRow(["Description", "Key", "Nullable", "Type", "Column", "Table", "Length", "Precision", "Scale"]);
    sheet.addRow(["Line key", "y", "n", "bigint", "LineId", "OrderLines", null, null, null]);
    sheet.addRow([null, null, null, "decimal", "Amount", "OrderLines", null, 10, 4]);
    sheet.addRow(["At", "0", "1", "datetime", "At", "OrderLines", null, null, null]);
    const file = new Uint8Array(await workbook.xlsx.writeBuffer());
    const dict = await seedDictionary(api, analyst, birch.id);
    const review = await uploadTo(dict, file, "lines.XLSX");
    expect(review.status).toBe(201);
    expect(review.body.canApply).toBe(true);
    const applied = await apply(dict, review.body.id);
    expect(shape(applied.body)).toEqual([
      {
        name: "OrderLines",
        columns: [
          { name: "LineId", type: "bigint", length: null, precision: null, scale: null, nullable: false, isKey: true, description: "Line key" },
          { name: "Amount", type: "decimal", length: null, precision: 10, scale: 4, nullable: true, isKey: false, description: null },
          { name: "At", type: "datetime", length: null, precision: null, scale: null, nullable: true, isKey: false, description: "At" },
        ],
      },
    ]);
  });

  it.each([
    ["a missing header", "Orders,Id,int\nOrders,Total,int", [{ row: 1, column: null }]],
    ["a header missing a column", "table,column,length\nOrders,Id,", [{ row: 1, column: "type" }]],
    ["a wrong delimiter", "table;column;type\nOrders;Id;int", [{ row: 1, column: null }]],
    ["unknown types", `${HEADER}\nOrders,Id,varchar2,,,,,,\nOrders,Total,money,,,,,,`, [{ row: 2, column: "type" }, { row: 3, column: "type" }]],
    ["duplicate columns", `${HEADER}\nOrders,Id,int,,,,,,\nOrders,id,int,,,,,,`, [{ row: 3, column: "column" }]],
  ])("answers a review with row-numbered errors that cannot be applied, for %s", async (_what, text, where) => {
    const dict = await seedDictionary(api, analyst, acme.id);
    const res = await uploadTo(dict, text, "broken.csv");
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ canApply: false, tables: [] });
    expect(res.body.errors.map((e: { row: number; column: string }) => ({ row: e.row, column: e.column }))).toEqual(where);
    const refused = await apply(dict, res.body.id);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([REVIEW_HAS_ERRORS_MESSAGE]);
    expect(await read(dict)).toMatchObject({ version: 1, tables: [] });
  });

  it("says which row and column is wrong in the sample error file", async () => {
    const dict = await seedDictionary(api, analyst, acme.id);
    const res = await uploadTo(dict, fixture("sample-dictionary-errors.csv"), "sample-dictionary-errors.csv");
    expect(res.body.errors).toEqual([
      { row: 3, column: "type", message: expect.stringContaining("Unknown type 'varchar2'") },
      { row: 4, column: "length", message: "nvarchar needs a length" },
      { row: 5, column: "scale", message: "Scale cannot be greater than precision" },
      { row: 6, column: "column", message: expect.stringContaining("Duplicate column 'customerid'") },
    ]);
  });

  it.each([
    ["not an .xlsx workbook", () => "just text", "fake.xlsx", 400, "'fake.xlsx' is not a valid .xlsx workbook"],
    ["empty", () => new Uint8Array(0), "empty.csv", 400, EMPTY_FILE_MESSAGE],
    ["of another extension", () => HEADER, "dictionary.json", 400, WRONG_EXTENSION_MESSAGE],
    ["just over 64 MB", () => new Uint8Array(BULK_UPLOAD_MAX_BYTES + 1).fill(0x41), "big.csv", 413, FILE_TOO_LARGE_MESSAGE],
    ["far over 64 MB", () => new Uint8Array(BULK_UPLOAD_MAX_BYTES * 2).fill(0x41), "huge.csv", 413, FILE_TOO_LARGE_MESSAGE],
  ])("refuses a file %s with a message on `file`, and stores no review", async (_what, file, name, status, message) => {
    const dict = await seedDictionary(api, analyst, acme.id);
    const res = await uploadTo(dict, file(), name);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ status, errors: [message], fieldErrors: { file: [message] } });
    const reviews = await api.db.selectFrom("dictionary_reviews").select("id").where("dictionary_id", "=", dict.id).execute();
    expect(reviews).toEqual([]);
  });

  it.each([
    [
      "a workbook with a value in column XFD on each of 5,000 rows",
      () => zipOf(workbookParts(sheetXml(Array.from({ length: 5000 }, (_, i) => `<row r="${i + 1}">${textCell(`XFD${i + 1}`, "x")}</row>`).join(""), "A1:XFD5000"))),
      400,
      "The workbook declares 16,384 columns; a dictionary file has at most 50",
    ],
    [
      "a zip bomb (4 GB declared)",
      () => zipOf(workbookParts({ data: sheetXml(""), declaredSize: 4_000_000_000 })),
      413,
      "The workbook's part 'xl/worksheets/sheet1.xml' unpacks to 3,815 MB; a dictionary file unpacks to at most 640 MB",
    ],
    ["a CSV of 5 MB of line breaks", () => new TextEncoder().encode(`${HEADER}\n`.padEnd(5 * 1024 * 1024, "\n")), 413, TOO_MANY_ROWS_MESSAGE],
  ])("refuses %s without exhausting the process, and stores no review", async (what, file, status, message) => {
    const dict = await seedDictionary(api, analyst, acme.id);
    const rssBefore = process.memoryUsage().rss;
    const res = await uploadTo(dict, file(), what.includes("CSV") ? "crafted.csv" : "crafted.xlsx");
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ status, errors: [message], fieldErrors: { file: [message] } });
    expect((process.memoryUsage().rss - rssBefore) / (1024 * 1024)).toBeLessThan(300);
    expect(await api.db.selectFrom("dictionary_reviews").select("id").where("dictionary_id", "=", dict.id).execute()).toEqual([]);
    expect((await api.app.request("/healthz")).status).toBe(200);
  });

  it("answers 400 on `file` when the form has no file, and 415 to a JSON body", async () => {
    const dict = await seedDictionary(api, analyst, acme.id);
    const res = await api.postForm(path(dict.id, "/bulk-uploads"), analyst, { file: "not a file" });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors).toEqual({ file: [CHOOSE_FILE_MESSAGE] });
    const json = await send(api, "POST", path(dict.id, "/bulk-uploads"), analyst, { file: "x" });
    expect(json.status).toBe(415);
  });

  it("refuses to apply a review once the dictionary changed, and changes nothing", async () => {
    const dict = await seedDictionary(api, analyst, acme.id);
    const review = await uploadTo(dict, fixture("sample-dictionary.csv"), "sample-dictionary.csv");
    // Someone else adds a table meanwhile.
    const concurrent = await send(api, "POST", path(dict.id, "/tables"), analyst, { version: 1, name: "Concurrent", columns: [{ name: "Id", type: "int" }] });
    expect(concurrent.status).toBe(201);
    const res = await apply(dict, review.body.id);
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual([REVIEW_STALE_MESSAGE]);
    const { table, ...summary } = concurrent.body;
    expect(await read(dict)).toEqual({ ...summary, tables: [table] });
    // The stale review can still be read and discarded.
    expect((await api.get(path(dict.id, `/bulk-uploads/${review.body.id}`), analyst)).status).toBe(200);
  });

  it("discards a review without touching the dictionary", async () => {
    const dict = await seedDictionary(api, analyst, acme.id);
    const review = await uploadTo(dict, fixture("sample-dictionary.csv"), "sample-dictionary.csv");
    const res = await send(api, "DELETE", path(dict.id, `/bulk-uploads/${review.body.id}`), analyst);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    expect((await api.get(path(dict.id, `/bulk-uploads/${review.body.id}`), analyst)).status).toBe(404);
    const again = await send(api, "DELETE", path(dict.id, `/bulk-uploads/${review.body.id}`), analyst);
    expect(again.status).toBe(404);
    expect(again.body.errors).toEqual([REVIEW_NOT_FOUND_MESSAGE]);
    expect(await read(dict)).toMatchObject({ version: 1, tables: [] });
    // The discard is in the audit log once (the second, refused, is not).
    const audit = await api.get(
      `/api/v1/audit-log?action=api.write&companyId=${acme.id}&contains=bulk-uploads&pageSize=100`,
      await api.tokenFor(USERS.superAdmin),
    );
    const discards = audit.body.items.filter((e: { summary: { path: string } }) => e.summary.path === path(dict.id, `/bulk-uploads/${review.body.id}`));
    expect(discards).toEqual([expect.objectContaining({ target: "DELETE /api/v1/data-dictionaries/:id/bulk-uploads/:reviewId", userId: USERS.analyst.id })]);
  });

  it("uses a review that changes nothing without bumping the version", async () => {
    const dict = await seedDictionary(api, analyst, acme.id);
    const first = await uploadTo(dict, fixture("sample-dictionary.csv"), "sample-dictionary.csv");
    await apply(dict, first.body.id);
    const same = await uploadTo(dict, fixture("sample-dictionary.csv"), "sample-dictionary.csv");
    expect(same.body).toMatchObject({ canApply: false, errors: [] });
    expect(same.body.tables.map((t: { status: string }) => t.status)).toEqual(["unchanged", "unchanged"]);
    const res = await apply(dict, same.body.id);
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(2);
  });

  it("keeps reviews 24 hours: an older one answers 404 and is purged by the next upload", async () => {
    const dict = await seedDictionary(api, analyst, acme.id);
    const old = await createReview(api.db, dict.id, { rowCount: 0, errors: [], tables: [] }, { fileName: "old.csv", userId: USERS.analyst.id, now: new Date(Date.now() - 25 * 3600 * 1000) });
    expect((await api.get(path(dict.id, `/bulk-uploads/${old.id}`), analyst)).status).toBe(404);
    await uploadTo(dict, fixture("sample-dictionary.csv"), "sample-dictionary.csv");
    expect(await api.db.selectFrom("dictionary_reviews").select("id").where("id", "=", old.id).execute()).toEqual([]);
  });

  it("answers 404 for a review of another dictionary", async () => {
    const one = await seedDictionary(api, analyst, acme.id);
    const two = await seedDictionary(api, analyst, acme.id);
    const review = await uploadTo(one, fixture("sample-dictionary.csv"), "sample-dictionary.csv");
    expect((await api.get(path(two.id, `/bulk-uploads/${review.body.id}`), analyst)).status).toBe(404);
    expect((await apply(two, review.body.id)).status).toBe(404);
    expect((await send(api, "DELETE", path(two.id, `/bulk-uploads/${review.body.id}`), analyst)).status).toBe(404);
  });

  it("answers 404 to another company's user and 403 to a Viewer, and stores no review", async () => {
    const dict = await seedDictionary(api, analyst, acme.id);
    const otherCompany = await uploadTo(dict, fixture("sample-dictionary.csv"), "sample-dictionary.csv", await api.tokenFor(USERS.clientAdmin));
    expect(otherCompany.status).toBe(404);
    expect(otherCompany.body.errors).toEqual([DICTIONARY_NOT_FOUND_MESSAGE]);
    const viewer = await uploadTo(dict, fixture("sample-dictionary.csv"), "sample-dictionary.csv", await api.tokenFor(USERS.viewer));
    expect(viewer.status).toBe(403);
    expect(await api.db.selectFrom("dictionary_reviews").select("id").where("dictionary_id", "=", dict.id).execute()).toEqual([]);
  });
  describe("streaming and pages", () => {
    const tmpFiles = () => {
      const dir = uploadsTmpDir(api.dataDir);
      return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
    };

    it("streams a file over the limit to a 413 on `file`: nothing stored, no temporary file left", async () => {
      const dict = await seedDictionary(api, analyst, acme.id);
      // A chunked multipart body: the file part keeps coming past the limit.
      const boundary = "b0undary";
      let sent = 0;
      const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\n\r\n${HEADER}\n`);
      const chunk = new TextEncoder().encode("Orders,Id,int\n".repeat(5000));
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === 0) controller.enqueue(head);
          if (sent > BULK_UPLOAD_MAX_BYTES * 2) return controller.close();
          sent += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
      const res = await api.app.request(path(dict.id, "/bulk-uploads"), {
        method: "POST",
        headers: { authorization: `Bearer ${analyst}`, "content-type": `multipart/form-data; boundary=${boundary}` },
        body,
        duplex: "half",
      } as RequestInit);
      expect(res.status).toBe(413);
      expect((await res.json()).fieldErrors).toEqual({ file: [FILE_TOO_LARGE_MESSAGE] });
      expect(sent).toBeLessThan(BULK_UPLOAD_MAX_BYTES + 1024 * 1024);
      expect(await api.db.selectFrom("dictionary_reviews").select("id").where("dictionary_id", "=", dict.id).execute()).toEqual([]);
      expect(tmpFiles()).toEqual([]);
    });

    it("removes the temporary file after a review is stored and after a file is refused", async () => {
      const dict = await seedDictionary(api, analyst, acme.id);
      expect((await uploadTo(dict, fixture("sample-dictionary.csv"), "sample-dictionary.csv")).status).toBe(201);
      expect((await uploadTo(dict, "just text", "fake.xlsx")).status).toBe(400);
      expect(tmpFiles()).toEqual([]);
    });

    it("pages a review's problems by row and its tables in the file's order", async () => {
      const dict = await seedDictionary(api, analyst, acme.id);
      const bad = await upload(api, path(dict.id, "/bulk-uploads"), analyst, [HEADER, ...Array.from({ length: 30 }, (_, i) => `T${i},C,varchar2`)].join("\n"), "bad.csv");
      expect(bad.status).toBe(201);
      expect(bad.body).toMatchObject({ rowCount: 30, errorCount: 30, tableCount: 30, changingTableCount: 0, canApply: false });
      const problems = await api.get(path(dict.id, `/bulk-uploads/${bad.body.id}/problems?page=3&pageSize=10`), analyst);
      expect(problems.body).toMatchObject({ total: 30, page: 3, pageSize: 10 });
      expect(problems.body.items.map((p: { row: number }) => p.row)).toEqual([22, 23, 24, 25, 26, 27, 28, 29, 30, 31]);
      expect((await api.get(path(dict.id, `/bulk-uploads/${bad.body.id}/tables`), analyst)).body).toEqual({ items: [], total: 0, page: 1, pageSize: 25 });

      const good = await upload(api, path(dict.id, "/bulk-uploads"), analyst, [HEADER, ...Array.from({ length: 30 }, (_, i) => `T${i},C,int`)].join("\n"), "good.csv");
      expect(good.body).toMatchObject({ errorCount: 0, tableCount: 30, changingTableCount: 30, canApply: true });
      const second = await api.get(path(dict.id, `/bulk-uploads/${good.body.id}/tables?page=2&pageSize=25`), analyst);
      expect(second.body).toMatchObject({ total: 30, page: 2, pageSize: 25 });
      expect(second.body.items.map((t: { name: string }) => t.name)).toEqual(["T25", "T26", "T27", "T28", "T29"]);
      expect((await api.get(path(dict.id, `/bulk-uploads/${good.body.id}/tables?pageSize=7`), analyst)).status).toBe(400);
      expect((await api.get(path(dict.id, `/bulk-uploads/nope/problems`), analyst)).status).toBe(404);
    });

    it("stages a big file's rows as rows (no blob) and applies them table by table", async () => {
      const dict = await seedDictionary(api, analyst, acme.id);
      const rows = Array.from({ length: 20_000 }, (_, i) => `T${Math.floor(i / 100)},Column${i % 100},nvarchar,${1 + (i % 50)},,,yes,,`);
      const res = await upload(api, path(dict.id, "/bulk-uploads"), analyst, [HEADER, ...rows].join("\n"), "big.csv");
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ rowCount: 20_000, errorCount: 0, tableCount: 200, changingTableCount: 200, canApply: true });
      const staged = await api.db.selectFrom("dictionary_review_rows").select((eb) => eb.fn.countAll<number>().as("n")).where("review_id", "=", res.body.id).executeTakeFirstOrThrow();
      expect(Number(staged.n)).toBe(20_000);
      const applied = await apply(dict, res.body.id);
      expect(applied.body).toMatchObject({ version: 2, tableCount: 200, columnCount: 20_000 });
      const left = await api.db.selectFrom("dictionary_review_rows").select("line").where("review_id", "=", res.body.id).execute();
      expect(left).toEqual([]);
    });
  });

  describe("a file still being read when the upload is answered", () => {
    /** The same upload on an app that answers at once (uploadWaitMs 0), as a big file would be. */
    const uploadAtOnce = async (d: Pick<Dictionary, "id">, bytes: Uint8Array | string, name: string) => {
      const { status, body } = await api.postForm(path(d.id, "/bulk-uploads"), analyst, { file: { name, content: bytes } }, api.appWith({ uploadWaitMs: 0 }));
      return { status, body };
    };
    /** Reads the review until it is ready (its page's refresh does the same). */
    const whenReady = async (d: Pick<Dictionary, "id">, reviewId: string) => {
      for (let i = 0; i < 200; i++) {
        const res = await send(api, "GET", path(d.id, `/bulk-uploads/${reviewId}`), analyst);
        if (res.status !== 200 || res.body.status === "ready") return res;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error("the review never became ready");
    };

    it("answers 202 with the review parsing, whose rows follow; once ready it is whole and applies", async () => {
      const dict = await seedDictionary(api, analyst, acme.id);
      const lines = [HEADER, ...Array.from({ length: 6000 }, (_, i) => `T${Math.floor(i / 40)},C${i % 40},int,,,,yes,no,`)];
      const res = await uploadAtOnce(dict, lines.join("\n"), "big.csv");
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ fileName: "big.csv", status: "parsing", canApply: false });
      const ready = await whenReady(dict, res.body.id);
      expect(ready.body).toMatchObject({ status: "ready", rowCount: 6000, tableCount: 150, errorCount: 0, canApply: true });
      // The upload is in the audit log from the moment its review is ready, though that came after the answer.
      const audit = await api.get(
        `/api/v1/audit-log?action=api.write&companyId=${acme.id}&contains=bulk-uploads&pageSize=100`,
        await api.tokenFor(USERS.superAdmin),
      );
      expect(audit.body.items.filter((e: { summary: { reviewId?: string } }) => e.summary.reviewId === res.body.id)).toEqual([
        expect.objectContaining({
          target: "POST /api/v1/data-dictionaries/:id/bulk-uploads",
          userId: USERS.analyst.id,
          summary: expect.objectContaining({ rows: 6000, problems: 0 }),
        }),
      ]);
      expect((await readReview(dict, res.body.id)).tables).toHaveLength(150);
      expect((await apply(dict, res.body.id)).status).toBe(200);
      expect((await read(dict)).tables).toHaveLength(150);
      // The temporary file went with the reading.
      expect(fs.readdirSync(uploadsTmpDir(api.dataDir))).toEqual([]);
    });

    it("a review discarded while its file is read: the reading stops quietly, nothing logged as an error, nothing left", async () => {
      const dict = await seedDictionary(api, analyst, acme.id);
      const errors: { msg: string; fields?: Record<string, unknown> }[] = [];
      const silent = () => undefined;
      const logger = { debug: silent, info: silent, warn: silent, error: (msg: string, fields?: Record<string, unknown>) => void errors.push({ msg, fields }) };
      const lines = [HEADER, ...Array.from({ length: 60_000 }, (_, i) => `T${Math.floor(i / 40)},C${i % 40},int,,,,yes,no,`)];
      const via = api.appWith({ uploadWaitMs: 0, logger });
      const res = await api.postForm(path(dict.id, "/bulk-uploads"), analyst, { file: { name: "big.csv", content: lines.join("\n") } }, via);
      expect(res.status).toBe(202);
      expect((await send(api, "DELETE", path(dict.id, `/bulk-uploads/${res.body.id}`), analyst)).status).toBe(204);
      // The reading ends: its temporary file goes.
      for (let i = 0; i < 400 && fs.readdirSync(uploadsTmpDir(api.dataDir)).length > 0; i++) await new Promise((r) => setTimeout(r, 25));
      expect(fs.readdirSync(uploadsTmpDir(api.dataDir))).toEqual([]);
      expect(errors).toEqual([]);
      const left = await api.db.selectFrom("dictionary_review_rows").select("line").where("review_id", "=", res.body.id).execute();
      expect(left).toEqual([]);
      expect((await send(api, "GET", path(dict.id, `/bulk-uploads/${res.body.id}`), analyst)).status).toBe(404);
    });

    it("a review still being read cannot be applied: 409 with the reason, nothing changes", async () => {
      const dict = await seedDictionary(api, analyst, acme.id);
      const res = await uploadTo(dict, fixture("sample-dictionary.csv"), "sample-dictionary.csv");
      // As it stands while its file is read.
      await api.db.updateTable("dictionary_reviews").set({ status: "parsing" }).where("id", "=", res.body.id).execute();
      expect((await send(api, "GET", path(dict.id, `/bulk-uploads/${res.body.id}`), analyst)).body).toMatchObject({ status: "parsing", canApply: false });
      const refused = await apply(dict, res.body.id);
      expect(refused.status).toBe(409);
      expect(refused.body.errors).toEqual([REVIEW_STILL_READING_MESSAGE]);
      expect((await read(dict)).version).toBe(1);
    });

    it("a review whose process stopped while reading it says so at the next start, and cannot be applied", async () => {
      const dict = await seedDictionary(api, analyst, acme.id);
      const res = await uploadTo(dict, fixture("sample-dictionary.csv"), "sample-dictionary.csv");
      // As a data API killed while it read the file left it.
      await api.db.updateTable("dictionary_reviews").set({ status: "parsing" }).where("id", "=", res.body.id).execute();
      // The sweep of a control plane shared with other processes leaves it: another may be reading it.
      await recoverInterruptedJobs(api.db, { staleBefore: new Date() });
      expect((await send(api, "GET", path(dict.id, `/bulk-uploads/${res.body.id}`), analyst)).body).toMatchObject({ status: "parsing" });
      await recoverInterruptedJobs(api.db);
      const ended = await send(api, "GET", path(dict.id, `/bulk-uploads/${res.body.id}`), analyst);
      expect(ended.body).toMatchObject({ status: "ready", errorCount: 1, canApply: false });
      expect((await readReview(dict, res.body.id)).errors).toEqual([expect.objectContaining({ row: null, column: "file", message: INTERRUPTED_REVIEW_MESSAGE })]);
      expect((await apply(dict, res.body.id)).body.errors).toEqual([REVIEW_HAS_ERRORS_MESSAGE]);
      expect((await read(dict)).version).toBe(1);
    });

    it("a file that fails after the answer keeps its review, with the failure as its one problem", async () => {
      const dict = await seedDictionary(api, analyst, acme.id);
      const res = await uploadAtOnce(dict, "not a workbook at all", "broken.xlsx");
      expect(res.status).toBe(202);
      const ready = await whenReady(dict, res.body.id);
      expect(ready.body).toMatchObject({ status: "ready", errorCount: 1, canApply: false });
      const review = await readReview(dict, res.body.id);
      expect(review.errors).toHaveLength(1);
      expect(review.errors[0]).toMatchObject({ row: null, column: "file" });
      expect(review.errors[0].message).toMatch(/xlsx|workbook|read/i);
      expect((await read(dict)).version).toBe(1);
    });
  });
});
