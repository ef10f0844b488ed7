import { describe, expect, it } from "vitest";
import { identifierSchema, nameSchema, requiredString } from "./common";

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
