import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_POSTGRES_ADMIN_URL, testSessionUrl } from "../../../shared/testing/databases.ts";
import { TEST_DATABASE_SERVER, createTestDataPlane } from "../testing/harness.ts";
import type { DdlColumn, DdlTable } from "./postgres-ddl.ts";
import {
  asProjectOwner,
  createProjectDatabase,
  createProjectSchema,
  databaseExists,
  databaseNameOf,
  dropProjectDatabase,
  readTableRows,
  rolesOf,
} from "./project-databases.ts";

const col = (name: string, type: DdlColumn["type"], extra: Partial<DdlColumn> = {}): DdlColumn => ({
  name,
  type,
  length: null,
  precision: null,
  scale: null,
  nullable: true,
  isKey: false,
  ...extra,
});

const everyType: DdlTable = {
  name: "Everything",
  columns: [
    col("Id", "int", { isKey: true, nullable: false }),
    col("Big", "bigint"),
    col("Amount", "decimal", { precision: 5, scale: 2 }),
    col("Ratio", "float"),
    col("Born", "date"),
    col("At", "time"),
    col("Stamp", "datetime"),
    col("Uid", "uniqueidentifier"),
    col("Name", "nvarchar", { length: 5, nullable: false }),
    col("Code", "nvarchar"),
  ],
};

const dataPlane = createTestDataPlane();
const created: string[] = [];
const server = TEST_DATABASE_SERVER;

/** A project with both schemas made from `tables`, as the creation job makes them. */
async function freshProject(tables: DdlTable[] = [everyType]): Promise<string> {
  const projectId = randomUUID();
  created.push(projectId);
  await createProjectDatabase(dataPlane, server, projectId);
  await createProjectSchema(dataPlane, server, projectId, "source", tables);
  await createProjectSchema(dataPlane, server, projectId, "destination", tables);
  return projectId;
}

afterAll(async () => {
  for (const id of created) await dropProjectDatabase(dataPlane, server, id);
  await dataPlane.closePools();
});

describe.skipIf(!TEST_POSTGRES_ADMIN_URL)("project databases on PostgreSQL", () => {
  let projectId: string;
  beforeAll(async () => {
    projectId = await freshProject([everyType, { name: "order", columns: [col("select", "int", { isKey: true, nullable: false }), col("from", "nvarchar", { length: 3 })] }]);
  });

  it("has the schemas source and destination, each with one typed table per dictionary table", async () => {
    await asProjectOwner(dataPlane, server, projectId, async (client) => {
      const { rows: schemas } = await client.query("select nspname from pg_namespace where nspname not like 'pg\\_%' and nspname <> 'information_schema' order by 1");
      expect(schemas.map((r) => r.nspname)).toEqual(["destination", "source"]);
      for (const schema of ["source", "destination"]) {
        const { rows } = await client.query<{ name: string; type: string; notnull: boolean }>(
          `select attname as name, format_type(atttypid, atttypmod) as type, attnotnull as notnull
             from pg_attribute where attrelid = $1::regclass and attnum > 0 and not attisdropped order by attnum`,
          [`${schema}."Everything"`],
        );
        expect(rows.map((r) => [r.name, r.type, r.notnull])).toEqual([
          ["Id", "integer", true],
          ["Big", "bigint", false],
          ["Amount", "numeric(5,2)", false],
          ["Ratio", "double precision", false],
          ["Born", "date", false],
          ["At", "time without time zone", false],
          ["Stamp", "timestamp without time zone", false],
          ["Uid", "uuid", false],
          ["Name", "character varying(5)", true],
          ["Code", "text", false],
        ]);
      }
      // Reserved words are names like any other.
      await client.query(`insert into source."order" ("select", "from") values (1, 'abc')`);
      expect((await client.query(`select "from" from source."order"`)).rows).toEqual([{ from: "abc" }]);
      throw new Rollback();
    }).catch(ignoreRollback);
  });

  it("keeps text as written: leading zeros and long digit strings", async () => {
    await asProjectOwner(dataPlane, server, projectId, async (client) => {
      await client.query(`insert into source."Everything" ("Id", "Name", "Code") values (1, '007', '00012345678901234567890')`);
      expect((await client.query(`select "Name", "Code" from source."Everything"`)).rows).toEqual([{ Name: "007", Code: "00012345678901234567890" }]);
      throw new Rollback();
    }).catch(ignoreRollback);
  });

  it.each([
    ["a too-long nvarchar", `"Name" = 'Longer'`, /too long/],
    ["a null in a key column", `"Id" = null`, /not-null/],
    ["an int out of range", `"Id" = 2147483648`, /out of range/],
    ["a decimal with too many integer digits", `"Amount" = 1000`, /overflow/],
    ["an impossible date", `"Born" = '2023-02-30'`, /out of range/],
    ["an impossible time", `"At" = '25:00:00'`, /out of range/],
    ["a malformed uniqueidentifier", `"Uid" = 'not-a-guid'`, /invalid input syntax for type uuid/],
  ])("refuses %s", async (_what, assignment, message) => {
    await expect(
      asProjectOwner(dataPlane, server, projectId, async (client) => {
        await client.query(`insert into source."Everything" ("Id", "Name") values (1, 'Ann')`);
        await client.query(`update source."Everything" set ${assignment}`);
      }),
    ).rejects.toThrow(message);
  });

  describe("isolation", () => {
    let other: string;
    let login: { name: string; password: string };
    let admin: pg.Client;
    const connectAs = async (user: string, password: string, database: string) => {
      const client = new pg.Client({ connectionString: testSessionUrl(user, password, database) });
      await client.connect();
      return client;
    };

    beforeAll(async () => {
      other = await freshProject();
      admin = new pg.Client({ connectionString: TEST_POSTGRES_ADMIN_URL! });
      await admin.connect();
      // A login as a SQL credential will be: granted one project's reader role, nothing else.
      login = { name: `t_login_${randomUUID().slice(0, 8)}`, password: randomUUID() };
      await admin.query(`CREATE ROLE "${login.name}" LOGIN PASSWORD '${login.password}' IN ROLE "${rolesOf(projectId).reader}"`);
    });
    afterAll(async () => {
      await admin.query(`DROP ROLE IF EXISTS "${login.name}"`);
      await admin.end();
    });

    it("the project's owner, reader and writer cannot log in; its runner can, into its own database only", async () => {
      const { owner, reader, writer, runner } = rolesOf(projectId);
      const { rows } = await admin.query("select rolname, rolcanlogin from pg_roles where rolname = any($1::text[]) order by rolname", [[owner, reader, writer, runner]]);
      expect(Object.fromEntries(rows.map((r) => [r.rolname, r.rolcanlogin]))).toEqual({ [owner]: false, [reader]: false, [writer]: false, [runner]: true });
      const password = dataPlane.passwordOf(runner);
      await expect(connectAs(runner, password, databaseNameOf(other))).rejects.toThrow(/permission denied for database/);
      await expect(connectAs(runner, "a guess", databaseNameOf(projectId))).rejects.toThrow(/password authentication failed/);
      const client = await connectAs(runner, password, databaseNameOf(projectId));
      await client.end();
    });

    it("a login granted a project's reader connects to that database only, and can read but not write", async () => {
      await expect(connectAs(login.name, login.password, databaseNameOf(other))).rejects.toThrow(/permission denied for database/);
      const client = await connectAs(login.name, login.password, databaseNameOf(projectId));
      try {
        expect((await client.query(`select count(*)::int as n from source."Everything"`)).rows).toEqual([{ n: 0 }]);
        await expect(client.query(`insert into source."Everything" ("Id", "Name") values (9, 'x')`)).rejects.toThrow(/permission denied/);
        await expect(client.query(`create table destination.mine (a int)`)).rejects.toThrow(/permission denied/);
      } finally {
        await client.end();
      }
    });

    it("a login granted nothing cannot connect to any project database (CONNECT is revoked from PUBLIC)", async () => {
      const name = `t_nobody_${randomUUID().slice(0, 8)}`;
      await admin.query(`CREATE ROLE "${name}" LOGIN PASSWORD 'pw'`);
      try {
        await expect(connectAs(name, "pw", databaseNameOf(projectId))).rejects.toThrow(/permission denied for database/);
      } finally {
        await admin.query(`DROP ROLE "${name}"`);
      }
    });

    it.each([
      ["run a program from COPY", `copy source."Everything" to program 'id'`, /permission denied|must be superuser|pg_execute_server_program/],
      ["read a server file", `select pg_read_file('/etc/passwd')`, /permission denied/],
      ["create an extension (dblink could reach other databases)", `create extension if not exists dblink`, /permission denied|not available|could not open extension control file/],
      ["create a schema", `create schema sneaky`, /permission denied/],
      ["read the server's roles' passwords", `select rolpassword from pg_authid`, /permission denied/],
      ["become the administrative login", `set role postgres`, /permission denied/],
      ["become the administrative login again", `reset role; select pg_read_file('/etc/passwd')`, /permission denied/],
      ["become another project's owner", `set role ${"OTHER_OWNER"}`, /permission denied/],
    ])("work as the project's owner cannot %s", async (_what, statement, message) => {
      const sql = statement.replace("OTHER_OWNER", `"${rolesOf(other).owner}"`);
      await expect(asProjectOwner(dataPlane, server, projectId, (client) => client.query(sql))).rejects.toThrow(message);
    });

    it("dropping a project's database takes its roles and leaves the others' alone", async () => {
      const gone = await freshProject();
      await dropProjectDatabase(dataPlane, server, gone);
      expect(await databaseExists(dataPlane, server, gone)).toBe(false);
      const { rows } = await admin.query("select count(*)::int as n from pg_roles where rolname = any($1::text[])", [Object.values(rolesOf(gone))]);
      expect(rows).toEqual([{ n: 0 }]);
      expect(await databaseExists(dataPlane, server, projectId)).toBe(true);
      // Dropping what is not there is no error (a clean-up that runs twice).
      await expect(dropProjectDatabase(dataPlane, server, gone)).resolves.toBeUndefined();
    });
  });

  it("a retry starts clean: creating again replaces what an earlier attempt left", async () => {
    const id = await freshProject();
    await asProjectOwner(dataPlane, server, id, (client) => client.query(`insert into source."Everything" ("Id", "Name") values (1, 'Ann')`));
    await createProjectDatabase(dataPlane, server, id);
    await createProjectSchema(dataPlane, server, id, "source", [{ name: "Only", columns: [col("A", "int")] }]);
    await asProjectOwner(dataPlane, server, id, async (client) => {
      const { rows } = await client.query("select table_name from information_schema.tables where table_schema = 'source'");
      expect(rows).toEqual([{ table_name: "Only" }]);
    });
  });

  it("a schema whose tables cannot all be made is not made at all", async () => {
    const id = randomUUID();
    created.push(id);
    await createProjectDatabase(dataPlane, server, id);
    // The same table twice: the second CREATE TABLE fails after the first succeeded.
    await expect(createProjectSchema(dataPlane, server, id, "source", [{ name: "T", columns: [col("A", "int")] }, { name: "T", columns: [col("A", "int")] }])).rejects.toThrow(
      /already exists/,
    );
    await asProjectOwner(dataPlane, server, id, async (client) => {
      expect((await client.query("select nspname from pg_namespace where nspname = 'source'")).rows).toEqual([]);
    });
  });

  it("pages a table sorted by a column of many equal values without repeating or skipping a row, from either end", async () => {
    const ledger: DdlTable = {
      name: "Ledger",
      columns: [
        col("Id", "int", { isKey: true, nullable: false }),
        col("Status", "nvarchar", { length: 10 }),
        col("Amount", "decimal", { precision: 8, scale: 2 }),
      ],
    };
    const id = await freshProject([ledger]);
    // 510 rows: three statuses, amounts repeating every 7 rows with every 11th NULL, rows in no order of any column.
    await asProjectOwner(dataPlane, server, id, (client) =>
      client.query(
        `insert into source."Ledger" select (n * 7919) % 100003, (array['Open','Closed','Held'])[n % 3 + 1], case when n % 11 = 0 then null else n % 7 end from generate_series(1, 510) n`,
      ),
    );
    const { rows: all } = await asProjectOwner(dataPlane, server, id, (client) =>
      client.query<{ id: string; status: string; amount: string | null }>(
        `select "Id"::text as id, "Status" as status, "Amount"::text as amount from source."Ledger"`,
      ),
    );
    for (const [sort, keyOf] of [
      ["Status", (r: (string | null)[]) => r[1]],
      ["-Status", (r: (string | null)[]) => r[1]],
      ["Amount", (r: (string | null)[]) => r[2]],
      ["-Amount", (r: (string | null)[]) => r[2]],
    ] as const) {
      const read = async (page: number) => (await readTableRows(dataPlane, server, id, "source", "Ledger", { page, pageSize: 25, sort }))!;
      const pages = [];
      for (let page = 1; page <= 21; page++) pages.push(await read(page));
      expect(pages.map((p) => p.items.length)).toEqual([...Array<number>(20).fill(25), 10]);
      expect(pages.every((p) => p.total === 510 && p.sort === sort)).toBe(true);
      const items = pages.flatMap((p) => p.items);
      // Every row exactly once…
      expect(items.map((r) => r[0]).sort()).toEqual(all.map((r) => r.id).sort());
      // …in the order asked: NULL last going up, first going down.
      const keys = items.map(keyOf);
      const rank = (v: string | null | undefined) => (v == null ? Infinity : Number.isNaN(Number(v)) ? v : Number(v));
      const expected = [...keys].sort((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0));
      expect(keys).toEqual(sort.startsWith("-") ? expected.reverse() : expected);
      // Past the end: no rows, the count still said.
      expect(await read(22)).toMatchObject({ items: [], total: 510 });
    }
  });

  it("refuses an id that is not a project id", () => {
    expect(() => databaseNameOf("x; drop database postgres")).toThrow(/Not a project id/);
  });
});

/** Thrown to roll a test's writes back: asProjectOwner rolls back whatever throws. */
class Rollback extends Error {}
function ignoreRollback(err: unknown) {
  if (!(err instanceof Rollback)) throw err;
}
