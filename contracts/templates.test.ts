import { describe, expect, it } from "vitest";
import { createScriptSchema, saveScriptSchema } from "./templates";

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join("."), i.message]));

describe("a script's SQL", () => {
  // A form without JavaScript sends an empty textarea as "", which Conform turns into a missing field.
  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["only spaces", "  \n "],
  ])("%s reads 'Write at least one statement', not Zod's own message", (_, sql) => {
    expect(messages(createScriptSchema.safeParse({ version: 1, name: "Customers", sql }))).toEqual({ sql: "Write at least one statement" });
    expect(messages(saveScriptSchema.safeParse({ baseVersion: 1, sql }))).toEqual({ sql: "Write at least one statement" });
  });
});
