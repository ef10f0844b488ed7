import { describe, expect, it } from "vitest";
import { rowWidthProblem } from "./column-match.ts";

describe("why a row of the wrong width is rejected", () => {
  it("counts the row's values and the file's in words that agree with their numbers", () => {
    expect(rowWidthProblem(3, 3, "header")).toBeNull();
    expect(rowWidthProblem(1, 3, "header")).toBe("1 value where the header has 3");
    expect(rowWidthProblem(4, 3, "first row")).toBe("4 values where the first row has 3");
    expect(rowWidthProblem(2, 1, "table")).toBe("2 values where the table has 1 column");
    expect(rowWidthProblem(5, 4, "table")).toBe("5 values where the table has 4 columns");
  });
});
