import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { sql, type Kysely } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createKysely } from "./db.ts";

// SQLite only: the kept statements and the rows built in JavaScript are the SQLite connection's.
describe("createKysely on SQLite", () => {
  let dir: string;
  let file: string;
  let db: Kysely<any>;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "dt-db-"));
    file = path.join(dir, "t.sqlite");
    db = createKysely<any>(file);
    await sql`create table t (x integer, y text, z real)`.execute(db);
    await sql`insert into t values (1, 'one', 1.5), (2, null, null)`.execute(db);
  });
  afterEach(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** What better-sqlite3 itself answers for the same SQL on the same file. */
  function direct(text: string) {
    const sqlite = new Database(file, { readonly: true });
    try {
      return sqlite.prepare(text).all();
    } finally {
      sqlite.close();
    }
  }

  it("answers the rows better-sqlite3 builds itself: a key per column in order, the last of two equal names winning", async () => {
    for (const text of ["select * from t order by x", "select y, x as a, z as a from t order by x", "select count(*) as n from t"]) {
      const { rows } = await sql.raw(text).execute(db);
      expect(rows).toEqual(direct(text));
      expect(rows.map((r) => Object.keys(r as object))).toEqual(direct(text).map((r) => Object.keys(r as object)));
    }
    const { rows } = await sql`insert into t values (3, 'three', 0) returning x, y`.execute(db);
    expect(rows).toEqual([{ x: 3, y: "three" }]);
  });

  it("reads a kept statement's column names again after a schema change through the connection", async () => {
    const read = () => db.selectFrom("t").selectAll().where("x", "=", 1).execute();
    expect(await read()).toEqual([{ x: 1, y: "one", z: 1.5 }]);
    await sql`alter table t rename column y to name`.execute(db);
    expect(await read()).toEqual([{ x: 1, name: "one", z: 1.5 }]);
    await sql`alter table t add column w text`.execute(db);
    expect(await read()).toEqual([{ x: 1, name: "one", z: 1.5, w: null }]);
  });

  it("reads them again when another connection adds a column", async () => {
    const read = () => db.selectFrom("t").selectAll().where("x", "=", 1).execute();
    expect(await read()).toEqual([{ x: 1, y: "one", z: 1.5 }]);
    const other = new Database(file);
    other.exec("alter table t add column w text default 'w'");
    other.close();
    expect(await read()).toEqual([{ x: 1, y: "one", z: 1.5, w: "w" }]);
  });

  it("streams rows as objects too", async () => {
    const streamed = [];
    for await (const row of db.selectFrom("t").select(["x", "y"]).orderBy("x").stream()) streamed.push(row);
    expect(streamed).toEqual([
      { x: 1, y: "one" },
      { x: 2, y: null },
    ]);
  });
});
