/**
 * Issue 9's list of bad input, each through the data API on PostgreSQL: a clear message, a 4xx or a
 * Failed/Refused load, and the table exactly as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Load } from "../../../../../contracts/loads.ts";
import type { Project } from "../../../../../contracts/projects.ts";
import { DEMO_COMPANIES } from "../../../../../scripts/demo-data.ts";
import { TEST_POSTGRES_ADMIN_URL } from "../../../../shared/testing/databases.ts";
import { databaseNameOf } from "../../data-plane/project-databases.ts";
import { MAX_RECORD_CHARS } from "../../data-plane/flat-file/read-delimited.ts";
import { TEST_DATABASE_SERVER, createOwnerTestApi, type TestApi } from "../../testing/harness.ts";
import { loadableProject } from "../../testing/project-fixtures.ts";

const [, , birch] = DEMO_COMPANIES;

describe.skipIf(!TEST_POSTGRES_ADMIN_URL)("bad flat files change nothing", () => {
  let api: TestApi;
  let owner: string;
  let project: Project;

  beforeAll(async () => {
    let applicationId: string;
    ({ api, applicationId, owner } = await createOwnerTestApi("sqlite", birch.id));
    project = await loadableProject(api, owner, { companyId: birch.id, applicationId, sourceType: "BackUp" });
    // Comma-delimited, said so: nothing is detected.
    const parameters = { extension: ".csv", delimiter: "Comma", hasHeaderRow: true, textQualifier: "DoubleQuote", encoding: "UTF-8" };
    await api.db
      .updateTable("projects")
      .set({ flat_file_parameters: JSON.stringify(parameters) })
      .where("id", "=", project.id)
      .execute();
    expect((await send("keep.csv", "CustomerId,Code\n9,KEEP\n")).status).toBe(202);
    await api.jobs.idle();
  });
  afterAll(() => api?.close());

  async function send(name: string, text: string | Uint8Array, table = "Customers") {
    return api.postForm(`/api/v1/projects/${project.id}/flat-file/loads`, owner, { file: { name, content: text }, table });
  }
  async function loaded(name: string, text: string | Uint8Array, table = "Customers"): Promise<Load> {
    const res = await send(name, text, table);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await api.jobs.idle();
    return (await api.get(`/api/v1/projects/${project.id}/flat-file/loads/${res.body.load.id}`, owner)).body;
  }
  const customers = () =>
    api.dataPlane.withAdmin(
      TEST_DATABASE_SERVER,
      databaseNameOf(project.id),
      async (c) => (await c.query(`select "CustomerId", "Code" from source."Customers" order by 1`)).rows,
    );

  it("an empty file: 400 at the file, nothing stored", async () => {
    expect(await send("empty.csv", "")).toMatchObject({ status: 400, body: { fieldErrors: { file: ["The file is empty"] } } });
    expect(await customers()).toEqual([{ CustomerId: 9, Code: "KEEP" }]);
  });

  it("a delimiter that matches nothing: the header is one column, and the message says the delimiter is wrong", async () => {
    const failed = await loaded("pipes.csv", "CustomerId|Code\n1|A\n");
    expect(failed.status).toBe("Failed");
    expect(failed.message).toMatch(/^The header is one single column \('CustomerId\|Code'\): the delimiter matches nothing in it/);
    expect(await customers()).toEqual([{ CustomerId: 9, Code: "KEEP" }]);
  });

  it("a 70,000-character field: rejected where the column is shorter, its value shown cut and downloadable whole", async () => {
    const long = "x".repeat(70_000);
    const refused = await loaded("long.csv", `CustomerId,Code\n1,${long}\n`);
    expect(refused).toMatchObject({ status: "Refused", rowsRejected: 1 });
    const rejected = (await api.get(`/api/v1/projects/${project.id}/history/${refused.id}/tables/Customers/rejected-rows`, owner)).body;
    expect(rejected.items[0]).toMatchObject({ line: 2, column: "Code", reason: "longer than 10 characters" });
    expect(rejected.items[0].value.length).toBeLessThanOrEqual(200);
    // The download gives the row whole, to correct it.
    const csv = await (
      await api.app.request(`/api/v1/projects/${project.id}/history/${refused.id}/tables/Customers/rejected-rows.csv`, { headers: { authorization: `Bearer ${owner}` } })
    ).text();
    expect(csv).toContain(long);
    expect(await customers()).toEqual([{ CustomerId: 9, Code: "KEEP" }]);
  });

  it("a quote never closed in a big file fails at once rather than reading the rest into one row", async () => {
    const text = `CustomerId,Code\n1,"open\n${"2,B\n".repeat(MAX_RECORD_CHARS / 4 + 10)}`;
    const failed = await loaded("unclosed.csv", text);
    expect(failed).toMatchObject({ status: "Failed" });
    expect(failed.message).toMatch(/on row 2, the row is longer than 8,388,608 characters \(is a quote never closed\?\)/);
    expect(await customers()).toEqual([{ CustomerId: 9, Code: "KEEP" }]);
  });
});
