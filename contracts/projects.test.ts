import { describe, expect, it } from "vitest";
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import { columnInputSchema } from "./dictionary";
import { loadFormSchema } from "./loads";
import { COLUMN_WIDTHS_MESSAGE, DEFAULT_FLAT_FILE_PARAMETERS, flatFileParametersSchema } from "./projects";

describe("flat-file parameters", () => {
  it("reads parameters saved before date order, worksheet and widths existed, with their defaults, keeping the encoding saved", () => {
    const saved = { extension: ".txt", delimiter: "Pipe", hasHeaderRow: false, textQualifier: "None", encoding: "UTF-8" };
    expect(flatFileParametersSchema.parse(saved)).toEqual({ ...saved, dateOrder: "YMD", worksheet: "", columnWidths: {} });
    // A workspace that never saved any: the encoding is detected.
    expect(flatFileParametersSchema.parse({ extension: ".csv", delimiter: "AutoDetect", hasHeaderRow: true })).toEqual(DEFAULT_FLAT_FILE_PARAMETERS);
  });

  it("takes column widths as a form sends them and as JSON does, a blank table left out; a bad list is refused at its table", () => {
    const base = { extension: ".txt", delimiter: "FixedLength" };
    expect(flatFileParametersSchema.parse({ ...base, columnWidths: { Customers: " 6, 10,10 ", Orders: "", Notes: [3, 4] } }).columnWidths).toEqual({
      Customers: [6, 10, 10],
      Notes: [3, 4],
    });
    for (const widths of ["6,,10", "6, ten", "0", "6.5", "10001"]) {
      const result = flatFileParametersSchema.safeParse({ ...base, columnWidths: { Customers: widths } });
      expect(result.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["columnWidths.Customers", COLUMN_WIDTHS_MESSAGE]]);
    }
  });

  it("refuses a choice none of its lists offers in words, each at its field, never the schema's", () => {
    const result = flatFileParametersSchema.safeParse({ extension: ".exe", delimiter: "Space", textQualifier: "Backtick", encoding: "Auto", dateOrder: "YDM" });
    expect(z.flattenError(result.error!).fieldErrors).toEqual({
      extension: ["Choose a file extension"],
      delimiter: ["Choose a delimiter"],
      textQualifier: ["Choose a text qualifier"],
      encoding: ["Choose an encoding"],
      dateOrder: ["Choose a date order"],
    });
  });

  it("refuses a choice a form posts empty (no option of its select) at its field, never reading it as the first option; absent, its default", () => {
    const posted = (fields: Record<string, string>) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.set(name, value);
      return form;
    };
    const empty = parseWithZod(posted({ extension: ".csv", delimiter: "Comma", textQualifier: "", encoding: "", dateOrder: "" }), {
      schema: flatFileParametersSchema,
    });
    expect(empty.status === "error" && empty.error).toEqual({
      textQualifier: ["Choose a text qualifier"],
      encoding: ["Choose an encoding"],
      dateOrder: ["Choose a date order"],
    });
    const load = parseWithZod(posted({ table: "Customers", mode: "", onRejected: "" }), { schema: loadFormSchema });
    expect(load.status === "error" && load.error).toEqual({ mode: ["Choose how to load"], onRejected: ["Choose what happens to rejected rows"] });
    // Not sent at all (a body from before the field existed): the default, as before.
    const absent = parseWithZod(posted({ extension: ".csv", delimiter: "Comma" }), { schema: flatFileParametersSchema });
    expect(absent.status === "success" && absent.value).toMatchObject({ textQualifier: "DoubleQuote", encoding: "AutoDetect", dateOrder: "YMD" });
    expect(loadFormSchema.parse({ table: "Customers" })).toEqual({ table: "Customers", mode: "replace", onRejected: "loadNothing" });
  });

  it("keeps Excel with .xlsx and only with it", () => {
    expect(flatFileParametersSchema.safeParse({ extension: ".xlsx", delimiter: "Comma" }).success).toBe(false);
    expect(flatFileParametersSchema.safeParse({ extension: ".csv", delimiter: "Excel" }).success).toBe(false);
    expect(flatFileParametersSchema.parse({ extension: ".xlsx", delimiter: "Excel", worksheet: " Data " }).worksheet).toBe("Data");
  });
});

describe("a rule across fields", () => {
  it("is said beside another field's refusal, not only once that one is mended", () => {
    const result = columnInputSchema.safeParse({ name: "", type: "nvarchar" });
    expect(result.success).toBe(false);
    expect(z.flattenError(result.error!).fieldErrors).toMatchObject({ name: expect.any(Array), length: ["nvarchar needs a length"] });
  });

  it("is not checked on a field that is refused itself: that field's message alone", () => {
    const result = columnInputSchema.safeParse({ name: "Id", type: "nvarchar", length: "x" });
    expect(z.flattenError(result.error!).fieldErrors.length).toHaveLength(1);
  });
});
