import { describe, expect, it } from "vitest";
import { preflight } from "./preflight.ts";

const step = (sql: string, scriptName = "S") => ({ templateName: "T", levelName: "L", scriptId: scriptName, scriptName, scriptVersion: 1, sql });
const existing = new Set(["source.customers", "destination.customers"]);

describe("a Full run's preflight", () => {
  it("passes scripts whose tables exist, resolved as the run resolves them, and tables the run makes itself", async () => {
    expect(
      await preflight(
        [
          step("insert into destination.customers select * from source.customers;"),
          step("create table destination.extra (id int);\nwith x as (select 1) insert into extra select * from x;"),
          step("select * from customers join pg_catalog.pg_class on true;"),
        ],
        existing,
      ),
    ).toEqual([]);
  });

  it("names each table that does not exist, and each syntax error, with its script and line", async () => {
    const problems = await preflight(
      [step("select 1;\ninsert into destination.orders select * from source.orders;", "Orders"), step("selec 1", "Broken")],
      existing,
    );
    expect(problems).toEqual([
      { template: "T", level: "L", script: "Orders", line: 2, message: "Table destination.orders does not exist." },
      { template: "T", level: "L", script: "Orders", line: 2, message: "Table source.orders does not exist." },
      { template: "T", level: "L", script: "Broken", line: 1, message: 'syntax error at or near "selec"' },
    ]);
  });
});
