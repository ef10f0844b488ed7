/**
 * What a project database server's administrative login that is not a superuser (CREATEROLE and
 * CREATEDB, as on a managed server) must still do: the tests' data plane logs in as such a login
 * (tests/setup/postgres.ts), for which PostgreSQL checks membership before ending or cancelling a
 * session, and refuses DROP DATABASE WITH (FORCE) while autovacuum works in the database.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { TEST_POSTGRES_ADMIN_URL, testSessionUrl } from "../../../shared/testing/databases.ts";
import { TEST_DATABASE_SERVER as SERVER, createTestDataPlane } from "../testing/harness.ts";
import {
  asProjectOwner,
  cancelStatement,
  createProjectDatabase,
  createProjectSchema,
  databaseExists,
  databaseNameOf,
  dropProjectDatabase,
} from "./project-databases.ts";
import type { DdlTable } from "./postgres-ddl.ts";
import { createLogin, disableLogin, grantLevel, loginNameOf, newPassword } from "./sql-logins.ts";

const customers: DdlTable = {
  name: "Customers",
  columns: [{ name: "Id", type: "int", length: null, precision: null, scale: null, nullable: true, isKey: false }],
};

/** A session of `user` on the project's database, as a SQL client would hold one. */
async function sessionOf(user: string, password: string, database: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: testSessionUrl(user, password, database) });
  client.on("error", () => undefined); // a session ended by the server: what these tests expect
  await client.connect();
  return client;
}

describe.skipIf(!TEST_POSTGRES_ADMIN_URL)("a project database server whose administrative login is not a superuser", () => {
  const dataPlane = createTestDataPlane();
  let projectId: string;

  beforeAll(async () => {
    projectId = randomUUID();
    await createProjectDatabase(dataPlane, SERVER, projectId);
    for (const kind of ["source", "destination"] as const) await createProjectSchema(dataPlane, SERVER, projectId, kind, [customers]);
  });

  afterAll(async () => {
    await dropProjectDatabase(dataPlane, SERVER, projectId);
    await dataPlane.closePools();
  });

  it("is what the tests' data plane logs in as", async () => {
    const { rows } = await dataPlane.withAdmin(SERVER, null, (admin) =>
      admin.query("select rolsuper, rolcreaterole, rolcreatedb from pg_roles where rolname = current_user"),
    );
    expect(rows).toEqual([{ rolsuper: false, rolcreaterole: true, rolcreatedb: true }]);
  });

  it("makes a project's database and works in it as the project's runner", async () => {
    await asProjectOwner(dataPlane, SERVER, projectId, (client) => client.query(`insert into source."Customers" values (1), (2)`));
    const counted = await asProjectOwner(dataPlane, SERVER, projectId, (client) => client.query(`select count(*)::int as n from source."Customers"`));
    expect(counted.rows[0].n).toBe(2);
  });

  it("cancels the runner's running statement (a run's Cancel)", async () => {
    const outcome = await asProjectOwner(dataPlane, SERVER, projectId, async (client) => {
      const { rows } = await client.query<{ pid: number }>("select pg_backend_pid() as pid");
      // Its outcome is taken at once: the cancel may end it before cancelStatement returns.
      const sleeping = client.query("select pg_sleep(30)").then(
        () => "finished",
        (err: Error) => err.message,
      );
      const pid = rows[0]!.pid;
      const isSleeping = () =>
        dataPlane.withAdmin(
          SERVER,
          null,
          async (admin) => (await admin.query("select 1 from pg_stat_activity where pid = $1 and state = 'active'", [pid])).rowCount === 1,
        );
      await vi.waitFor(
        async () => {
          if (!(await isSleeping())) throw new Error("the statement is not running yet");
        },
        { timeout: 5_000, interval: 20 },
      );
      await cancelStatement(dataPlane, SERVER, pid);
      return sleeping;
    });
    expect(outcome).toMatch(/canceling statement due to user request/);
  });

  it("ends the open session of a credential whose level is lowered, and of one revoked", async () => {
    const database = databaseNameOf(projectId);
    for (const [level, end] of [
      ["none", (login: string) => grantLevel(dataPlane, SERVER, projectId, login, "none")],
      ["revoked", (login: string) => disableLogin(dataPlane, login)],
    ] as const) {
      const login = loginNameOf(randomUUID());
      const password = newPassword();
      await createLogin(dataPlane, login, password, "2099-12-31");
      await grantLevel(dataPlane, SERVER, projectId, login, "read");
      const session = await sessionOf(login, password, database);
      expect((await session.query(`select count(*)::int as n from source."Customers"`)).rows[0].n, level).toBe(2);
      await end(login);
      await expect(session.query("select 1"), level).rejects.toThrow();
      await session.end().catch(() => undefined);
    }
  });

  it("drops the project's database while a credential is connected to it, and its roles with it", async () => {
    const login = loginNameOf(randomUUID());
    const password = newPassword();
    await createLogin(dataPlane, login, password, "2099-12-31");
    await grantLevel(dataPlane, SERVER, projectId, login, "write");
    const session = await sessionOf(login, password, databaseNameOf(projectId));
    await dropProjectDatabase(dataPlane, SERVER, projectId);
    expect(await databaseExists(dataPlane, SERVER, projectId)).toBe(false);
    await expect(session.query("select 1")).rejects.toThrow();
    await session.end().catch(() => undefined);
  });
});
