import { describe, expect, it } from "vitest";
import type { DdlColumn } from "../postgres-ddl.ts";
import { column } from "../../testing/project-fixtures.ts";
import { cellProblem, copyOptions, copyValue, joinedAsIs, writtenAsIs } from "./values.ts";

const col = (type: DdlColumn["type"], extra: Partial<DdlColumn> = {}): DdlColumn => column("C", type, extra);

describe("a cell against its column", () => {
  it.each([
    [col("int"), "42", null],
    [col("int"), " -7 ", null],
    [col("int"), "2147483648", "out of range for int"],
    [col("int"), "-2147483648", null],
    [col("int"), "1.5", "not a whole number"],
    [col("bigint"), "9223372036854775807", null],
    [col("bigint"), "9223372036854775808", "out of range for bigint"],
    [col("decimal", { precision: 5, scale: 2 }), "123.45", null],
    [col("decimal", { precision: 5, scale: 2 }), "123.450", null],
    [col("decimal", { precision: 5, scale: 2 }), "1234.5", "more than 3 digits before the decimal point"],
    [col("decimal", { precision: 5, scale: 2 }), "1.234", "more than 2 decimals"],
    [col("decimal", { precision: 5, scale: 2 }), "abc", "not a number"],
    [col("float"), "1e-3", null],
    [col("float"), "half", "not a number"],
    [col("date"), "2024-02-29", null],
    [col("date"), "2023-02-29", "not a date (yyyy-mm-dd)"],
    [col("date"), "31/01/2024", "not a date (yyyy-mm-dd)"],
    [col("time"), "23:59:59.123", null],
    [col("time"), "24:00", "not a time (hh:mm:ss)"],
    [col("datetime"), "2024-01-31T10:00:00", null],
    [col("datetime"), "2024-01-31 25:00:00", "not a date and time (yyyy-mm-dd hh:mm:ss)"],
    [col("uniqueidentifier"), "0F8FAD5B-D9CB-469F-A165-70867728950E", null],
    [col("uniqueidentifier"), "not-a-guid", "not a uniqueidentifier"],
    [col("nvarchar", { length: 3 }), "abc", null],
    [col("nvarchar", { length: 3 }), "abcd", "longer than 3 characters"],
    [col("nvarchar", { length: 3 }), "😀😀😀", null],
    [col("nvarchar", { nullable: false }), "", "a value is required"],
    [col("int", { isKey: true }), "", "a value is required"],
    [col("int"), "", null],
  ])("%o %j → %j", (column, cell, problem) => {
    expect(cellProblem(column, cell)).toBe(problem);
  });

  it("keeps text exactly as written in COPY's text format: leading zeros, formulas, tabs and backslashes", () => {
    expect(copyValue(col("nvarchar"), "007")).toBe("007");
    expect(copyValue(col("nvarchar"), "=cmd|' /C calc'!A0")).toBe("=cmd|' /C calc'!A0");
    expect(copyValue(col("nvarchar"), " a\tb\\c\nd ")).toBe(" a\\tb\\\\c\\nd ");
    expect(copyValue(col("int"), " 42 ")).toBe("42");
    // An empty cell is NULL: COPY's NULL '' (copyOptions).
    expect(copyValue(col("nvarchar"), "")).toBe("");
  });

  it("escapes the file's own delimiter, so a line of cells goes to COPY with it", () => {
    expect(copyValue(col("nvarchar"), "a,b\tc", "YMD", ",")).toBe("a\\,b\\tc");
    expect(copyValue(col("nvarchar"), "x^y|z", "YMD", "^")).toBe("x\\^y|z");
    expect(copyOptions("'")).toBe("DELIMITER '''', NULL ''");
  });

  it("joins cells as their COPY text only when none holds a backslash, a line break or the delimiter", () => {
    expect(joinedAsIs(["1", "007", "", "2024-01-31"], "\t")).toBe("1\t007\t\t2024-01-31");
    expect(joinedAsIs(["a\tb", "c"], "\t")).toBeUndefined();
    expect(joinedAsIs(["a,b", "c"], ",")).toBeUndefined();
    expect(joinedAsIs(["a\\b", "c"], "\t")).toBeUndefined();
    expect(joinedAsIs(["two\nlines", "c"], "\t")).toBeUndefined();
    // A tab is text when the delimiter is a comma.
    expect(joinedAsIs(["a\tb", "c"], ",")).toBe("a\tb,c");
  });

  it.each([
    [col("nvarchar"), " 007 ", true],
    [col("int"), "", true],
    [col("int"), "42", true],
    [col("int"), " 42", false],
    [col("date"), "2024-01-31", true],
    [col("date"), "2024/01/31", false],
    [col("datetime"), "2024-01-31 10:00", true],
    [col("datetime"), "31/01/2024 10:00", false],
  ] as const)("%o %j goes to COPY as written: %j", (column, cell, asIs) => {
    expect(writtenAsIs(column, cell)).toBe(asIs);
    if (asIs) expect(copyValue(column, cell, "DMY", ",")).toBe(cell);
  });

  it.each([
    ["DMY", col("date"), "31/01/2024", null, "2024-01-31"],
    ["DMY", col("date"), "1-2-2024", null, "2024-02-01"],
    ["DMY", col("date"), "29.02.2024", null, "2024-02-29"],
    ["DMY", col("date"), "29.02.2023", "not a date (dd/mm/yyyy)", undefined],
    ["DMY", col("date"), "01/31/2024", "not a date (dd/mm/yyyy)", undefined],
    ["DMY", col("date"), "31/01-2024", "not a date (dd/mm/yyyy)", undefined],
    // A four-digit year first is never ambiguous: ISO dates (and yyyy/mm/dd) read in every order.
    ["DMY", col("date"), "2024-01-31", null, "2024-01-31"],
    ["MDY", col("date"), "01/31/2024", null, "2024-01-31"],
    ["MDY", col("date"), "31/01/2024", "not a date (mm/dd/yyyy)", undefined],
    ["YMD", col("date"), "2024/1/31", null, "2024-01-31"],
    ["YMD", col("date"), "31/01/2024", "not a date (yyyy-mm-dd)", undefined],
    ["DMY", col("datetime"), "31/01/2024 9:05", null, "2024-01-31 9:05"],
    ["MDY", col("datetime"), "01/31/2024T10:00:00", null, "2024-01-31 10:00:00"],
    ["MDY", col("datetime"), "31/01/2024 10:00", "not a date and time (mm/dd/yyyy hh:mm:ss)", undefined],
    ["YMD", col("datetime"), "2024-01-31 10:00:00.5", null, "2024-01-31 10:00:00.5"],
  ] as const)("in %s order, %o %j → %j, written to COPY as %j", (order, column, cell, problem, copied) => {
    expect(cellProblem(column, cell, order)).toBe(problem);
    if (copied !== undefined) expect(copyValue(column, cell, order)).toBe(copied);
  });
});
