import { describe, expect, it } from "vitest";
import { formatCountOf } from "./format";

describe("formatCountOf", () => {
  it("says one in the singular and any other count in the plural, with thousands separated", () => {
    expect(formatCountOf(1, "row")).toBe("1 row");
    expect(formatCountOf(0, "row")).toBe("0 rows");
    expect(formatCountOf(98000, "row")).toBe("98,000 rows");
    expect(formatCountOf(1, "distinct value")).toBe("1 distinct value");
    expect(formatCountOf(2, "entry", "entries")).toBe("2 entries");
  });
});
