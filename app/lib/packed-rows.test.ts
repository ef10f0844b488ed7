import { describe, expect, it } from "vitest";
import { packRows, unpackRows } from "./packed-rows";

describe("packed rows", () => {
  it("unpacks to the rows it packed, keys once", () => {
    const rows = [
      { id: "a", name: "Alpha", locked: false, reason: null },
      { id: "b", name: "Beta", locked: true, reason: "Job" },
    ];
    const packed = packRows(rows);
    expect(packed).toEqual({ keys: ["id", "name", "locked", "reason"], rows: [["a", "Alpha", false, null], ["b", "Beta", true, "Job"]] });
    expect(unpackRows(JSON.parse(JSON.stringify(packed)) as typeof packed)).toEqual(rows);
  });

  it("packs an empty list", () => {
    expect(unpackRows(packRows([]))).toEqual([]);
  });
});
