import { describe, expect, it } from "vitest";
import { dateKindOfFormat, isoOfSerial } from "./xlsx-dates.ts";

describe("dates in an .xlsx", () => {
  it.each([
    ["dd/mm/yyyy", "date"],
    ["mmm-yy", "date"],
    ["h:mm AM/PM", "time"],
    ["[h]:mm:ss", "time"],
    ["yyyy-mm-dd hh:mm", "datetime"],
    ["0.00", undefined],
    ['#,##0 "days"', undefined],
    ["[Red]0.00", undefined],
  ])("the format %j shows a %s", (code, kind) => {
    expect(dateKindOfFormat(code)).toBe(kind);
  });

  it("counts serial numbers as Excel does, its 29 February 1900 included, and in the 1904 system", () => {
    expect(isoOfSerial("1", "date", false)).toBe("1900-01-01");
    expect(isoOfSerial("59", "date", false)).toBe("1900-02-28");
    expect(isoOfSerial("60", "date", false)).toBeUndefined();
    expect(isoOfSerial("61", "date", false)).toBe("1900-03-01");
    expect(isoOfSerial("45322", "date", false)).toBe("2024-01-31");
    expect(isoOfSerial("43860", "date", true)).toBe("2024-01-31");
    expect(isoOfSerial("45322.4381944444", "datetime", false)).toBe("2024-01-31 10:31:00");
    expect(isoOfSerial("0.5", "time", false)).toBe("12:00:00");
    expect(isoOfSerial("abc", "date", false)).toBeUndefined();
  });
});
