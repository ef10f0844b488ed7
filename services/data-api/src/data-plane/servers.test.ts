import pg from "pg";
import { describe, expect, it } from "vitest";
import { TEST_POSTGRES_ADMIN_URL } from "../../../shared/testing/databases.ts";
import { TEST_DATABASE_SERVER as SERVER, createTestDataPlane } from "../testing/harness.ts";
import { createDataPlane, serversFromUrls } from "./servers.ts";

describe("project database servers", () => {
  it("reads PROJECT_DATABASES_URL as servers named host:port", () => {
    expect(serversFromUrls("postgres://a:pw@pg1.internal/postgres, postgresql://b@pg2.internal:6543/admin")).toEqual([
      { id: "pg1.internal:5432", adminUrl: "postgres://a:pw@pg1.internal/postgres" },
      { id: "pg2.internal:6543", adminUrl: "postgresql://b@pg2.internal:6543/admin" },
    ]);
    expect(() => serversFromUrls("postgres://pg1/x,postgres://pg1:5432/y")).toThrow(/named twice/);
    expect(() => serversFromUrls("mysql://pg1/x")).toThrow(/not a postgres/);
  });

  it("derives each project login's password from the secret: the same for the same login, different for another or another secret", () => {
    const plane = createDataPlane([{ id: "a:1", adminUrl: "postgres://a:1/x" }], { secret: "one secret of at least thirty-two chars" });
    const other = createDataPlane([{ id: "a:1", adminUrl: "postgres://a:1/x" }], { secret: "another secret, thirty-two chars or more" });
    expect(plane.passwordOf("dt_x_runner")).toBe(plane.passwordOf("dt_x_runner"));
    expect(plane.passwordOf("dt_x_runner")).not.toBe(plane.passwordOf("dt_y_runner"));
    expect(plane.passwordOf("dt_x_runner")).not.toBe(other.passwordOf("dt_x_runner"));
    expect(plane.passwordOf("dt_x_runner")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("refuses a project recorded on a server that is no longer configured", () => {
    const plane = createDataPlane([{ id: "a:1", adminUrl: "postgres://a:1/x" }], { secret: "s".repeat(32) });
    expect(() => plane.server("gone:5432")).toThrow(/not configured/);
  });
});

describe.skipIf(!TEST_POSTGRES_ADMIN_URL)("a project database connection the server ends while it is held", () => {
  it("fails the work that holds it, not the process, and is not given to the next work", async () => {
    const dataPlane = createTestDataPlane();
    const superuser = new pg.Client({ connectionString: TEST_POSTGRES_ADMIN_URL! });
    await superuser.connect();
    // Heard by nobody, pg's "error" event would be thrown as an uncaught exception: the data API's death.
    const uncaught: unknown[] = [];
    const hear = (err: unknown) => uncaught.push(err);
    process.on("uncaughtException", hear);
    try {
      const work = dataPlane.withAdmin(SERVER, null, async (client) => {
        const { rows } = await client.query<{ pid: number }>("select pg_backend_pid() as pid");
        // Between two statements, as a job's step holds its connection: the server ends the session
        // (as it does to every session when PostgreSQL stops or its postmaster is killed).
        await superuser.query("select pg_terminate_backend($1)", [rows[0]!.pid]);
        await new Promise((resolve) => setTimeout(resolve, 300));
        return client.query("select 1");
      });
      await expect(work).rejects.toThrow();
      expect(uncaught).toEqual([]);
      // The next work gets a live connection.
      const { rows } = await dataPlane.withAdmin(SERVER, null, (client) => client.query<{ one: number }>("select 1 as one"));
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      process.off("uncaughtException", hear);
      await superuser.end();
      await dataPlane.closePools();
    }
  });
});

describe.skipIf(!TEST_POSTGRES_ADMIN_URL)("connections to one server across many project databases", () => {
  it("stay within the server's budget: an idle connection of another database makes room, and work beyond it waits rather than fails", async () => {
    const superuser = new pg.Client({ connectionString: TEST_POSTGRES_ADMIN_URL! });
    await superuser.connect();
    const names = ["a", "b", "c"].map((n) => `dt_budget_${n}_${process.pid}`);
    for (const name of names) await superuser.query(`create database ${name}`);
    const dataPlane = createDataPlane([{ id: SERVER, adminUrl: TEST_POSTGRES_ADMIN_URL! }], { secret: "s".repeat(32), connectionsPerServer: 2 });
    const openTo = async () => {
      const { rows } = await superuser.query<{ n: string }>("select count(*) as n from pg_stat_activity where datname = any($1)", [names]);
      return Number(rows[0]!.n);
    };
    const [a, b, c] = names as [string, string, string];
    const one = (database: string) =>
      dataPlane.withAdmin(SERVER, database, async (client) => (await client.query<{ db: string }>("select current_database() as db")).rows[0]!.db);
    let releaseA!: () => void;
    const heldA = dataPlane.withAdmin(SERVER, a, (client) => client.query("select 1").then(() => new Promise<void>((resolve) => (releaseA = resolve))));
    try {
      await expect.poll(() => openTo()).toBe(1);
      // b's connection stays open, idle, after its work: the budget is now spent.
      expect(await one(b)).toBe(b);
      expect(await openTo()).toBe(2);
      // c needs one: b's idle connection is closed for it, and the server never sees three.
      expect(await one(c)).toBe(c);
      await expect.poll(() => openTo()).toBe(2);

      // Both in use (a held, b held): c waits for one of them, and then runs.
      let releaseB!: () => void;
      const heldB = dataPlane.withAdmin(SERVER, b, () => new Promise<void>((resolve) => (releaseB = resolve)));
      await expect.poll(() => releaseB).toBeDefined();
      let cDone = false;
      const waitingC = one(c).then((db) => {
        cDone = true;
        return db;
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(cDone).toBe(false);
      releaseB();
      await heldB;
      expect(await waitingC).toBe(c);
      expect(await openTo()).toBeLessThanOrEqual(2);
    } finally {
      releaseA?.();
      await heldA;
      await dataPlane.closePools();
      for (const name of names) await superuser.query(`drop database if exists ${name}`);
      await superuser.end();
    }
  });
});

describe.skipIf(!TEST_POSTGRES_ADMIN_URL)("an idle project database connection the server ends", () => {
  it("is dropped, not given to the next work to fail on (PostgreSQL stopped or started again while it was idle)", async () => {
    const dataPlane = createTestDataPlane();
    const superuser = new pg.Client({ connectionString: TEST_POSTGRES_ADMIN_URL! });
    await superuser.connect();
    try {
      const pid = await dataPlane.withAdmin(
        SERVER,
        null,
        async (client) => (await client.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]!.pid,
      );
      // Idle in the data API now; the server ends its session.
      await superuser.query("select pg_terminate_backend($1)", [pid]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const { rows } = await dataPlane.withAdmin(SERVER, null, (client) => client.query<{ pid: number }>("select pg_backend_pid() as pid"));
      expect(rows[0]!.pid).not.toBe(pid);
    } finally {
      await superuser.end();
      await dataPlane.closePools();
    }
  });
});
