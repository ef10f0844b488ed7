import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../../../scripts/demo-data.ts";
import type { ColumnInput } from "../../../../../contracts/dictionary.ts";
import type { MappingColumn, MappingTable } from "../../../../../contracts/mappings.ts";
import type { Project } from "../../../../../contracts/projects.ts";
import { TEST_DATABASE_KINDS } from "../../../../shared/testing/databases.ts";
import { findProjectDictionaryRef } from "../../repositories/dictionaries.ts";
import { IMPORT_CHECK_PAGE, MAP_CHECK_PAGE, addValue as addMapValue, claimForSample, findMappingColumn, saveValues as saveMapValues } from "../../repositories/value-maps.ts";
import { upload as uploadDictionary } from "../../testing/dictionary-fixtures.ts";
import { USERS, createTestApi, type TestApi } from "../../testing/harness.ts";
import { addProjectTable, column, makeApplication, makeMappingProject } from "../../testing/project-fixtures.ts";

const [, acme, birch] = DEMO_COMPANIES;
const BASE = "/api/v1/mapping-projects";
/** The first bytes of an .xlsx workbook (a zip archive). */
const WORKBOOK_START = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 1, 2, 3]);

describe.each(TEST_DATABASE_KINDS)("value maps of mapping projects on %s", (kind) => {
  let api: TestApi;
  let analyst: string;
  beforeAll(async () => {
    api = await createTestApi(kind);
    analyst = await api.tokenFor(USERS.analyst);
  });
  afterAll(() => api?.close());

  /** A mapping project with a table `employees` (grade nvarchar(3), department nvarchar(20), salary int). */
  async function mapping(companyId: string = acme.id): Promise<{ project: Project; table: MappingTable; token: string }> {
    const token = companyId === acme.id ? analyst : await api.tokenFor(USERS.superAdmin);
    const app = await makeApplication(api, companyId);
    const project = await makeMappingProject(api, token, { companyId, applicationId: app.id });
    const created = await addProjectTable(api, project.id, {
      name: "employees",
      columns: [column("grade", "nvarchar", { length: 3 }), column("department", "nvarchar", { length: 20 }), column("salary", "int")],
    });
    const table = (await api.get(`${BASE}/${project.id}/mapping-tables/${created.tableId}`, token)).body as MappingTable;
    return { project, table, token };
  }
  const col = (table: MappingTable, name: string) => table.columns.find((c) => c.name === name)!;
  const settings = (p: Project, c: MappingColumn, body: object) =>
    api.send("PUT", `${BASE}/${p.id}/mapping-columns/${c.id}/settings`, analyst, { version: c.version, ...body });
  const values = (p: Project, c: MappingColumn, query = "") => api.get(`${BASE}/${p.id}/mapping-columns/${c.id}/values${query}`, analyst);
  /** Saves the table's form, its name kept, with `columns`: based on the dictionary's version as it is now. */
  async function saveTable(p: Project, table: MappingTable, columns: ColumnInput[]) {
    const { version } = (await api.get(`${BASE}/${p.id}/data-dictionary`, analyst)).body;
    return api.send("PATCH", `${BASE}/${p.id}/data-dictionary/tables`, analyst, { version, tableId: table.id, name: table.name, description: null, columns });
  }
  async function upload(path: string, file: { name: string; text: string | Uint8Array }, fields: Record<string, string> = {}, token = analyst) {
    return api.postForm(path, token, { file: { name: file.name, content: file.text }, ...fields });
  }

  it("answers each column's type as the dictionary gives it, a decimal with its precision and scale", async () => {
    const app = await makeApplication(api, acme.id);
    const project = await makeMappingProject(api, analyst, { companyId: acme.id, applicationId: app.id });
    const created = await addProjectTable(api, project.id, {
      name: "pay",
      columns: [column("grade", "nvarchar", { length: 3 }), column("rate", "decimal", { precision: 12, scale: 4 }), column("hours", "int")],
    });
    const table = (await api.get(`${BASE}/${project.id}/mapping-tables/${created.tableId}`, analyst)).body as MappingTable;
    expect(table.columns.map((c) => [c.name, c.type, c.length, c.precision, c.scale])).toEqual([
      ["grade", "nvarchar", 3, null, null],
      ["rate", "decimal", null, 12, 4],
      ["hours", "int", null, null, null],
    ]);
  });

  it("marks columns Translate with their rule, refusing a stale edit and a default that does not fit", async () => {
    const { project, table } = await mapping();
    expect(table.columns.map((c) => [c.name, c.translate, c.unmappedRule, c.version])).toEqual([
      ["grade", false, "Keep", 0],
      ["department", false, "Keep", 0],
      ["salary", false, "Keep", 0],
    ]);
    const grade = col(table, "grade");
    const saved = await settings(project, grade, { translate: true, unmappedRule: "Default", defaultValue: "G000" });
    expect(saved.status).toBe(400);
    expect(saved.body.fieldErrors.defaultValue).toEqual(['The default value "G000" for grade: longer than 3 characters']);
    const noDefault = await settings(project, grade, { translate: true, unmappedRule: "Default" });
    expect(noDefault.body.fieldErrors.defaultValue).toEqual(["Give the default value"]);

    const ok = await settings(project, grade, { translate: true, unmappedRule: "Default", defaultValue: "G0" });
    expect(ok.status).toBe(200);
    expect(col(ok.body, "grade")).toMatchObject({ translate: true, unmappedRule: "Default", defaultValue: "G0", version: 1 });
    // The same edit again, based on version 0: refused, nothing changed.
    const stale = await settings(project, grade, { translate: false, unmappedRule: "Keep" });
    expect(stale.status).toBe(409);
    // Saved by the same analyst: their other tab, not someone else.
    expect(stale.body.errors).toEqual([expect.stringMatching(/^You changed the map of grade or its column's type in another tab or window at \d\d:\d\d UTC\. Nothing was saved\.$/)]);
    expect(col((await api.get(`${BASE}/${project.id}/mapping-tables/${table.id}`, analyst)).body, "grade").translate).toBe(true);
  });

  it("edits values in bulk (unmapped first, searched and paged in SQL), refusing a target that does not fit and a stale save", async () => {
    const { project, table } = await mapping();
    const grade = col(table, "grade");
    const first = await api.send("POST", `${BASE}/${project.id}/mapping-columns/${grade.id}/values`, analyst, {
      version: 0,
      values: [
        { sourceValue: "G7", targetValue: "P7" },
        { sourceValue: "G1", targetValue: null },
        { sourceValue: "G3", targetValue: "" },
        { sourceValue: "G9", targetValue: "P9" },
      ],
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ distinctCount: 4, mappedCount: 2, version: 1 });
    const page = await values(project, grade, "?pageSize=10");
    expect(page.body.items.map((v: { sourceValue: string; targetValue: string | null }) => [v.sourceValue, v.targetValue])).toEqual([
      ["G1", null],
      ["G3", null],
      ["G7", "P7"],
      ["G9", "P9"],
    ]);
    expect((await values(project, grade, "?search=p9")).body.items.map((v: { sourceValue: string }) => v.sourceValue)).toEqual(["G9"]);
    expect((await values(project, grade, "?unmapped=true")).body.total).toBe(2);
    const second = await values(project, grade, "?pageSize=10&page=1&search=g");
    expect(second.body.total).toBe(4);

    const tooLong = await api.send("POST", `${BASE}/${project.id}/mapping-columns/${grade.id}/values`, analyst, {
      version: 1,
      values: [{ sourceValue: "G1", targetValue: "PAY1" }],
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.fieldErrors.values).toEqual(['The target value "PAY1" for grade: longer than 3 characters']);
    const salary = col(table, "salary");
    const notNumber = await api.send("POST", `${BASE}/${project.id}/mapping-columns/${salary.id}/values`, analyst, {
      version: 0,
      values: [{ sourceValue: "low", targetValue: "lots" }],
    });
    expect(notNumber.body.fieldErrors.values).toEqual(['The target value "lots" for salary: not a whole number']);
    // A message names the value it refuses (the row of a form of many), not only the field's path.
    const long = await api.send("POST", `${BASE}/${project.id}/mapping-columns/${grade.id}/values`, analyst, {
      version: 1,
      values: [{ sourceValue: "S".repeat(4_001), targetValue: "P1" }],
    });
    expect(long.status).toBe(400);
    expect(long.body.fieldErrors).toEqual({ "values.0.sourceValue": [`The source value "${"S".repeat(60)}…" has more than 4,000 characters`] });
    const stale = await api.send("POST", `${BASE}/${project.id}/mapping-columns/${grade.id}/values`, analyst, {
      version: 0,
      values: [{ sourceValue: "G1", targetValue: "P1" }],
    });
    expect(stale.status).toBe(409);
    expect((await values(project, grade, "?unmapped=true")).body.total).toBe(2);
  });

  it("adds a value the map lacks, refusing one it holds (naming its target) rather than overwriting it; spaces make another value", async () => {
    const { project, table } = await mapping();
    const grade = col(table, "grade");
    const path = `${BASE}/${project.id}/mapping-columns/${grade.id}/values`;
    await api.send("POST", path, analyst, {
      version: 0,
      values: [
        { sourceValue: "Alice", targetValue: "A1" },
        { sourceValue: "Bob", targetValue: null },
      ],
    });
    const add = (body: object) => api.send("POST", `${path}/add`, analyst, { version: 1, ...body });

    const mapped = await add({ sourceValue: "Alice", targetValue: "A2" });
    expect(mapped.status).toBe(409);
    expect(mapped.body.fieldErrors).toEqual({ sourceValue: ['"Alice" is already mapped (to A1): change it in the list'] });
    const unmapped = await add({ sourceValue: "Bob", targetValue: "B1" });
    expect(unmapped.status).toBe(409);
    expect(unmapped.body.fieldErrors).toEqual({ sourceValue: ['"Bob" is already in the list, unmapped: give its target there'] });
    const huge = await add({ sourceValue: "S".repeat(4_001), targetValue: "S1" });
    expect(huge.body.fieldErrors).toEqual({ sourceValue: [`The source value "${"S".repeat(60)}…" has more than 4,000 characters`] });
    const tooLong = await add({ sourceValue: "Carl", targetValue: "PAY1" });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.fieldErrors).toEqual({ targetValue: ['The target value "PAY1" for grade: longer than 3 characters'] });
    // Nothing was written, the version did not move.
    expect((await values(project, grade)).body.items.map((v: { sourceValue: string; targetValue: string | null }) => [v.sourceValue, v.targetValue])).toEqual([
      ["Bob", null],
      ["Alice", "A1"],
    ]);

    const spaced = await add({ sourceValue: " Alice ", targetValue: "A3" });
    expect(spaced.status).toBe(200);
    expect(spaced.body).toMatchObject({ distinctCount: 3, mappedCount: 2, version: 2 });
    expect((await values(project, grade, "?search=alice")).body.items).toEqual([
      { sourceValue: " Alice ", targetValue: "A3", count: 0 },
      { sourceValue: "Alice", targetValue: "A1", count: 0 },
    ]);
    // Based on the version before that: stale.
    expect((await add({ sourceValue: "Dora", targetValue: null })).status).toBe(409);
  });

  it("exports the map as CSV and imports one: a preview of what it adds, changes and leaves, applied only on confirmation", async () => {
    const { project, table } = await mapping();
    const department = col(table, "department");
    await api.send("POST", `${BASE}/${project.id}/mapping-columns/${department.id}/values`, analyst, {
      version: 0,
      values: [
        { sourceValue: "FIN-01", targetValue: "Finance" },
        { sourceValue: "HR, main", targetValue: null },
        { sourceValue: "OPS", targetValue: "Operations" },
      ],
    });
    const exported = await api.app.request(`${BASE}/${project.id}/mapping-columns/${department.id}/values.csv`, {
      headers: { authorization: `Bearer ${analyst}` },
    });
    expect(exported.headers.get("content-type")).toContain("text/csv");
    const csv = await exported.text();
    expect(csv).toBe('source_value,target_value\r\nFIN-01,Finance\r\n"HR, main",\r\nOPS,Operations\r\n');

    // Re-imported with one change, one new value and one left as it is.
    const edited = csv.replace("OPS,Operations", "OPS,Ops and logistics") + "LEGAL,Legal\r\n";
    const path = `${BASE}/${project.id}/mapping-columns/${department.id}/imports`;
    const preview = await upload(path, { name: "departments.csv", text: edited });
    expect(preview.status).toBe(201);
    expect(preview.body).toMatchObject({ rowCount: 4, adds: 1, changes: 1, unchanged: 2, baseVersion: 1 });
    expect(preview.body.sampleChanges).toEqual([{ sourceValue: "OPS", from: "Operations", to: "Ops and logistics" }]);
    expect(preview.body.sampleAdds).toEqual([{ sourceValue: "LEGAL", targetValue: "Legal" }]);
    // Nothing applied yet.
    expect((await values(project, department)).body.total).toBe(3);
    const applied = await api.send("POST", `${path}/${preview.body.id}/apply`, analyst, { version: 1 });
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ distinctCount: 4, mappedCount: 3 });
    expect((await values(project, department, "?search=ops")).body.items[0].targetValue).toBe("Ops and logistics");
    expect((await api.send("POST", `${path}/${preview.body.id}/apply`, analyst, { version: 2 })).status).toBe(404);
    // Nor is it discarded after: its pairs are in the map, which a 204 would deny.
    const discarded = await api.send("DELETE", `${path}/${preview.body.id}`, analyst);
    expect(discarded.status).toBe(404);
    expect(discarded.body.errors).toEqual(["This import was applied or discarded already."]);

    // A preview of a map that changed meanwhile cannot be applied.
    const other = await upload(path, { name: "again.csv", text: "source_value,target_value\nOPS,Operations\n" });
    await api.send("POST", `${BASE}/${project.id}/mapping-columns/${department.id}/values`, analyst, {
      version: 2,
      values: [{ sourceValue: "NEW", targetValue: null }],
    });
    const late = await api.send("POST", `${path}/${other.body.id}/apply`, analyst, { version: 3 });
    expect(late.status).toBe(409);
    expect((await values(project, department, "?search=ops")).body.items[0].targetValue).toBe("Ops and logistics");
  });

  it("previews each import with its own rows only, each once, whatever other imports of the column wait", async () => {
    const { project, table } = await mapping();
    const department = col(table, "department");
    await api.send("POST", `${BASE}/${project.id}/mapping-columns/${department.id}/values`, analyst, {
      version: 0,
      values: [
        { sourceValue: "Zoë", targetValue: "Zoe" },
        { sourceValue: "Jörg", targetValue: "Jorg" },
        { sourceValue: "Alice", targetValue: "OLD_A" },
      ],
    });
    const path = `${BASE}/${project.id}/mapping-columns/${department.id}/imports`;
    // Previewed one after another and left waiting, as a user trying files does.
    await upload(path, { name: "map_bom.csv", text: "\uFEFFsource_value,target_value\nZoë,BOMZ\nAlice,BOM_A\n" });
    await upload(path, { name: "map_latin1.csv", text: "source_value,target_value\nJörg,latin\n" });
    const ok = await upload(path, { name: "map_ok.csv", text: "source_value,target_value\nAlice,NEW_A\nBob,NEW_B\n" });
    expect(ok.body).toMatchObject({ rowCount: 2, adds: 1, changes: 1, unchanged: 0 });
    expect(ok.body.sampleChanges).toEqual([{ sourceValue: "Alice", from: "OLD_A", to: "NEW_A" }]);
    expect(ok.body.sampleAdds).toEqual([{ sourceValue: "Bob", targetValue: "NEW_B" }]);

    const headerOnly = await upload(path, { name: "map_hdronly.csv", text: "source_value,target_value\n" });
    expect(headerOnly.status).toBe(201);
    expect(headerOnly.body).toMatchObject({ fileName: "map_hdronly.csv", rowCount: 0, adds: 0, changes: 0, unchanged: 0, sampleAdds: [], sampleChanges: [] });
    // Read again later, the same.
    expect((await api.get(`${path}/${headerOnly.body.id}`, analyst)).body).toMatchObject({ sampleAdds: [], sampleChanges: [] });
    expect((await api.get(`${path}/${ok.body.id}`, analyst)).body.sampleChanges).toEqual([{ sourceValue: "Alice", from: "OLD_A", to: "NEW_A" }]);
  });

  it("refuses a bad map CSV with the line at fault and changes nothing", async () => {
    const { project, table } = await mapping();
    const grade = col(table, "grade");
    const path = `${BASE}/${project.id}/mapping-columns/${grade.id}/imports`;
    const refused = async (text: string) => {
      const res = await upload(path, { name: "map.csv", text });
      expect(res.status, text.slice(0, 40)).toBe(400);
      return res.body.fieldErrors.file[0];
    };
    expect(await refused("from,to\nG1,P1\n")).toBe("The first line must be the header source_value,target_value");
    expect(await refused("G1,P1\nG2,P2\n")).toBe("The first line must be the header source_value,target_value");
    expect(await refused("source_value,target_value\nG1,P1\nG2,P2\nG1,P3\n")).toBe('Line 4: the source value "G1" is already on line 2');
    expect(await refused("source_value,target_value\nG1,PAY1\n")).toBe('Line 2: The target value "PAY1" for grade: longer than 3 characters');
    expect(await refused("source_value,target_value\n,P1\n")).toBe("Line 2: the source value is empty");
    // A value the map's editor could neither save nor remove.
    expect(await refused(`source_value,target_value\nG1,P1\n${"L".repeat(4001)},\n`)).toBe(`Line 3: The source value "${"L".repeat(60)}…" has more than 4,000 characters`);
    expect(await refused("source_value,target_value\nG1,P1,extra\n")).toBe("Line 2: 3 values where a line has two (source_value,target_value)");
    expect(await refused("")).toBe("The file is empty");
    // The map saved from Excel as a workbook, and a binary file: said in this form's words, which has no flat-file parameters.
    const notCsv = async (name: string, content: Uint8Array) => (await upload(path, { name, text: content })).body.fieldErrors.file;
    expect(await notCsv("map.xlsx", WORKBOOK_START)).toEqual([
      "The file is an .xlsx workbook (or a zip archive), not CSV: save the map as CSV (in Excel, CSV UTF-8), then import that file",
    ]);
    expect(await notCsv("map.csv", new TextEncoder().encode("\u0000\u0001\u0002binary"))).toEqual([
      "The file is not text: it holds binary data. Import a CSV file with the header source_value,target_value",
    ]);
    const big = ["source_value,target_value", ...Array.from({ length: 100_001 }, (_, i) => `S${i},`)].join("\n");
    expect(await refused(big)).toBe("The file holds more than 100,000 values: import at most 100,000 at once");
    expect((await values(project, grade)).body.total).toBe(0);
    expect(await api.db.selectFrom("value_map_imports").select("id").where("column_id", "=", grade.id).execute()).toEqual([]);
  });

  it("adds a sample's values of translated columns, unmapped, without touching existing pairs; refuses a sample that does not fit", async () => {
    const { project, table } = await mapping();
    const grade = col(table, "grade");
    const samples = `${BASE}/${project.id}/mapping-tables/${table.id}/samples`;
    const untranslated = await upload(samples, { name: "employees.csv", text: "grade,department,salary\nG1,FIN,10\n" });
    expect(untranslated.status).toBe(400);
    expect(untranslated.body.fieldErrors.file).toEqual([
      'Mark at least one column of employees "Translate" first: a sample adds the values of translated columns.',
    ]);

    await settings(project, grade, { translate: true, unmappedRule: "Keep" });
    await api.send("POST", `${BASE}/${project.id}/mapping-columns/${grade.id}/values`, analyst, {
      version: 1,
      values: [{ sourceValue: "G7", targetValue: "P7" }],
    });
    const read = await upload(samples, { name: "employees.csv", text: "department;GRADE;salary\nFIN;G7;10\nHR;G1;20\nOPS;G7;30\nIT;;40\n" });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ fileName: "employees.csv", rows: 4, columns: [{ id: grade.id, name: "grade", distinct: 2, added: 1 }] });
    const page = await values(project, grade);
    expect(page.body.items).toEqual([
      { sourceValue: "G1", targetValue: null, count: 1 },
      { sourceValue: "G7", targetValue: "P7", count: 2 },
    ]);
    // By position, without a header: the same values count up again.
    const byPosition = await upload(samples, { name: "more.txt", text: "G1,FIN,10\n" }, { hasHeaderRow: "false" });
    expect(byPosition.body.columns).toEqual([{ id: grade.id, name: "grade", distinct: 1, added: 0 }]);
    expect((await values(project, grade)).body.items[0]).toEqual({ sourceValue: "G1", targetValue: null, count: 2 });

    const unknown = await upload(samples, { name: "bad.csv", text: "grade,boss\nG1,Ann\n" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fieldErrors.file[0]).toMatch(/^The file has a column the table 'employees' lacks: boss/);
    const binary = await upload(samples, { name: "bad.csv", text: "\u0000\u0001\u0002binary" });
    expect(binary.status).toBe(400);
    // A workbook not named .xlsx: read as text, so refused, in words that fit this form (no flat-file parameters here).
    const workbook = await upload(samples, { name: "employees.csv", text: WORKBOOK_START });
    expect(workbook.body.fieldErrors.file).toEqual([
      "The file is an .xlsx workbook (or a zip archive) whose name does not end in .xlsx: rename it to .xlsx to read its first worksheet, or save it as CSV",
    ]);
    // A value the map's editor could neither save nor remove refuses the whole sample: G9 is not added either.
    const long = await upload(samples, { name: "long.csv", text: `grade,department,salary\nG9,FIN,10\n${"L".repeat(4001)},HR,20\n` });
    expect(long.status).toBe(400);
    expect(long.body.fieldErrors.file).toEqual([`Row 3, column grade: The source value "${"L".repeat(60)}…" has more than 4,000 characters`]);
    expect((await values(project, grade)).body.total).toBe(2);
    // A header ending in a delimiter (a column without a name) is read as a translation reads it, not refused.
    const trailing = await upload(samples, { name: "employees.csv", text: "department,grade,salary,\nFIN,G7,10,\n" });
    expect(trailing.body).toEqual({ fileName: "employees.csv", rows: 1, columns: [{ id: grade.id, name: "grade", distinct: 1, added: 0 }] });
  });

  it("describes a table from a sample file: columns from the header or by position, types suggested; a name taken is refused", async () => {
    const { project } = await mapping();
    const path = `${BASE}/${project.id}/file-data-structure/samples`;
    const described = await upload(path, {
      name: "pay grades.csv",
      text: "Emp No;Grade;Salary;Hired;Dept name\n7;G7;1200.50;2020-01-31;Finance\n12345678901;G1;99;2021-12-01;\n",
    });
    expect(described.status).toBe(201);
    expect(described.body).toMatchObject({ name: "pay_grades", columnCount: 5 });
    const table = (await api.get(`${BASE}/${project.id}/data-dictionary/tables/${described.body.tableId}/table-details`, analyst)).body;
    expect(table.columns.map((c: { name: string; type: string; length: number | null; precision: number | null; scale: number | null }) => [c.name, c.type, c.length, c.precision, c.scale])).toEqual([
      ["Emp_No", "bigint", null, null, null],
      ["Grade", "nvarchar", 10, null, null],
      ["Salary", "decimal", null, 6, 2],
      ["Hired", "date", null, null, null],
      ["Dept_name", "nvarchar", 10, null, null],
    ]);
    const byPosition = await upload(path, { name: "codes.txt", text: "A,1\nB,2\n" }, { table: "codes", hasHeaderRow: "false" });
    expect(byPosition.body).toMatchObject({ name: "codes", columnCount: 2 });
    // Numbers written with a leading zero are codes (a payroll grade "007"): text, whose zeros a map's sources keep; "0.5" is still a number.
    const coded = await upload(path, { name: "grades.csv", text: "grade,dept,rate\n007,10,0.5\n12,-01,1\n" });
    const codedTable = (await api.get(`${BASE}/${project.id}/data-dictionary/tables/${coded.body.tableId}/table-details`, analyst)).body;
    expect(codedTable.columns.map((c: { name: string; type: string; length: number | null }) => [c.name, c.type, c.length])).toEqual([
      ["grade", "nvarchar", 10],
      ["dept", "nvarchar", 10],
      ["rate", "decimal", null],
    ]);
    const taken = await upload(path, { name: "codes.csv", text: "x\n1\n" }, { table: "CODES" });
    expect(taken.status).toBe(409);
    expect(taken.body.fieldErrors.table).toHaveLength(1);
    expect(taken.body.values).toEqual({ table: "CODES" });
    // A name the user typed is refused as Define a table refuses it, with the form's choices echoed, never cleaned into another.
    const tablesBefore = (await api.get(`${BASE}/${project.id}/data-dictionary/tables`, analyst)).body.total;
    const badName = await upload(path, { name: "codes.csv", text: "x\n1\n" }, { table: "bad table!", hasHeaderRow: "false" });
    expect(badName.status).toBe(400);
    expect(badName.body.fieldErrors).toEqual({ table: ["Use letters, digits and underscores, starting with a letter or underscore"] });
    expect(badName.body.values).toEqual({ table: "bad table!", hasHeaderRow: "false" });
    expect((await api.get(`${BASE}/${project.id}/data-dictionary/tables`, analyst)).body.total).toBe(tablesBefore);
    // A name derived from the file's (none typed) is still cleaned: the user typed nothing to refuse.
    expect((await upload(path, { name: "bad file!.csv", text: "x\n1\n" })).body).toMatchObject({ name: "bad_file" });
    expect((await upload(path, { name: "empty.csv", text: "" })).status).toBe(400);
  });

  it("refuses a type or length change of a column that its map's default value or targets would not fit, at the column's type, changing nothing", async () => {
    const { project, table } = await mapping();
    const salary = col(table, "salary");
    expect((await settings(project, salary, { translate: true, unmappedRule: "Default", defaultValue: "7" })).status).toBe(200);
    const grade = col(table, "grade");
    const mapped = await api.send("POST", `${BASE}/${project.id}/mapping-columns/${grade.id}/values`, analyst, {
      version: 0,
      values: [
        { sourceValue: "G1", targetValue: "P1" },
        { sourceValue: "G2", targetValue: "x" },
        { sourceValue: "G3", targetValue: "yy" },
        { sourceValue: "G4", targetValue: null },
      ],
    });
    expect(mapped.status).toBe(200);
    const columns = [column("grade", "nvarchar", { length: 3 }), column("department", "nvarchar", { length: 20 }), column("salary", "int")];
    const save = (changed: Record<number, ColumnInput>) => saveTable(project, table, columns.map((c, i) => changed[i] ?? c));
    const types = async () => (await api.get(`${BASE}/${project.id}/mapping-tables/${table.id}`, analyst)).body.columns.map((c: MappingColumn) => [c.name, c.type, c.length]);
    const before = await types();

    const toDate = await save({ 2: column("salary", "date") });
    expect(toDate.status).toBe(400);
    expect(toDate.body.fieldErrors).toEqual({
      "columns.2.type": ['salary: The default value "7" of the column\'s value map does not fit date: not a date (yyyy-mm-dd). Change it on the value map first, or keep the type.'],
    });
    const toInt = await save({ 0: column("grade", "int") });
    expect(toInt.status).toBe(400);
    expect(toInt.body.fieldErrors).toEqual({
      "columns.0.type": ['grade: 3 target values of the column\'s value map do not fit int, e.g. "G1" → "P1": not a whole number. Change them on the value map first, or keep the type.'],
    });
    const shorter = await save({ 0: column("grade", "nvarchar", { length: 1 }) });
    expect(shorter.status).toBe(400);
    expect(shorter.body.fieldErrors["columns.0.type"]).toEqual([
      'grade: 2 target values of the column\'s value map do not fit nvarchar(1), e.g. "G1" → "P1": longer than 1 characters. Change them on the value map first, or keep the type.',
    ]);
    // Nothing was saved: the types are as they were, and the column's settings save as they are again.
    expect(await types()).toEqual(before);
    const again = await settings(project, col((await api.get(`${BASE}/${project.id}/mapping-tables/${table.id}`, analyst)).body, "salary"), {
      translate: true,
      unmappedRule: "Default",
      defaultValue: "7",
    });
    expect(again.status).toBe(200);

    // A bulk update's file that makes salary a date: refused the same way, naming the table.
    const file = "table,column,type,length,precision,scale,nullable,key\nemployees,grade,nvarchar,3,,,yes,no\nemployees,department,nvarchar,20,,,yes,no\nemployees,salary,date,,,,yes,no\n";
    const uploaded = await uploadDictionary(api, `${BASE}/${project.id}/data-dictionary/bulk-uploads`, analyst, file, "employees.csv");
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const applied = await api.send("POST", `${BASE}/${project.id}/data-dictionary/bulk-uploads/${uploaded.body.id}/apply`, analyst);
    expect(applied.status).toBe(400);
    expect(applied.body.errors).toEqual([
      'employees.salary: The default value "7" of the column\'s value map does not fit date: not a date (yyyy-mm-dd). Change it on the value map first, or keep the type.',
    ]);
    expect(await types()).toEqual(before);

    // A change every value fits is saved: the map's values fit nvarchar(2), the default fits bigint.
    const fits = await save({ 0: column("grade", "nvarchar", { length: 2 }), 2: column("salary", "bigint") });
    expect(fits.status).toBe(200);
    expect(await types()).toEqual([
      ["grade", "nvarchar", 2],
      ["department", "nvarchar", 20],
      ["salary", "bigint", null],
    ]);
  });

  it("reads a map a page at a time for a type change, finding and counting the targets that do not fit past the first page", async () => {
    const { project, table } = await mapping();
    const grade = col(table, "grade");
    // More values than a page holds, every one mapped; the two that a length of 2 would not fit are past the first page.
    const rows = Array.from({ length: MAP_CHECK_PAGE + 500 }, (_, i) => `V${String(i).padStart(4, "0")},${i === MAP_CHECK_PAGE + 200 || i === MAP_CHECK_PAGE + 499 ? "abc" : "a"}`);
    const path = `${BASE}/${project.id}/mapping-columns/${grade.id}/imports`;
    const preview = await upload(path, { name: "grades.csv", text: `source_value,target_value\n${rows.join("\n")}\n` });
    expect(preview.body).toMatchObject({ rowCount: MAP_CHECK_PAGE + 500, adds: MAP_CHECK_PAGE + 500 });
    expect((await api.send("POST", `${path}/${preview.body.id}/apply`, analyst, { version: 0 })).status).toBe(200);

    // The most rows any one statement of the save answers.
    let largest = 0;
    const counting = api.db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => ((largest = Math.max(largest, args.result.rows.length)), args.result),
    });
    const columns = [column("grade", "nvarchar", { length: 2 }), column("department", "nvarchar", { length: 20 }), column("salary", "int")];
    const { version } = (await api.get(`${BASE}/${project.id}/data-dictionary`, analyst)).body;
    const shorter = await api.appWith({ db: counting }).request(`${BASE}/${project.id}/data-dictionary/tables`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${analyst}`, "content-type": "application/json" },
      body: JSON.stringify({ version, tableId: table.id, name: table.name, description: null, columns }),
    });
    expect(shorter.status).toBe(400);
    expect((await shorter.json()).fieldErrors).toEqual({
      "columns.0.type": [
        `grade: 2 target values of the column's value map do not fit nvarchar(2), e.g. "V${MAP_CHECK_PAGE + 200}" → "abc": longer than 2 characters. Change them on the value map first, or keep the type.`,
      ],
    });
    expect(largest).toBeLessThanOrEqual(MAP_CHECK_PAGE);
    expect((await api.get(`${BASE}/${project.id}/mapping-tables/${table.id}`, analyst)).body.columns[0]).toMatchObject({ name: "grade", length: 3 });
  });

  it("refuses a write to a map based on its version before its column's type changed (an import previewed, a value checked against the old type), writing nothing", async () => {
    const { project, table } = await mapping();
    const grade = col(table, "grade");
    const base = `${BASE}/${project.id}/mapping-columns/${grade.id}`;
    expect((await api.send("POST", `${base}/values`, analyst, { version: 0, values: [{ sourceValue: "G1", targetValue: "7" }] })).status).toBe(200);
    // Both checked against nvarchar(3) at the map's version 1: an import's preview, and a value a request checked and is
    // about to write (a save from another tab in the instant between the table's check and its save).
    const preview = await upload(`${base}/imports`, { name: "grades.csv", text: "source_value,target_value\nG2,P2\n" });
    expect(preview.body).toMatchObject({ baseVersion: 1, adds: 1 });
    const checked = (await findMappingColumn(api.db, (await findProjectDictionaryRef(api.db, project.id))!.id, grade.id))!;
    expect(checked.column.version).toBe(1);

    // grade becomes an int: the map's one target, "7", fits.
    const columns = [column("grade", "int"), column("department", "nvarchar", { length: 20 }), column("salary", "int")];
    expect((await saveTable(project, table, columns)).status).toBe(200);

    const applied = await api.send("POST", `${base}/imports/${preview.body.id}/apply`, analyst, { version: 1 });
    expect(applied.status).toBe(409);
    expect(applied.body.errors).toEqual([expect.stringMatching(/^You changed the map of grade or its column's type in another tab or window at \d\d:\d\d UTC\. Nothing was saved\.$/)]);
    const written = saveMapValues(api.db, checked, 1, [{ sourceValue: "G3", targetValue: "P3" }], { projectId: project.id, userId: USERS.analyst.id });
    await expect(written).rejects.toMatchObject({ status: 409 });
    expect((await values(project, grade)).body.items).toEqual([{ sourceValue: "G1", targetValue: "7", count: 0 }]);
  });

  // At version 0 the map has no settings row for the type change to move: the write holds its dictionary's instead.
  it.each([1, 0])("checks a type change against a write to the map (at its version %i) under way once it ends, refusing a target that write adds and the type does not fit", async (version) => {
    const { project, table } = await mapping();
    const grade = col(table, "grade");
    if (version === 1) expect((await api.send("POST", `${BASE}/${project.id}/mapping-columns/${grade.id}/values`, analyst, { version: 0, values: [{ sourceValue: "G1", targetValue: "7" }] })).status).toBe(200);
    const checked = (await findMappingColumn(api.db, (await findProjectDictionaryRef(api.db, project.id))!.id, grade.id))!;
    const columns = [column("grade", "int"), column("department", "nvarchar", { length: 20 }), column("salary", "int")];
    // Another tab's save of "P2", checked against nvarchar(3), is writing when grade is saved as an int.
    let saved: ReturnType<typeof saveTable> | undefined;
    await api.db.transaction().execute(async (trx) => {
      await saveMapValues(trx, checked, version, [{ sourceValue: "G2", targetValue: "P2" }], { projectId: project.id, userId: USERS.analyst.id });
      saved = saveTable(project, table, columns);
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const refused = await saved!;
    expect(refused.status).toBe(400);
    expect(refused.body.fieldErrors).toEqual({
      "columns.0.type": ['grade: A target value of the column\'s value map does not fit int: "G2" → "P2": not a whole number. Change it on the value map first, or keep the type.'],
    });
    expect((await api.get(`${BASE}/${project.id}/mapping-tables/${table.id}`, analyst)).body.columns[0]).toMatchObject({ name: "grade", type: "nvarchar" });
  });

  it("checks an import on a map never written against its column's type when applied, refusing a target the type no longer fits and writing nothing", async () => {
    const { project, table } = await mapping();
    const grade = col(table, "grade");
    const base = `${BASE}/${project.id}/mapping-columns/${grade.id}`;
    // More rows than a page of the check reads (by source value); of the two that an int does not fit, the one named
    // (the earlier line, as staging names) is past the first page.
    const rows = Array.from({ length: IMPORT_CHECK_PAGE + 10 }, (_, i) => `G${String(i).padStart(4, "0")},${i % 10}`);
    rows.push("Z9,P2", "A0,P1");
    const preview = await upload(`${base}/imports`, { name: "grades.csv", text: `source_value,target_value\n${rows.join("\n")}\n` });
    expect(preview.body).toMatchObject({ baseVersion: 0, adds: IMPORT_CHECK_PAGE + 12 });
    // grade becomes an int: nothing of the map (never written) to check, or to move on.
    const columns = [column("grade", "int"), column("department", "nvarchar", { length: 20 }), column("salary", "int")];
    expect((await saveTable(project, table, columns)).status).toBe(200);

    const applied = await api.send("POST", `${base}/imports/${preview.body.id}/apply`, analyst, { version: 0 });
    expect(applied.status).toBe(400);
    expect(applied.body.fieldErrors).toEqual({ file: [`Line ${IMPORT_CHECK_PAGE + 12}: The target value "P2" for grade: not a whole number`] });
    expect((await values(project, grade)).body).toMatchObject({ total: 0, column: { version: 0 } });
    // Still waiting: discarded as any preview is.
    expect((await api.send("DELETE", `${base}/imports/${preview.body.id}`, analyst)).status).toBe(204);
  });

  it("refuses a first write to a map checked against its column's type before a change of it, writing nothing", async () => {
    const { project, table } = await mapping();
    const grade = col(table, "grade");
    const dictionaryId = (await findProjectDictionaryRef(api.db, project.id))!.id;
    // "P2" checked against nvarchar(3) by a request (an Add), which writes it after grade became an int.
    const checked = (await findMappingColumn(api.db, dictionaryId, grade.id))!;
    const columns = [column("grade", "int"), column("department", "nvarchar", { length: 20 }), column("salary", "int")];
    expect((await saveTable(project, table, columns)).status).toBe(200);
    const writer = { projectId: project.id, userId: USERS.analyst.id };
    // The type was changed by the same analyst: their other tab, as the dictionary's row says.
    await expect(addMapValue(api.db, checked, 0, { sourceValue: "G2", targetValue: "P2" }, writer)).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/^You changed the map of grade or its column's type in another tab or window at \d\d:\d\d UTC\. Nothing was saved\.$/),
    });
    await expect(saveMapValues(api.db, checked, 0, [{ sourceValue: "G2", targetValue: "P2" }], writer)).rejects.toMatchObject({ status: 409 });
    expect((await values(project, grade)).body).toMatchObject({ total: 0, column: { version: 0 } });
  });

  it("runs a sample's claims of several maps and a table save changing their columns at once without a deadlock: one waits for the other", async () => {
    const { project, table } = await mapping();
    const [grade, department] = [col(table, "grade"), col(table, "department")];
    // Both maps written, department's first, so that its settings row is the first a statement over both finds.
    for (const c of [department, grade])
      expect((await api.send("POST", `${BASE}/${project.id}/mapping-columns/${c.id}/values`, analyst, { version: 0, values: [{ sourceValue: "X", targetValue: "Y" }] })).status).toBe(200);
    const dictionaryId = (await findProjectDictionaryRef(api.db, project.id))!.id;
    const writer = { projectId: project.id, userId: USERS.analyst.id };
    // Both columns longer, then back, then longer: every target fits, so each save moves both maps' versions and is saved.
    for (const [gradeLength, departmentLength] of [[4, 30], [3, 20], [4, 30]] as const) {
      const columns = [column("grade", "nvarchar", { length: gradeLength }), column("department", "nvarchar", { length: departmentLength }), column("salary", "int")];
      let saved: ReturnType<typeof saveTable> | undefined;
      // A sample's upload claims its columns' maps one by one in the table's order (grade, then department); the
      // table is saved after it claimed grade's and before it claims department's.
      await api.db.transaction().execute(async (trx) => {
        const ref = async (id: string) => (await findMappingColumn(trx, dictionaryId, id))!;
        const gradeRef = await ref(grade.id);
        await claimForSample(trx, gradeRef, gradeRef.column.version, writer);
        saved = saveTable(project, table, columns);
        await new Promise((resolve) => setTimeout(resolve, 300));
        const departmentRef = await ref(department.id);
        await claimForSample(trx, departmentRef, departmentRef.column.version, writer);
      });
      const answer = await saved!;
      // Before the map writes took the dictionary's row first, PostgreSQL broke the wait with "deadlock detected": a 500.
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    }
    expect((await api.get(`${BASE}/${project.id}/mapping-tables/${table.id}`, analyst)).body.columns.map((c: MappingColumn) => [c.name, c.length, c.version])).toEqual([
      ["grade", 4, 7],
      ["department", 30, 7],
      ["salary", null, 0],
    ]);
  });

  it("refuses a decimal column's lower precision or scale that a target of its map would not fit, naming it; a narrowing every target fits is saved", async () => {
    const app = await makeApplication(api, acme.id);
    const project = await makeMappingProject(api, analyst, { companyId: acme.id, applicationId: app.id });
    const columns = [column("grade", "nvarchar", { length: 3 }), column("rate", "decimal", { precision: 12, scale: 4 })];
    const created = await addProjectTable(api, project.id, { name: "pay", columns });
    const table = (await api.get(`${BASE}/${project.id}/mapping-tables/${created.tableId}`, analyst)).body as MappingTable;
    const mapped = await api.send("POST", `${BASE}/${project.id}/mapping-columns/${col(table, "rate").id}/values`, analyst, {
      version: 0,
      values: [
        { sourceValue: "R1", targetValue: "1234.5" },
        { sourceValue: "R2", targetValue: "1.25" },
        { sourceValue: "R3", targetValue: "-7" },
        { sourceValue: "R4", targetValue: null },
      ],
    });
    expect(mapped.status).toBe(200);
    const narrowed = (precision: number, scale: number) => saveTable(project, table, [columns[0]!, column("rate", "decimal", { precision, scale })]);
    const types = async () =>
      (await api.get(`${BASE}/${project.id}/mapping-tables/${table.id}`, analyst)).body.columns.map((c: MappingColumn) => [c.name, c.type, c.precision, c.scale]);
    const before = await types();

    const fewerDigits = await narrowed(5, 2);
    expect(fewerDigits.status).toBe(400);
    expect(fewerDigits.body.fieldErrors).toEqual({
      "columns.1.type": [
        'rate: A target value of the column\'s value map does not fit decimal(5, 2): "R1" → "1234.5": more than 3 digits before the decimal point. Change it on the value map first, or keep the type.',
      ],
    });
    const fewerDecimals = await narrowed(12, 1);
    expect(fewerDecimals.status).toBe(400);
    expect(fewerDecimals.body.fieldErrors).toEqual({
      "columns.1.type": [
        'rate: A target value of the column\'s value map does not fit decimal(12, 1): "R2" → "1.25": more than 1 decimals. Change it on the value map first, or keep the type.',
      ],
    });
    const noDecimals = await narrowed(12, 0);
    expect(noDecimals.status).toBe(400);
    expect(noDecimals.body.fieldErrors).toEqual({
      "columns.1.type": [
        'rate: 2 target values of the column\'s value map do not fit decimal(12, 0), e.g. "R1" → "1234.5": decimals in a whole-number column. Change them on the value map first, or keep the type.',
      ],
    });
    expect(await types()).toEqual(before);

    // Four digits before the point and two after: every target fits, and the narrower type is saved.
    const fits = await narrowed(6, 2);
    expect(fits.status).toBe(200);
    expect(await types()).toEqual([
      ["grade", "nvarchar", null, null],
      ["rate", "decimal", 6, 2],
    ]);
  });

  it("refuses a table's deletion, a save or a bulk update dropping a column, that deletes a value map holding values, listing it, until it is confirmed", async () => {
    const { project, table } = await mapping();
    const grade = col(table, "grade");
    await api.send("POST", `${BASE}/${project.id}/mapping-columns/${grade.id}/values`, analyst, {
      version: 0,
      values: [
        { sourceValue: "G1", targetValue: "P1" },
        { sourceValue: "G2", targetValue: null },
      ],
    });
    const tables = `${BASE}/${project.id}/data-dictionary/tables`;
    const version = async () => (await api.get(`${BASE}/${project.id}/data-dictionary`, analyst)).body.version as number;
    const refusal = {
      code: "value_map_loss",
      errors: [
        "This change deletes value maps, so nothing was changed. Send it again with confirmDataLoss=true to apply it and delete:",
        "The value map of employees.grade: 2 source values, 1 mapped",
      ],
    };
    const save = async (columns: ReturnType<typeof column>[], confirm = "") =>
      api.send("PATCH", `${tables}${confirm}`, analyst, { version: await version(), tableId: table.id, name: "employees", description: null, columns });
    const deleting = async () => api.send("DELETE", `${tables}/${table.id}?version=${await version()}`, analyst);
    // Dropping a column whose map holds no values (salary), as any change that deletes no map, needs no confirmation.
    expect((await save([column("grade", "nvarchar", { length: 3 }), column("department", "nvarchar", { length: 20 })])).status).toBe(200);
    // Dropping grade (its map holds two values) is refused, and so is deleting the table; nothing changes.
    const withoutGrade = [column("department", "nvarchar", { length: 20 })];
    expect(await save(withoutGrade)).toMatchObject({ status: 409, body: refusal });
    expect(await deleting()).toMatchObject({ status: 409, body: refusal });
    // So is a bulk update's file that leaves grade out of the table.
    const file = "table,column,type,length,precision,scale,nullable,key\nemployees,department,nvarchar,20,,,yes,no\n";
    const uploaded = await uploadDictionary(api, `${BASE}/${project.id}/data-dictionary/bulk-uploads`, analyst, file, "employees.csv", { mode: "replace" });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const applied = await api.send("POST", `${BASE}/${project.id}/data-dictionary/bulk-uploads/${uploaded.body.id}/apply`, analyst);
    expect(applied).toMatchObject({ status: 409, body: refusal });
    expect((await values(project, grade)).body.total).toBe(2);
    // Confirmed, the save drops grade and its map; the table, its maps gone, is deleted without a question.
    expect((await save(withoutGrade, "?confirmDataLoss=true")).status).toBe(200);
    expect((await values(project, grade)).status).toBe(404);
    expect((await deleting()).status).toBe(200);
  });

  it("refuses to assign a master dictionary over tables whose value maps hold values, listing them, until it is confirmed", async () => {
    const { project, table } = await mapping();
    const grade = col(table, "grade");
    await api.send("POST", `${BASE}/${project.id}/mapping-columns/${grade.id}/values`, analyst, { version: 0, values: [{ sourceValue: "G1", targetValue: "P1" }] });
    const master = await api.send("POST", "/api/v1/data-dictionaries", analyst, { companyId: acme.id, applicationId: project.applicationId, name: `Master ${kind}` });
    const masterTable = { version: master.body.version, name: "employees", columns: [column("grade", "nvarchar", { length: 3 })] };
    expect((await api.send("POST", `/api/v1/data-dictionaries/${master.body.id}/tables`, analyst, masterTable)).status).toBe(201);
    const { version } = (await api.get(`${BASE}/${project.id}/data-dictionary`, analyst)).body;
    const assign = `${BASE}/${project.id}/data-dictionary/${master.body.id}/assign`;
    // The copy would replace employees, grade's map with it: refused, nothing changed.
    expect(await api.send("POST", assign, analyst, { version })).toMatchObject({
      status: 409,
      body: {
        code: "value_map_loss",
        errors: [
          "This change deletes value maps, so nothing was changed. Send it again with confirmDataLoss=true to apply it and delete:",
          "The value map of employees.grade: 1 source value, 1 mapped",
        ],
      },
    });
    expect((await api.get(`${BASE}/${project.id}/data-dictionary`, analyst)).body).toMatchObject({ version, sourceDictionaryId: null, columnCount: 3 });
    expect((await values(project, grade)).body.total).toBe(1);
    // Confirmed, the master's tables replace the project's, and the map is gone.
    expect(await api.send("POST", `${assign}?confirmDataLoss=true`, analyst, { version })).toMatchObject({ status: 200, body: { sourceDictionaryId: master.body.id, columnCount: 1 } });
    expect((await values(project, grade)).status).toBe(404);
  });

  it("answers 404 for another company's map and a column of another project, 403 to a role outside Translations", async () => {
    const mine = await mapping();
    const theirs = await mapping(birch.id);
    const grade = col(theirs.table, "grade");
    const translator = await api.tokenFor(USERS.translator);
    expect((await api.get(`${BASE}/${theirs.project.id}/mapping-columns/${grade.id}/values`, translator)).status).toBe(404);
    // My project, their column: not found either.
    const crossed = await api.get(`${BASE}/${mine.project.id}/mapping-columns/${grade.id}/values`, analyst);
    expect(crossed.status).toBe(404);
    expect(crossed.body.errors).toEqual(["Column not found."]);
    // Its writes alike, each naming their column under my project's URL: 404, and their map unchanged.
    const under = `${BASE}/${mine.project.id}/mapping-columns/${grade.id}`;
    const pair = { sourceValue: "G1", targetValue: "P1" };
    for (const write of [
      api.send("POST", `${under}/values`, analyst, { version: grade.version, values: [pair] }),
      api.send("POST", `${under}/values/add`, analyst, { version: grade.version, ...pair }),
      api.send("PUT", `${under}/settings`, analyst, { version: grade.version, translate: true, unmappedRule: "Keep" }),
      upload(`${under}/imports`, { name: "map.csv", text: "source_value,target_value\nG1,P1\n" }),
    ]) {
      expect((await write).status).toBe(404);
    }
    expect((await api.get(`${BASE}/${theirs.project.id}/mapping-columns/${grade.id}/values`, await api.tokenFor(USERS.superAdmin))).body).toMatchObject({ total: 0, column: { translate: false } });
    expect((await api.get(`${BASE}/${mine.project.id}/mapping-tables/${theirs.table.id}`, analyst)).status).toBe(404);
    const clientAdmin = await api.tokenFor(USERS.clientAdmin);
    expect((await api.get(`${BASE}/${theirs.project.id}/mapping-tables/${theirs.table.id}`, clientAdmin)).status).toBe(403);
  });

  it("answers 404 to a write naming the column's table (?tableId=) when the column is of another table of the project, changing nothing", async () => {
    const { project, table } = await mapping();
    const grade = col(table, "grade");
    const other = await addProjectTable(api, project.id, { name: "others", columns: [column("code", "nvarchar", { length: 20 })] });
    const under = `${BASE}/${project.id}/mapping-columns/${grade.id}`;
    const staged = (await upload(`${under}/imports`, { name: "map.csv", text: "source_value,target_value\nG1,P1\n" })).body.id as string;
    const pair = { sourceValue: "G1", targetValue: "P1" };
    const writes = (tableId: string) => [
      () => api.send("PUT", `${under}/settings?tableId=${tableId}`, analyst, { version: 0, translate: true, unmappedRule: "Keep" }),
      () => api.send("POST", `${under}/values?tableId=${tableId}`, analyst, { version: 0, values: [pair] }),
      () => api.send("POST", `${under}/values/add?tableId=${tableId}`, analyst, { version: 0, ...pair }),
      () => upload(`${under}/imports?tableId=${tableId}`, { name: "map.csv", text: "source_value,target_value\nG1,P2\n" }),
      () => api.send("POST", `${under}/imports/${staged}/apply?tableId=${tableId}`, analyst, { version: 0 }),
      () => api.send("DELETE", `${under}/imports/${staged}?tableId=${tableId}`, analyst),
    ];
    // Under the other table, or one that does not exist: not that table's column.
    for (const tableId of [other.tableId, crypto.randomUUID()]) {
      for (const write of writes(tableId)) {
        const refused = await write();
        expect(refused.status).toBe(404);
        expect(refused.body.errors).toEqual(["Column not found."]);
      }
    }
    expect((await values(project, grade)).body).toMatchObject({ total: 0, column: { translate: false, version: 0 } });
    expect((await api.get(`${under}/imports/${staged}`, analyst)).status).toBe(200);
    // Under its own table, each is applied as it is without the table named.
    const own = `?tableId=${table.id}`;
    expect((await api.send("PUT", `${under}/settings${own}`, analyst, { version: 0, translate: true, unmappedRule: "Keep" })).status).toBe(200);
    expect((await api.send("POST", `${under}/values${own}`, analyst, { version: 1, values: [pair] })).status).toBe(200);
    expect((await api.send("POST", `${under}/values/add${own}`, analyst, { version: 2, sourceValue: "G2", targetValue: null })).status).toBe(200);
    expect((await api.send("DELETE", `${under}/imports/${staged}${own}`, analyst)).status).toBe(204);
    const again = await upload(`${under}/imports${own}`, { name: "map.csv", text: "source_value,target_value\nG1,P2\n" });
    expect(again.status).toBe(201);
    expect((await api.send("POST", `${under}/imports/${again.body.id}/apply${own}`, analyst, { version: 3 })).status).toBe(200);
    expect((await values(project, grade)).body.items.map((v: { sourceValue: string; targetValue: string | null }) => [v.sourceValue, v.targetValue])).toEqual([
      ["G2", null],
      ["G1", "P2"],
    ]);
  });
});
