import { describe, expect, it } from "vitest";
import { pageCount } from "./list-search";
import { readChoices, readContains, readPaging } from "./list-search.server";

const SORTS = ["name", "-name", "createdAt", "-createdAt"] as const;
const read = (query: string) => readPaging(new URLSearchParams(query), SORTS, "name");

describe("readPaging", () => {
  it("reads the sort, page and page size the contract accepts", () => {
    expect(read("sort=-createdAt&page=3&pageSize=50")).toEqual({ sort: "-createdAt", page: 3, pageSize: 50 });
  });
  it("falls back to the defaults for values the contract refuses", () => {
    expect(read("sort=bogus&page=-2&pageSize=7")).toEqual({ sort: "name", page: 1, pageSize: 25 });
    expect(read("page=abc&pageSize=")).toEqual({ sort: "name", page: 1, pageSize: 25 });
    expect(read("")).toEqual({ sort: "name", page: 1, pageSize: 25 });
  });
});

describe("readChoices", () => {
  const STATUSES = ["Active", "Inactive", "Archived"] as const;
  const choices = (query: string) => readChoices(new URLSearchParams(query), "status", STATUSES);
  it("keeps the allowed values only, each once, in the order the URL gives them", () => {
    expect(choices("status=Inactive&status=Active")).toEqual(["Inactive", "Active"]);
    expect(choices("status=Active&status=bogus&status=active&status=Active&status=Archived")).toEqual(["Active", "Archived"]);
    expect(choices("status=&status=Inactive&type=Active")).toEqual(["Inactive"]);
    expect(choices("")).toEqual([]);
  });
});

describe("readContains and pageCount", () => {
  it("trims and caps the search text", () => {
    expect(readContains(new URLSearchParams(`name=${encodeURIComponent("  50%_ ")}`))).toBe("50%_");
    expect(readContains(new URLSearchParams(`name=${"x".repeat(150)}`))).toHaveLength(100);
    expect(readContains(new URLSearchParams(""))).toBe("");
  });
  it("counts at least one page", () => {
    expect(pageCount(0, 25)).toBe(1);
    expect(pageCount(25, 25)).toBe(1);
    expect(pageCount(26, 25)).toBe(2);
  });
});
