import { describe, expect, it } from "vitest";
import { identifierSchema, nameSchema, requiredString, staleSaveMessage } from "./common";

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
