import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../../../scripts/demo-data.ts";
import type { MappingTable, Translation } from "../../../../../contracts/mappings.ts";
import type { Project } from "../../../../../contracts/projects.ts";
import { TEST_DATABASE_KINDS } from "../../../../shared/testing/databases.ts";
import { recoverInterruptedJobs } from "../../jobs/recover.ts";
import { createTranslation, INTERRUPTED_TRANSLATION_MESSAGE } from "../../repositories/translations.ts";
import { USERS, createTestApi, type TestApi } from "../../testing/harness.ts";
import { addProjectTable, column, makeApplication, makeMappingProject, translationFinished } from "../../testing/project-fixtures.ts";

const [, acme, birch] = DEMO_COMPANIES;
const BASE = "/api/v1/mapping-projects";

describe.each(TEST_DATABASE_KINDS)("translating a file with a mapping project's maps on %s", (kind) => {
  let api: TestApi;
  let analyst: string;
  let project: Project;
  let table: MappingTable;
  beforeAll(async () => {
    api = await createTestApi(kind);
    analyst = await api.tokenFor(USERS.analyst);
    // employees: grade (unmapped → the default G0), department (unmapped → the row is rejected), salary (not translated).
    const app = await makeApplication(api, acme.id);
    project = await makeMappingProject(api, analyst, { companyId: acme.id, applicationId: app.id });
    const { tableId } = await addProjectTable(api, project.id, {
      name: "employees",
      columns: [column("grade", "nvarchar", { length: 3 }), column("department", "nvarchar", { length: 20 }), column("salary", "int")],
    });
    table = (await api.get(`${BASE}/${project.id}/mapping-tables/${tableId}`, analyst)).body;
    const [grade, department] = table.columns;
    const setUp = async (id: string, rule: object, values: object[]) => {
      await api.send("PUT", `${BASE}/${project.id}/mapping-columns/${id}/settings`, analyst, { version: 0, translate: true, ...rule });
      await api.send("POST", `${BASE}/${project.id}/mapping-columns/${id}/values`, analyst, { version: 1, values });
    };
    await setUp(grade!.id, { unmappedRule: "Default", defaultValue: "G0" }, [{ sourceValue: "G7", targetValue: "P7" }]);
    await setUp(department!.id, { unmappedRule: "Reject" }, [
      { sourceValue: "FIN", targetValue: "Finance" },
      { sourceValue: "HR", targetValue: "Human, resources" },
    ]);
  });
  afterAll(() => api?.close());

  async function translate(
    file: { name: string; text: string | Uint8Array },
    fields: Record<string, string> = { table: "employees" },
    token = analyst,
    projectId = project.id,
  ) {
    return api.postForm(`${BASE}/${projectId}/translations`, token, { file: { name: file.name, content: file.text }, ...fields });
  }
  const finished = (id: string) => translationFinished(api, analyst, project.id, id);

  it("writes the file translated (same columns), applies each column's rule and reports what was unmapped and rejected", async () => {
    const started = await translate({ name: "payroll.csv", text: "grade,department,salary\nG7,FIN,10\nG1,HR,20\nG7,OPS,30\nG9,FIN,\n" });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ status: "Running", tableName: "employees", fileName: "payroll.csv" });
    const done = await finished(started.body.id);
    expect(done).toMatchObject({ status: "Completed", rowsRead: 4, rowsWritten: 3, rowsRejected: 1, error: null });
    // Its table's id in the file data structure, for the way from the report to the table's value maps.
    expect(done.tableId).toBe(table.id);
    expect(done.report).toEqual({
      columns: [
        {
          name: "grade",
          rule: "Default",
          unmappedCells: 2,
          unmappedDistinct: 2,
          unmappedValues: [
            { value: "G1", count: 1 },
            { value: "G9", count: 1 },
          ],
        },
        { name: "department", rule: "Reject", unmappedCells: 1, unmappedDistinct: 1, unmappedValues: [{ value: "OPS", count: 1 }] },
      ],
      rejected: [{ row: 4, column: "department", value: "OPS" }],
    });
    const res = await api.app.request(`${BASE}/${project.id}/translations/${done.id}/file`, { headers: { authorization: `Bearer ${analyst}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toContain("payroll-translated.csv");
    expect(await res.text()).toBe('grade,department,salary\r\nP7,Finance,10\r\nG0,"Human, resources",20\r\nG0,Finance,\r\n');
    const listed = await api.get(`${BASE}/${project.id}/translations`, analyst);
    expect(listed.body.items[0].id).toBe(done.id);
  });

  it("reads a file without a header by position, and an .xlsx-less semicolon file by its detected delimiter", async () => {
    const byPosition = await translate({ name: "employees.txt", text: "G7;HR;1\n" }, { hasHeaderRow: "false" });
    expect(byPosition.status).toBe(202);
    const done = await finished(byPosition.body.id);
    const res = await api.app.request(`${BASE}/${project.id}/translations/${done.id}/file`, { headers: { authorization: `Bearer ${analyst}` } });
    expect(await res.text()).toBe('P7,"Human, resources",1\r\n');
  });

  it("gives back a file that carried a byte-order mark, or was in a code page, with UTF-8's mark: its accents read as the client's file showed them", async () => {
    const download = async (text: string | Uint8Array) => {
      const done = await finished((await translate({ name: "accents.csv", text })).body.id);
      expect(done).toMatchObject({ status: "Completed", rowsWritten: 1 });
      const res = await api.app.request(`${BASE}/${project.id}/translations/${done.id}/file`, { headers: { authorization: `Bearer ${analyst}` } });
      return Buffer.from(await res.arrayBuffer());
    };
    const utf8 = (text: string) => Buffer.from(text, "utf8");
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    // Excel's "CSV UTF-8": the mark kept, CRLF, quoting and the untranslated accents as they were.
    expect(await download(Buffer.concat([bom, utf8('grade,department,salary\r\n"G7",FIN,"Zoë, 1"\r\n')]))).toEqual(
      Buffer.concat([bom, utf8('grade,department,salary\r\nP7,Finance,"Zoë, 1"\r\n')]),
    );
    // Windows-1252 (its "ë" is one byte, 0xEB): written as UTF-8, with the mark that says so.
    expect(await download(Buffer.from("grade;department;salary\nG7;FIN;Zoë\n", "latin1"))).toEqual(
      Buffer.concat([bom, utf8("grade,department,salary\r\nP7,Finance,Zoë\r\n")]),
    );
    // UTF-8 without a mark stays without one.
    expect(await download(utf8("grade,department,salary\nG7,FIN,Zoë\n"))).toEqual(utf8("grade,department,salary\r\nP7,Finance,Zoë\r\n"));
  });

  it("keeps a column without a name (a header ending in a delimiter) as it came, untranslated, where a column the table lacks is refused", async () => {
    const trailing = await finished((await translate({ name: "trailing.csv", text: "grade,department,salary,\nG7,FIN,10,\nG7,HR,20,x\n" })).body.id);
    expect(trailing).toMatchObject({ status: "Completed", rowsRead: 2, rowsWritten: 2, rowsRejected: 0 });
    const res = await api.app.request(`${BASE}/${project.id}/translations/${trailing.id}/file`, { headers: { authorization: `Bearer ${analyst}` } });
    expect(await res.text()).toBe('grade,department,salary,\r\nP7,Finance,10,\r\nP7,"Human, resources",20,x\r\n');
    // Two columns without a name are no column named twice; a named column the table lacks is still refused.
    expect((await translate({ name: "gaps.csv", text: "grade,,department,salary,\nG7,,FIN,10,\n" })).status).toBe(202);
    // A first row of data, the box for a file without one left unticked.
    const data = await translate({ name: "data.csv", text: "G7,FIN,10\nG1,HR,20\n" });
    expect(data.body.fieldErrors.file).toEqual([
      "The first row (row 1, the header) names none of the columns of the table 'employees': it reads G7, FIN, 10. If the file has no header row, tick “The file has no header row”: its columns are then read by position",
    ]);
    const named = await translate({ name: "named.csv", text: "grade,department,salary,,boss\nG7,FIN,10,,Ann\n" });
    expect(named.body.fieldErrors.file).toEqual([
      "The file has a column the table 'employees' lacks: boss. Add it to the file data structure, or leave it out of the file",
    ]);
  });

  it("rejects a row with fewer or more values than the header (or, without one, the first row) whole, with the reason, as a load does", async () => {
    const started = await translate({ name: "ragged.csv", text: "grade,department,salary\nG7,FIN\nG1,HR,20,zz\nG7,FIN,10\n" });
    const done = await finished(started.body.id);
    expect(done).toMatchObject({ status: "Completed", rowsRead: 3, rowsWritten: 1, rowsRejected: 2 });
    expect(done.report!.rejected).toEqual([
      { row: 2, column: null, reason: "2 values where the header has 3" },
      { row: 3, column: null, reason: "4 values where the header has 3" },
    ]);
    // A rejected row's values are not counted as unmapped: none of them was translated.
    expect(done.report!.columns.map((c) => c.unmappedCells)).toEqual([0, 0]);
    const res = await api.app.request(`${BASE}/${project.id}/translations/${done.id}/file`, { headers: { authorization: `Bearer ${analyst}` } });
    expect(await res.text()).toBe("grade,department,salary\r\nP7,Finance,10\r\n");

    const byPosition = await finished(
      (await translate({ name: "ragged.txt", text: "G7;HR\nG7;FIN;3\nG7;FIN\n" }, { table: "employees", hasHeaderRow: "false" })).body.id,
    );
    expect(byPosition).toMatchObject({ status: "Completed", rowsRead: 3, rowsWritten: 2, rowsRejected: 1 });
    expect(byPosition.report!.rejected).toEqual([{ row: 2, column: null, reason: "3 values where the first row has 2" }]);
  });

  it("skips a line of only separators, as a load does: no row written, read or rejected", async () => {
    const withHeader = await finished((await translate({ name: "gaps.csv", text: "grade,department,salary\nG7,FIN,10\n,,\nG7,HR,20\n\n" })).body.id);
    expect(withHeader).toMatchObject({ status: "Completed", rowsRead: 2, rowsWritten: 2, rowsRejected: 0 });
    expect(withHeader.report!.rejected).toEqual([]);
    const res = await api.app.request(`${BASE}/${project.id}/translations/${withHeader.id}/file`, { headers: { authorization: `Bearer ${analyst}` } });
    expect(await res.text()).toBe('grade,department,salary\r\nP7,Finance,10\r\nP7,"Human, resources",20\r\n');

    // Without a header, a first line of only separators is not the row that gives the file its width either.
    const byPosition = await finished(
      (await translate({ name: "gaps.txt", text: ";;\nG7;FIN;1\n;;\nG7;HR;2\n" }, { table: "employees", hasHeaderRow: "false" })).body.id,
    );
    expect(byPosition).toMatchObject({ status: "Completed", rowsRead: 2, rowsWritten: 2, rowsRejected: 0 });
    const file = await api.app.request(`${BASE}/${project.id}/translations/${byPosition.id}/file`, { headers: { authorization: `Bearer ${analyst}` } });
    expect(await file.text()).toBe('P7,Finance,1\r\nP7,"Human, resources",2\r\n');
  });

  it("refuses a file whose columns do not match the table, and one without a translated table, before anything starts", async () => {
    const before = (await api.get(`${BASE}/${project.id}/translations`, analyst)).body.total;
    const unknown = await translate({ name: "x.csv", text: "grade,boss\nG7,Ann\n" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fieldErrors.file[0]).toMatch(/^The file has a column the table 'employees' lacks: boss/);
    const missing = await translate({ name: "x.csv", text: "grade,salary\nG7,1\n" });
    expect(missing.body.fieldErrors.file).toEqual(["The file has no column department: the columns to translate must be in it"]);
    expect((await translate({ name: "x.csv", text: "" })).body.fieldErrors.file).toEqual(["The file is empty"]);
    expect((await translate({ name: "x.csv", text: "a" }, { table: "nope" })).body.fieldErrors.table).toEqual(["Choose a table of the file data structure"]);
    const binary = await translate({ name: "x.csv", text: "\u0000\u0001binary" });
    expect(binary.status).toBe(400);
    // A workbook not named .xlsx, in words that fit the page (it has no flat-file parameters to set).
    const workbook = await translate({ name: "x.csv", text: new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 1, 2, 3]) });
    expect(workbook.body.fieldErrors.file).toEqual([
      "The file is an .xlsx workbook (or a zip archive) whose name does not end in .xlsx: rename it to .xlsx to read its first worksheet, or save it as CSV",
    ]);
    expect((await api.get(`${BASE}/${project.id}/translations`, analyst)).body.total).toBe(before);
  });

  it("finds the table named in any case, else by the file's name, in this project's structure only", async () => {
    const before = (await api.get(`${BASE}/${project.id}/translations`, analyst)).body.total;
    // Another project of the same company has a table this one lacks: naming it is refused, as an unknown name is.
    const other = await makeMappingProject(api, analyst, { companyId: acme.id, applicationId: project.applicationId });
    await addProjectTable(api, other.id, { name: "contractors", columns: [column("grade", "nvarchar", { length: 3 })] });
    const choose = { table: ["Choose a table of the file data structure"] };
    expect((await translate({ name: "x.csv", text: "grade\nG7\n" }, { table: "contractors" })).body.fieldErrors).toEqual(choose);
    expect((await translate({ name: "contractors.csv", text: "grade\nG7\n" }, {})).body.fieldErrors).toEqual(choose);
    expect((await api.get(`${BASE}/${project.id}/translations`, analyst)).body.total).toBe(before);
    const started = await translate({ name: "x.csv", text: "grade,department,salary\nG7,FIN,1\n" }, { table: " EMPLOYEES " });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(await finished(started.body.id)).toMatchObject({ status: "Completed", tableName: "employees" });
  });

  it("reads and translates the file a table was described from, whose header the description cleaned up, under the client's header", async () => {
    // "Emp No" became Emp_No, the second "Grade" Grade_3, "été" ete: the client's header names none of them as it is.
    const text = "Emp No;Grade;Grade;été\nE1;G7;G1;x\nE2;G1;G7;y\n";
    const described = await api.postForm(`${BASE}/${project.id}/file-data-structure/samples`, analyst, { file: { name: "staff.csv", content: text } });
    expect(described.status, JSON.stringify(described.body)).toBe(201);
    const staff = (await api.get(`${BASE}/${project.id}/mapping-tables/${described.body.tableId}`, analyst)).body as MappingTable;
    expect(staff.columns.map((c) => c.name)).toEqual(["Emp_No", "Grade", "Grade_3", "ete"]);
    for (const c of staff.columns.filter((c) => c.name === "Grade_3" || c.name === "ete"))
      await api.send("PUT", `${BASE}/${project.id}/mapping-columns/${c.id}/settings`, analyst, { version: 0, translate: true, unmappedRule: "Keep" });
    /** The file read as a sample of `tableId`'s value maps: each translated column's values, from the cell it matched. */
    const sampleOf = async (tableId: string) => {
      const sample = await api.postForm(`${BASE}/${project.id}/mapping-tables/${tableId}/samples`, analyst, { file: { name: "staff.csv", content: text } });
      expect(sample.status, JSON.stringify(sample.body)).toBe(200);
      return sample.body.columns.map((c: { name: string; distinct: number }) => [c.name, c.distinct]);
    };
    /** The file translated with `table`'s maps. */
    const translatedWith = async (table: string) => {
      const started = await translate({ name: "staff.csv", text }, { table });
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      const done = await finished(started.body.id);
      expect(done).toMatchObject({ status: "Completed", rowsRead: 2, rowsWritten: 2 });
      return (await api.app.request(`${BASE}/${project.id}/translations/${done.id}/file`, { headers: { authorization: `Bearer ${analyst}` } })).text();
    };
    // Its value maps read it as a sample, from the cell the description named each column after.
    expect(await sampleOf(staff.id)).toEqual([
      ["Grade_3", 2],
      ["ete", 2],
    ]);
    const grade3 = staff.columns.find((c) => c.name === "Grade_3")!;
    await api.send("POST", `${BASE}/${project.id}/mapping-columns/${grade3.id}/values`, analyst, {
      version: 2,
      values: [{ sourceValue: "G1", targetValue: "P1" }],
    });
    // Only the second Grade is translated; the header is the client's.
    expect(await translatedWith("staff")).toBe("Emp No,Grade,Grade,été\r\nE1,G7,P1,x\r\nE2,G1,G7,y\r\n");
    // A table described from it before accents were kept ("été" was t) still matches it, as a sample and to translate.
    const { tableId: beforeId } = await addProjectTable(api, project.id, {
      name: "staff_before",
      columns: [
        column("Emp_No", "nvarchar", { length: 10 }),
        column("Grade", "nvarchar", { length: 10 }),
        column("Grade_3", "nvarchar", { length: 10 }),
        column("t", "nvarchar", { length: 10 }),
      ],
    });
    const t = (await api.get(`${BASE}/${project.id}/mapping-tables/${beforeId}`, analyst)).body.columns.find((c: { name: string }) => c.name === "t");
    await api.send("PUT", `${BASE}/${project.id}/mapping-columns/${t.id}/settings`, analyst, { version: 0, translate: true, unmappedRule: "Keep" });
    expect(await sampleOf(beforeId)).toEqual([["t", 2]]);
    await api.send("POST", `${BASE}/${project.id}/mapping-columns/${t.id}/values`, analyst, { version: 2, values: [{ sourceValue: "x", targetValue: "X" }] });
    expect(await translatedWith("staff_before")).toBe("Emp No,Grade,Grade,été\r\nE1,G7,G1,X\r\nE2,G1,G7,y\r\n");
    // A name written twice where the table has no second column for it is still refused.
    const twice = await translate({ name: "x.csv", text: "grade,grade,department,salary\nG7,G7,FIN,1\n" });
    expect(twice.body.fieldErrors.file).toEqual(["The header names the column 'grade' twice"]);
  });

  it("fails a file broken further down with the reason, and gives no file for it", async () => {
    const started = await translate({ name: "broken.csv", text: 'grade,department,salary\nG7,FIN,1\nG7,"FIN,2\n' });
    const done = await finished(started.body.id);
    expect(done.status).toBe("Failed");
    expect(done.error).toMatch(/^The file could not be read: on row 3/);
    const res = await api.app.request(`${BASE}/${project.id}/translations/${done.id}/file`, { headers: { authorization: `Bearer ${analyst}` } });
    expect(res.status).toBe(409);
  });

  it("lists the translations newest first a page at a time, the older ones on the next pages", async () => {
    const other = await makeMappingProject(api, analyst, { companyId: acme.id, applicationId: project.applicationId });
    const start = Date.parse("2026-01-01T00:00:00Z");
    for (let i = 1; i <= 12; i++)
      await createTranslation(
        api.db,
        { projectId: other.id, tableName: "employees", fileName: `file-${i}.csv`, bytesTotal: 1, userId: "u" },
        new Date(start + i * 1000),
      );
    const names = (page: { items: Translation[] }) => page.items.map((t) => t.fileName);
    const first = await api.get(`${BASE}/${other.id}/translations?pageSize=10`, analyst);
    expect(first.body).toMatchObject({ total: 12, page: 1, pageSize: 10 });
    expect(names(first.body)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3].map((i) => `file-${i}.csv`));
    const second = await api.get(`${BASE}/${other.id}/translations?page=2&pageSize=10`, analyst);
    expect(second.body).toMatchObject({ total: 12, page: 2 });
    expect(names(second.body)).toEqual(["file-2.csv", "file-1.csv"]);
    expect((await api.get(`${BASE}/${other.id}/translations`, analyst)).body.items).toHaveLength(12);
    expect((await api.get(`${BASE}/${other.id}/translations?pageSize=1000`, analyst)).status).toBe(400);
  });

  it("is the project's: another company's answers 404; after a restart a translation left Running is Failed", async () => {
    const translator = await api.tokenFor(USERS.translator);
    const theirs = await makeMappingProject(api, await api.tokenFor(USERS.superAdmin), {
      companyId: birch.id,
      applicationId: (await makeApplication(api, birch.id)).id,
    });
    expect((await translate({ name: "x.csv", text: "grade\n" }, { table: "employees" }, translator, theirs.id)).status).toBe(404);
    const left = await createTranslation(api.db, { projectId: project.id, tableName: "employees", fileName: "x.csv", bytesTotal: 1, userId: "u" });
    await recoverInterruptedJobs(api.db);
    const after = (await api.get(`${BASE}/${project.id}/translations/${left}`, analyst)).body;
    expect(after).toMatchObject({ status: "Failed", error: INTERRUPTED_TRANSLATION_MESSAGE });
  });
});
