import { describe, expect, it } from "vitest";
import { lineDiff } from "./line-diff.ts";
import { checkSql, positionOf } from "./sql-check.ts";

describe("a script's SQL, checked by PostgreSQL's parser", () => {
  it("accepts what PostgreSQL parses, several statements too", async () => {
    expect(await checkSql("insert into destination.t select a from source.t;\nupdate destination.t set a = 1 where a is null;")).toBeNull();
    expect(await checkSql("do $$ begin perform 1; end $$;")).toBeNull();
  });

  it("names a syntax error's line and column", async () => {
    expect(await checkSql("select 1;\nselect * fro x")).toEqual({ line: 2, column: 10, message: 'syntax error at or near "fro"' });
    expect(await checkSql("select (1")).toMatchObject({ line: 1, message: "syntax error at end of input" });
  });

  it("counts lines and columns from 1", () => {
    expect(positionOf("ab\ncd", 0)).toEqual({ line: 1, column: 1 });
    expect(positionOf("ab\ncd", 4)).toEqual({ line: 2, column: 2 });
  });
});

describe("the line diff between two versions", () => {
  it("marks each line same, added or removed with its numbers in both texts", () => {
    const diff = lineDiff({ version: 1, sql: "select 1;\nselect 2;\nselect 3;" }, { version: 3, sql: "select 1;\nselect 20;\nselect 3;\nselect 4;" });
    expect(diff).toMatchObject({ from: 1, to: 3, added: 2, removed: 1 });
    expect(diff.lines).toEqual([
      { kind: "same", text: "select 1;", oldLine: 1, newLine: 1 },
      { kind: "removed", text: "select 2;", oldLine: 2, newLine: null },
      { kind: "added", text: "select 20;", oldLine: null, newLine: 2 },
      { kind: "same", text: "select 3;", oldLine: 3, newLine: 3 },
      { kind: "added", text: "select 4;", oldLine: null, newLine: 4 },
    ]);
  });
});
