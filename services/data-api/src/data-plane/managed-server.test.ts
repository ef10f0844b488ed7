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
  rolesOf,
} from "./project-databases.ts";
import { quoteIdentifier, type DdlTable } from "./postgres-ddl.ts";
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

  const superuser = new pg.Client({ connectionString: TEST_POSTGRES_ADMIN_URL ?? undefined });

  beforeAll(async () => {
    await superuser.connect();
    projectId = randomUUID();
    await createProjectDatabase(dataPlane, SERVER, projectId);
    for (const kind of ["source", "destination"] as const) await createProjectSchema(dataPlane, SERVER, projectId, kind, [customers]);
  });

  afterAll(async () => {
    await dropProjectDatabase(dataPlane, SERVER, projectId);
    await dataPlane.closePools();
    await superuser.end();
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
    expect(await cancelledSleep(projectId)).toMatch(/canceling statement due to user request/);
  });

  it("ends the open session of a credential whose level is lowered, and of one revoked", async () => {
    for (const [level, end] of lowerings(projectId)) expect(await sessionEnded(projectId, end), level).toBe(true);
  });

  it("drops the project's database while a credential is connected to it, and its roles with it", async () => {
    expect(await droppedWhileConnected(projectId)).toEqual({ exists: false, sessionEnded: true });
  });

  it("does all this for a project and credentials made before it became a member of their logins", async () => {
    const older = randomUUID();
    await createProjectDatabase(dataPlane, SERVER, older);
    for (const kind of ["source", "destination"] as const) await createProjectSchema(dataPlane, SERVER, older, kind, [customers]);
    await asProjectOwner(dataPlane, SERVER, older, (client) => client.query(`insert into source."Customers" values (1), (2)`));
    const runner = rolesOf(older).runner;
    await forget(runner);
    expect(await isMember(runner)).toBe(false);
    expect(await cancelledSleep(older)).toMatch(/canceling statement due to user request/);
    for (const [level, end] of lowerings(older)) expect(await sessionEnded(older, end, { forget: true }), level).toBe(true);
    await forget(runner);
    expect(await droppedWhileConnected(older, { forget: true })).toEqual({ exists: false, sessionEnded: true });
  });

  /** What a login made before the administrative login took its membership is like: not a member (PostgreSQL 16's own grant to a role's creator does not let it end sessions). */
  const forget = (login: string) => dataPlane.withAdmin(SERVER, null, (admin) => admin.query(`REVOKE ${quoteIdentifier(login)} FROM CURRENT_USER`));
  const isMember = (login: string) =>
    dataPlane.withAdmin(SERVER, null, async (admin) => (await admin.query<{ m: boolean }>("select pg_has_role($1, 'USAGE') as m", [login])).rows[0]!.m);

  /** A credential made and granted `level` on the project; forgotten by the administrative login if asked. */
  async function credential(project: string, level: "read" | "write", options: { forget?: boolean } = {}) {
    const login = loginNameOf(randomUUID());
    const password = newPassword();
    await createLogin(dataPlane, login, password, "2099-12-31");
    await grantLevel(dataPlane, SERVER, project, login, level);
    if (options.forget) {
      await forget(login);
      expect(await isMember(login)).toBe(false);
    }
    return { login, session: await sessionOf(login, password, databaseNameOf(project)) };
  }

  /** The outcome of a runner's `pg_sleep(30)` that cancelStatement stops once it runs. */
  function cancelledSleep(project: string): Promise<string> {
    return asProjectOwner(dataPlane, SERVER, project, async (client) => {
      const { rows } = await client.query<{ pid: number }>("select pg_backend_pid() as pid");
      // Its outcome is taken at once: the cancel may end it before cancelStatement returns.
      const sleeping = client.query("select pg_sleep(30)").then(
        () => "finished",
        (err: Error) => err.message,
      );
      const pid = rows[0]!.pid;
      // Seen by the cluster's superuser: a session's state shows only to members of its role.
      const isSleeping = async () => (await superuser.query("select 1 from pg_stat_activity where pid = $1 and state = 'active'", [pid])).rowCount === 1;
      await vi.waitFor(
        async () => {
          if (!(await isSleeping())) throw new Error("the statement is not running yet");
        },
        { timeout: 5_000, interval: 20 },
      );
      await cancelStatement(dataPlane, SERVER, project, pid);
      return sleeping;
    });
  }

  /** A level lowered to none, and a revocation. */
  function lowerings(project: string) {
    return [
      ["none", (login: string) => grantLevel(dataPlane, SERVER, project, login, "none")],
      ["revoked", (login: string) => disableLogin(dataPlane, login)],
    ] as const;
  }

  /** Whether `end` ends the open session of a credential with read access that reads the project's table. */
  async function sessionEnded(project: string, end: (login: string) => Promise<void>, options: { forget?: boolean } = {}) {
    const { login, session } = await credential(project, "read", options);
    expect((await session.query(`select count(*)::int as n from source."Customers"`)).rows[0].n).toBe(2);
    await end(login);
    const ended = await session.query("select 1").then(
      () => false,
      () => true,
    );
    await session.end().catch(() => undefined);
    return ended;
  }

  /** Drops the project's database while a credential with write access is connected to it. */
  async function droppedWhileConnected(project: string, options: { forget?: boolean } = {}) {
    const { session } = await credential(project, "write", options);
    await dropProjectDatabase(dataPlane, SERVER, project);
    const sessionEnded = await session.query("select 1").then(
      () => false,
      () => true,
    );
    await session.end().catch(() => undefined);
    return { exists: await databaseExists(dataPlane, SERVER, project), sessionEnded };
  }
});
