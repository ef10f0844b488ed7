import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Project } from "../../../../../contracts/projects.ts";
import type { Table } from "../../../../../contracts/dictionary.ts";
import { DEMO_COMPANIES } from "../../../../../scripts/demo-data.ts";
import { TEST_DATABASE_KINDS, TEST_POSTGRES_ADMIN_URL } from "../../../../shared/testing/databases.ts";
import { databaseNameOf } from "../../data-plane/project-databases.ts";
import { TEST_DATABASE_SERVER, USERS, createOwnerTestApi, type TestApi } from "../../testing/harness.ts";
import { addProjectTable, column, createProjectDatabases, makeProject } from "../../testing/project-fixtures.ts";
import { holdJobsOf, settleJobs } from "../../testing/hold-jobs.ts";
import { upload } from "../../testing/dictionary-fixtures.ts";

const [, , birch] = DEMO_COMPANIES;

/** Changes to a project's dictionary after its databases exist: the databases follow (decision 017). */
describe.skipIf(!TEST_POSTGRES_ADMIN_URL).each(TEST_DATABASE_KINDS)("the databases follow the dictionary on %s", (kind) => {
  let api: TestApi;
  let applicationId: string;
  let owner: string;

  beforeAll(async () => {
    ({ api, applicationId, owner } = await createOwnerTestApi(kind, birch.id));
  });
  afterEach(() => settleJobs(api.jobs));
  afterAll(() => api?.close());

  /** A project whose databases hold Customers (CustomerId key, Code nvarchar(10), Balance decimal(12,2)). */
  async function projectWithDatabases(): Promise<Project> {
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId, sourceType: "BackUp" });
    await addProjectTable(api, project.id, {
      name: "Customers",
      columns: [
        column("CustomerId", "int", { isKey: true, nullable: false }),
        column("Code", "nvarchar", { length: 10 }),
        column("Balance", "decimal", { precision: 12, scale: 2 }),
      ],
    });
    return createProjectDatabases(api, owner, project.id);
  }

  const base = (project: Project) => `/api/v1/projects/${project.id}/data-dictionary`;

  async function load(project: Project, table: string, text: string) {
    const res = await api.postForm(`/api/v1/projects/${project.id}/flat-file/loads`, owner, { file: { name: "rows.csv", content: text }, table });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await api.jobs.idle();
    const { body } = await api.get(`/api/v1/projects/${project.id}/flat-file/loads/${res.body.load.id}`, owner);
    expect(body).toMatchObject({ status: "Loaded" });
  }

  async function tableOf(project: Project, name: string): Promise<{ table: Table; version: number }> {
    const dictionary = (await api.get(base(project), owner)).body;
    const page = (await api.get(`${base(project)}/tables?name=${name}`, owner)).body;
    const table = (await api.get(`${base(project)}/tables/${page.items[0].id}`, owner)).body as Table;
    return { table, version: dictionary.version };
  }

  /** PATCHes the table with its columns changed by `columns`, as the table editor sends them. */
  async function saveTable(project: Project, name: string, columns: (current: Table["columns"]) => object[], query = "") {
    const { table, version } = await tableOf(project, name);
    return api.send("PATCH", `${base(project)}/tables${query}`, owner, {
      version,
      tableId: table.id,
      name: table.name,
      description: table.description,
      columns: columns(table.columns),
    });
  }

  /** Each schema's tables and their columns as the catalog has them: "Name type[ not null]". */
  const catalogOf = (project: Project) =>
    api.dataPlane.withAdmin(TEST_DATABASE_SERVER, databaseNameOf(project.id), async (client) => {
      const { rows } = await client.query<{ schema: string; table: string; columns: string[] }>(
        `select c.relnamespace::regnamespace::text as schema, c.relname as table,
                array_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || case when a.attnotnull then ' not null' else '' end order by a.attnum) as columns
           from pg_class c join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
          where c.relkind = 'r' and c.relnamespace::regnamespace::text in ('source', 'destination')
          group by 1, 2 order by 1 desc, 2`,
      );
      return rows.map((r) => `${r.schema}.${r.table}: ${r.columns.join(", ")}`);
    });

  const rowsOf = (project: Project, table: string) =>
    api.dataPlane.withAdmin(
      TEST_DATABASE_SERVER,
      databaseNameOf(project.id),
      async (client) => (await client.query(`select * from source."${table}" order by 1`)).rows,
    );

  /** A refusal the databases cannot follow (schema_change_refused), with its one line. */
  const refusedWith = (line: string) => ({ code: "schema_change_refused", errors: [expect.any(String), line] });

  const jobKinds = async (project: Project) =>
    ((await api.get(`/api/v1/projects/${project.id}/jobs`, owner)).body.jobs as { kind: string; status: string }[]).map((j) => `${j.kind} ${j.status}`);

  it("adds a column to both databases, as a job, and a load fills it", async () => {
    const project = await projectWithDatabases();
    const saved = await saveTable(project, "Customers", (columns) => [...columns, column("Phone", "nvarchar", { length: 20 })]);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(await catalogOf(project)).toEqual([
      "source.Customers: CustomerId integer not null, Code character varying(10), Balance numeric(12,2), Phone character varying(20)",
      "destination.Customers: CustomerId integer not null, Code character varying(10), Balance numeric(12,2), Phone character varying(20)",
    ]);
    expect(await jobKinds(project)).toEqual(["SchemaChange SUCCESS", "DatabaseCreation SUCCESS"]);
    expect((await api.get(`/api/v1/projects/${project.id}`, owner)).body).toMatchObject({ status: "SetupRestoreDatabaseIncomplete", isLocked: false });

    await load(project, "Customers", "CustomerId,Code,Phone\n1,A,555-0100\n");
    expect(await rowsOf(project, "Customers")).toEqual([{ CustomerId: 1, Code: "A", Balance: null, Phone: "555-0100" }]);
  });

  it("widens a type in place, keeping the values; a change the databases need not follow runs no job", async () => {
    const project = await projectWithDatabases();
    await load(project, "Customers", "CustomerId,Code,Balance\n1,007,12.50\n");
    const widen = await saveTable(project, "Customers", (columns) =>
      columns.map((c) => (c.name === "Code" ? { ...c, length: 40 } : c.name === "Balance" ? { ...c, precision: 18, scale: 4 } : c)),
    );
    expect(widen.status, JSON.stringify(widen.body)).toBe(200);
    expect((await catalogOf(project))[0]).toBe("source.Customers: CustomerId integer not null, Code character varying(40), Balance numeric(18,4)");
    expect(await rowsOf(project, "Customers")).toEqual([{ CustomerId: 1, Code: "007", Balance: "12.5000" }]);
    await load(project, "Customers", `CustomerId,Code\n2,${"x".repeat(40)}\n`);

    const described = await saveTable(project, "Customers", (columns) => columns.map((c) => ({ ...c, description: `About ${c.name}` })));
    expect(described.status).toBe(200);
    expect((await jobKinds(project)).filter((k) => k.startsWith("SchemaChange"))).toEqual(["SchemaChange SUCCESS"]);
  });

  it("adds a table to both databases, readable by the project's reader; renaming it keeps its rows", async () => {
    const project = await projectWithDatabases();
    const { version } = await tableOf(project, "Customers");
    const added = await api.send("POST", `${base(project)}/tables`, owner, {
      version,
      name: "Invoices",
      description: null,
      columns: [column("InvoiceId", "bigint", { isKey: true, nullable: false })],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(await catalogOf(project)).toContain("source.Invoices: InvoiceId bigint not null");
    expect(await catalogOf(project)).toContain("destination.Invoices: InvoiceId bigint not null");
    const readable = await api.dataPlane.withAdmin(
      TEST_DATABASE_SERVER,
      databaseNameOf(project.id),
      async (client) =>
        (await client.query(`select has_table_privilege($1, 'source."Invoices"', 'SELECT') as ok`, [`${databaseNameOf(project.id)}_reader`])).rows[0].ok,
    );
    expect(readable).toBe(true);
    // A table without columns yet is a draft: the databases get it with its first column.
    const draft = await api.send("POST", `${base(project)}/tables`, owner, { version: added.body.version, name: "Notes", description: null, columns: [] });
    expect(draft.status).toBe(201);
    expect((await catalogOf(project)).filter((t) => t.includes("Notes"))).toEqual([]);

    await load(project, "Invoices", "InvoiceId\n10\n11\n");
    const renamed = await api.send("PATCH", `${base(project)}/tables`, owner, {
      ...(await tableOf(project, "Invoices")).table,
      version: (await tableOf(project, "Invoices")).version,
      tableId: (await tableOf(project, "Invoices")).table.id,
      name: "Bills",
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect((await rowsOf(project, "Bills")).map((r) => r.InvoiceId)).toEqual(["10", "11"]);
    expect((await catalogOf(project)).filter((t) => t.includes("Invoices"))).toEqual([]);
  });

  it("renaming a column (the editor sends its id) keeps its values, with no loss to confirm; so does swapping two names", async () => {
    const project = await projectWithDatabases();
    await load(project, "Customers", "CustomerId,Code,Balance\n1,A,1.00\n2,B,2.50\n");
    const { table: before } = await tableOf(project, "Customers");
    const codeId = before.columns.find((c) => c.name === "Code")!.id;

    const renamed = await saveTable(project, "Customers", (columns) => columns.map((c) => (c.name === "Code" ? { ...c, name: "ClientCode" } : c)));
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect((await catalogOf(project))[0]).toBe("source.Customers: CustomerId integer not null, ClientCode character varying(10), Balance numeric(12,2)");
    expect((await rowsOf(project, "Customers")).map((r) => r.ClientCode)).toEqual(["A", "B"]);
    // The dictionary's column is the same column (its id), under its new name.
    expect((await tableOf(project, "Customers")).table.columns.find((c) => c.name === "ClientCode")?.id).toBe(codeId);

    // Two columns' names swapped, each keeping its own values and type; and a new column under a name one of them left.
    const swapped = await saveTable(project, "Customers", (columns) => [
      ...columns.map((c) => (c.name === "ClientCode" ? { ...c, name: "Balance" } : c.name === "Balance" ? { ...c, name: "ClientCode" } : c)),
    ]);
    expect(swapped.status, JSON.stringify(swapped.body)).toBe(200);
    expect((await catalogOf(project))[0]).toBe("source.Customers: CustomerId integer not null, Balance character varying(10), ClientCode numeric(12,2)");
    expect((await rowsOf(project, "Customers")).map((r) => [r.Balance, r.ClientCode])).toEqual([
      ["A", "1.00"],
      ["B", "2.50"],
    ]);
    // Without an id, a new name is a new column, as a bulk upload's file says it: the old one's values are a loss to confirm.
    const byName = await saveTable(project, "Customers", (columns) => columns.map(({ id: _id, ...c }) => (c.name === "Balance" ? { ...c, name: "Code" } : c)));
    expect(byName.status).toBe(409);
    expect(byName.body.errors.slice(1)).toEqual(["Dropping column Balance of Customers deletes 2 values in the source database"]);
    // So is an id that is no column of this table (another project's, say): it names nothing here.
    const other = await projectWithDatabases();
    const otherId = (await tableOf(other, "Customers")).table.columns.find((c) => c.name === "Code")!.id;
    const foreign = await saveTable(project, "Customers", (columns) => columns.map((c) => (c.name === "Balance" ? { ...c, id: otherId, name: "Code" } : c)));
    expect(foreign.status).toBe(409);
    expect(foreign.body.errors.slice(1)).toEqual(["Dropping column Balance of Customers deletes 2 values in the source database"]);
    expect((await tableOf(other, "Customers")).table.columns.map((c) => c.name)).toEqual(["CustomerId", "Code", "Balance"]);
  });

  it("refuses to drop a column holding values, listing what would be lost, and drops it once confirmed", async () => {
    const project = await projectWithDatabases();
    await load(project, "Customers", "CustomerId,Code,Balance\n1,A,1.00\n2,B,\n3,C,3.00\n");
    const before = await tableOf(project, "Customers");
    const withoutBalance = (columns: Table["columns"]) => columns.filter((c) => c.name !== "Balance");

    const refused = await saveTable(project, "Customers", withoutBalance);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("data_loss");
    expect(refused.body.errors.slice(1)).toEqual(["Dropping column Balance of Customers deletes 2 values in the source database"]);
    // Nothing changed: the dictionary, the databases, and no job ran.
    expect((await tableOf(project, "Customers")).version).toBe(before.version);
    expect((await catalogOf(project))[0]).toContain("Balance numeric(12,2)");
    expect((await jobKinds(project)).filter((k) => k.startsWith("SchemaChange"))).toEqual([]);

    const confirmed = await saveTable(project, "Customers", withoutBalance, "?confirmDataLoss=true");
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(await catalogOf(project)).toEqual([
      "source.Customers: CustomerId integer not null, Code character varying(10)",
      "destination.Customers: CustomerId integer not null, Code character varying(10)",
    ]);
    expect((await rowsOf(project, "Customers")).map((r) => r.Code)).toEqual(["A", "B", "C"]);

    // A table with rows: its deletion says how many, then goes once confirmed.
    const { table, version } = await tableOf(project, "Customers");
    const deleting = await api.send("DELETE", `${base(project)}/tables/${table.id}?version=${version}`, owner);
    expect(deleting.status).toBe(409);
    expect(deleting.body.errors.slice(1)).toEqual(["Dropping table Customers deletes 3 rows in the source database"]);
    expect((await api.send("DELETE", `${base(project)}/tables/${table.id}?version=${version}&confirmDataLoss=true`, owner)).status).toBe(200);
    expect(await catalogOf(project)).toEqual([]);
  });

  it("a bulk upload's apply follows the same rule: refused with the list, applied once confirmed", async () => {
    const project = await projectWithDatabases();
    await load(project, "Customers", "CustomerId,Code\n1,A\n");
    const file = "table,column,type,length,precision,scale,nullable,key\nCustomers,CustomerId,int,,,,no,yes\nCustomers,Balance,decimal,,12,2,yes,no\n";
    const uploaded = await upload(api, `${base(project)}/bulk-uploads`, owner, file, "customers.csv");
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const apply = (query = "") => api.send("POST", `${base(project)}/bulk-uploads/${uploaded.body.id}/apply${query}`, owner);
    const refused = await apply();
    expect(refused.status).toBe(409);
    expect(refused.body.errors.slice(1)).toEqual(["Dropping column Code of Customers deletes 1 value in the source database"]);
    expect((await apply("?confirmDataLoss=true")).status).toBe(200);
    expect((await catalogOf(project))[0]).toBe("source.Customers: CustomerId integer not null, Balance numeric(12,2)");
  });

  it("refuses a narrowing that values exceed, even confirmed; a narrowing they fit goes through", async () => {
    const project = await projectWithDatabases();
    await load(project, "Customers", "CustomerId,Code,Balance\n1,ABCDEFGH,123456.78\n2,AB,1.5\n");
    const narrow = (length: number) => (columns: Table["columns"]) => columns.map((c) => (c.name === "Code" ? { ...c, length } : c));

    for (const query of ["", "?confirmDataLoss=true"]) {
      const refused = await saveTable(project, "Customers", narrow(5), query);
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe("schema_change_refused");
      expect(refused.body.errors.slice(1)).toEqual(["Narrowing Code of Customers to 5 characters would cut 1 value in the source database"]);
    }
    const tooSmall = await saveTable(project, "Customers", (columns) => columns.map((c) => (c.name === "Balance" ? { ...c, precision: 5, scale: 2 } : c)));
    expect(tooSmall.body.errors.slice(1)).toEqual([
      "Changing Balance of Customers to decimal(5,2) would not fit 1 value in the source database: they have more than 3 digits before the decimal point",
    ]);
    // Fewer decimals round: a loss, applied once confirmed.
    const rounding = await saveTable(project, "Customers", (columns) => columns.map((c) => (c.name === "Balance" ? { ...c, scale: 1 } : c)));
    expect(rounding.body).toMatchObject({
      code: "data_loss",
      errors: [expect.any(String), "Changing Balance of Customers to 1 decimal rounds 1 value in the source database"],
    });
    expect((await catalogOf(project))[0]).toBe("source.Customers: CustomerId integer not null, Code character varying(10), Balance numeric(12,2)");

    expect((await saveTable(project, "Customers", narrow(8))).status).toBe(200);
    expect((await catalogOf(project))[0]).toBe("source.Customers: CustomerId integer not null, Code character varying(8), Balance numeric(12,2)");
    expect((await rowsOf(project, "Customers")).map((r) => r.Code)).toEqual(["ABCDEFGH", "AB"]);
  });

  it("refuses a required column the rows have no value for, and a type the values do not convert to; nothing changes", async () => {
    const project = await projectWithDatabases();
    await load(project, "Customers", "CustomerId,Code\n1,A1\n");
    const required = await saveTable(project, "Customers", (columns) => [...columns, column("Region", "int", { nullable: false })]);
    expect(required.status).toBe(409);
    expect(required.body.errors.slice(1)).toEqual([
      "The new required column Region of Customers would have no value in its 1 row in the source database: add it as optional, load its values, then make it required",
    ]);
    // Text to a number: the values that do not convert are counted and quoted, before any lock or job.
    const cast = await saveTable(project, "Customers", (columns) => columns.map((c) => (c.name === "Code" ? { ...c, type: "int", length: null } : c)));
    expect(cast.status).toBe(409);
    expect(cast.body).toMatchObject(
      refusedWith(
        'Changing Code of Customers to int would not convert 1 value in the source database, such as "A1": correct them and load again, or keep the type',
      ),
    );
    expect((await jobKinds(project)).filter((k) => k.startsWith("SchemaChange"))).toEqual([]);
    expect((await tableOf(project, "Customers")).table.columns.find((c) => c.name === "Code")).toMatchObject({ type: "nvarchar", length: 10 });
    expect((await catalogOf(project))[0]).toBe("source.Customers: CustomerId integer not null, Code character varying(10), Balance numeric(12,2)");
    expect((await api.get(`/api/v1/projects/${project.id}`, owner)).body).toMatchObject({ isLocked: false });
    // An empty column takes any type.
    expect(
      (
        await saveTable(project, "Customers", (columns) =>
          columns.map((c) => (c.name === "Balance" ? { ...c, type: "date", precision: null, scale: null } : c)),
        )
      ).status,
    ).toBe(200);
    expect((await catalogOf(project))[0]).toBe("source.Customers: CustomerId integer not null, Code character varying(10), Balance date");
  });

  it("turns text into dates in the project's date order, as its loads read them, quoting the values that are no date", async () => {
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId, sourceType: "FlatFile" });
    const { version } = (await api.get(`/api/v1/projects/${project.id}`, owner)).body as Project;
    const parameters = { version, extension: ".csv", delimiter: "AutoDetect", hasHeaderRow: true, dateOrder: "DMY" };
    expect((await api.send("POST", `/api/v1/projects/${project.id}/updateFlatFileParameters`, owner, parameters)).status).toBe(200);
    await addProjectTable(api, project.id, {
      name: "Members",
      columns: [column("MemberId", "int", { isKey: true, nullable: false }), column("Joined", "nvarchar", { length: 20 })],
    });
    await createProjectDatabases(api, owner, project.id);
    const toDate = (columns: Table["columns"]) => columns.map((c) => (c.name === "Joined" ? { ...c, type: "date", length: null } : c));
    const joined = () =>
      api.dataPlane.withAdmin(TEST_DATABASE_SERVER, databaseNameOf(project.id), async (client) =>
        (await client.query<{ d: string }>(`select "Joined"::text as d from source."Members" order by 1`)).rows.map((r) => r.d),
      );

    await load(project, "Members", "MemberId,Joined\n1,03/04/2024\n2,25/12/2024\n3,soon\n4,31/02/2024\n5,soon\n");
    const refused = await saveTable(project, "Members", toDate);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject(
      refusedWith(
        'Changing Joined of Members to date would not convert 3 values in the source database, such as "31/02/2024" and "soon" (dates read as dd/mm/yyyy, as the loads read them): correct them and load again, or keep the type',
      ),
    );
    expect(await joined()).toEqual(["03/04/2024", "25/12/2024", "31/02/2024", "soon", "soon"]);

    // Day first, as the project's files write them: the 3rd of April, not the 4th of March.
    await load(project, "Members", "MemberId,Joined\n1,03/04/2024\n2,25/12/2024\n3,2024-05-06\n");
    const saved = await saveTable(project, "Members", toDate);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(await joined()).toEqual(["2024-04-03", "2024-05-06", "2024-12-25"]);
  });

  it("refuses an edit while a load holds the lock (409, its reason), and another company's project is not found", async () => {
    const project = await projectWithDatabases();
    const release = holdJobsOf(api.jobs, project.id);
    const started = await api.postForm(`/api/v1/projects/${project.id}/flat-file/loads`, owner, {
      file: { name: "a.csv", content: "CustomerId\n1\n" },
      table: "Customers",
    });
    expect(started.status).toBe(202);
    const refused = await saveTable(project, "Customers", (columns) => [...columns, column("Phone", "nvarchar")]);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0]).toMatch(/locked \(Flat file creation\)/);
    release();
    await api.jobs.idle();
    expect((await catalogOf(project))[0]).not.toContain("Phone");

    const stranger = await api.tokenFor(USERS.viewer);
    const { table, version } = await tableOf(project, "Customers");
    const foreign = await api.send("PATCH", `${base(project)}/tables?confirmDataLoss=true`, stranger, {
      version,
      tableId: table.id,
      name: "Customers",
      description: null,
      columns: [],
    });
    expect(foreign.status).toBe(404);
    expect((await api.send("DELETE", `${base(project)}/tables/${table.id}?version=${version}&confirmDataLoss=true`, stranger)).status).toBe(404);
  });

  it("an edit of the master dictionary a project copied touches neither the project's dictionary nor its databases", async () => {
    const master = await api.send("POST", "/api/v1/data-dictionaries", owner, {
      companyId: birch.id,
      applicationId,
      name: `Master ${Date.now()}`,
      description: null,
    });
    expect(master.status).toBe(201);
    const withTable = await api.send("POST", `/api/v1/data-dictionaries/${master.body.id}/tables`, owner, {
      version: master.body.version,
      name: "Customers",
      description: null,
      columns: [column("CustomerId", "int", { isKey: true, nullable: false }), column("Code", "nvarchar", { length: 10 })],
    });
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId, sourceType: "BackUp" });
    const own = (await api.get(base(project), owner)).body;
    expect((await api.send("POST", `${base(project)}/${master.body.id}/assign`, owner, { version: own.version })).status).toBe(200);
    await createProjectDatabases(api, owner, project.id);
    const catalog = await catalogOf(project);

    const masterTable = withTable.body.table;
    const edited = await api.send("PATCH", `/api/v1/data-dictionaries/${master.body.id}/tables`, owner, {
      version: withTable.body.version,
      tableId: masterTable.id,
      name: "Clients",
      description: null,
      columns: [column("CustomerId", "bigint", { isKey: true, nullable: false }), column("Phone", "nvarchar")],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(await catalogOf(project)).toEqual(catalog);
    expect((await tableOf(project, "Customers")).table.columns.map((c) => c.name)).toEqual(["CustomerId", "Code"]);
    expect(await jobKinds(project)).toEqual(["DatabaseCreation SUCCESS"]);
  });
});
