/**
 * The TableEditor's "Add column" (a Conform list intent) posted by a browser without JavaScript: the form
 * comes back with the new column and no error, as invalid() answers every other list intent. It once
 * came back judged, the new empty column saying "Required" and "Choose a type" before anything was typed.
 */
import { describe, expect, it, vi } from "vitest";
import { createTableFrom } from "./dictionary.server";

function addColumnPost() {
  const form = new FormData();
  form.set("version", "3");
  form.set("name", "orders");
  form.set("columns[0].name", "id");
  form.set("columns[0].type", "int");
  form.set("columns[0].nullable", "false");
  const emptyColumn = { id: "", name: "", type: "", length: "", precision: "", scale: "", nullable: "true", description: "" };
  form.set("__intent__", JSON.stringify({ type: "insert", payload: { name: "columns", defaultValue: emptyColumn } }));
  return form;
}

describe("Add column without JavaScript", () => {
  it("gives the form back with the new column, no error said and nothing written", async () => {
    const dictionary = { createTable: vi.fn() };
    const answer = (await createTableFrom(addColumnPost(), dictionary as never, "/to")) as unknown as {
      data: { result: { status?: string; error?: Record<string, string[]>; initialValue?: { columns?: unknown[] } } };
      init: ResponseInit | null;
    };
    expect(answer.init?.status ?? 200).toBe(200);
    expect(answer.data.result.error).toEqual({});
    expect(answer.data.result.initialValue?.columns).toHaveLength(2);
    expect(dictionary.createTable).not.toHaveBeenCalled();
  });
});
