import { describe, expect, it } from "vitest";
import { CLEANED_NAME_NOTE, formBoolean, identifierSchema, INVISIBLE_CHARACTERS_MESSAGE, NUL_MESSAGE, nameSchema, nameToEdit, requiredString, staleSaveMessage } from "./common";

describe("required fields", () => {
  it("say 'Required' when a form leaves them empty (missing) or blank", () => {
    for (const schema of [nameSchema, identifierSchema]) {
      expect(schema.safeParse(undefined).error?.issues[0]?.message).toBe("Required");
      expect(schema.safeParse("  ").error?.issues[0]?.message).toBe("Required");
    }
    expect(requiredString("Choose an application").safeParse(undefined).error?.issues[0]?.message).toBe("Choose an application");
  });

  it("still say what is wrong with a bad value", () => {
    expect(identifierSchema.safeParse("9lives").error?.issues[0]?.message).toMatch(/starting with a letter/);
    expect(nameSchema.safeParse(42).error?.issues[0]?.message).not.toBe("Required");
  });
});

describe("a name", () => {
  const messages = (name: string) => nameSchema.safeParse(name).error?.issues.map((issue) => issue.message);

  it("refuses line breaks, tabs, control characters and invisible (format) characters inside it, with one message", () => {
    for (const name of [
      "Line\nbreak",
      "Carriage\rreturn",
      "Tab\there",
      "Bell\u0007",
      "Delete\u007f",
      "Next\u0085line",
      "C1\u009f",
      "Zero\u200bwidth",
      "Left\u200eto-right mark",
      "Right\u200fto-left mark",
      "Bidi\u202eoverride",
      "Bidi\u2066isolate\u2069",
      "Word\u2060joiner",
      "Byte\ufefforder mark",
      "Soft\u00adhyphen",
      "Line\u2028separator",
      "Paragraph\u2029separator",
      "Tag\u{e0041}character",
    ]) {
      expect(messages(name), JSON.stringify(name)).toEqual([INVISIBLE_CHARACTERS_MESSAGE]);
    }
    expect(INVISIBLE_CHARACTERS_MESSAGE).toBe("A name cannot hold line breaks, tabs or invisible characters.");
    // A NUL keeps its own message (decision 024), not both.
    expect(messages("Nul\u0000here")).toEqual([NUL_MESSAGE]);
  });

  it("trims spaces, tabs and line breaks at its ends, as before, and keeps visible text of any script, with the joiners its words need", () => {
    expect(nameSchema.parse("\t Payroll 2026\r\n")).toBe("Payroll 2026");
    expect(nameSchema.parse("\ufeffPayroll")).toBe("Payroll");
    for (const name of ["Café Müller – 2026", "Łódź € 100%", "東京 payroll", "Ελληνικά", "עברית", "Payroll 🚀", "Non\u00a0breaking", "می\u200cخواهم", "Family 👩\u200d👧"]) {
      expect(nameSchema.parse(name)).toBe(name);
    }
  });

  it("offers a name stored before the rule cleaned to an edit form, with a note, which nameSchema then takes; a clean name as it is", () => {
    for (const [stored, offered] of [
      ["Look\talike", "Look alike"],
      ["Look\r\nalike", "Look alike"],
      ["Zero\u200bwidth \u202eplan", "Zerowidth plan"],
      ["Line\u2028separator", "Line separator"],
    ] as const) {
      expect(nameToEdit(stored), JSON.stringify(stored)).toEqual({ name: offered, note: CLEANED_NAME_NOTE });
      expect(nameSchema.parse(offered)).toBe(offered);
    }
    for (const name of ["Payroll 2026", "می\u200cخواهم", "Family 👩\u200d👧", "Non\u00a0breaking"]) expect(nameToEdit(name)).toEqual({ name, note: null });
  });

  it("leaves identifiers (SQL object names) to their own, stricter rule", () => {
    for (const name of ["Line\nbreak", "Zero\u200bwidth", "Café"]) {
      expect(identifierSchema.safeParse(name).error?.issues[0]?.message).toMatch(/^Use letters, digits and underscores/);
    }
  });
});

describe("the refusal of a stale save", () => {
  const now = new Date("2026-11-27T15:00:00Z");
  it("says someone else changed the thing, unless the user did (another tab or window), with when", () => {
    expect(staleSaveMessage("this dictionary", null, undefined, now)).toBe("This dictionary was changed by someone else. Nothing was saved.");
    expect(staleSaveMessage("the map of Gender", { byCaller: false, at: "2026-11-27T14:05:00Z" }, "Check it and save again.", now)).toBe(
      "The map of Gender was changed by someone else. Check it and save again.",
    );
    expect(staleSaveMessage("this dictionary", { byCaller: true, at: "2026-11-27T14:05:09.123Z" }, undefined, now)).toBe(
      "You changed this dictionary in another tab or window at 14:05 UTC. Nothing was saved.",
    );
    expect(staleSaveMessage("this template", { byCaller: true, at: "2026-11-26T23:59:00Z" }, undefined, now)).toBe(
      "You changed this template in another tab or window on 2026-11-26 at 23:59 UTC. Nothing was saved.",
    );
  });
});

describe("a checkbox or a query flag (formBoolean)", () => {
  it("reads what forms and query strings send, and refuses anything else in words, not Zod's", () => {
    const read = { on: true, "": false, true: true, "0": false } as const;
    for (const [sent, value] of Object.entries(read)) expect(formBoolean.parse(sent)).toBe(value);
    for (const forged of ["maybe", "yes", 2]) expect(formBoolean.safeParse(forged).error?.issues.map((i) => i.message)).toEqual(["Tick or untick this box."]);
  });
});
