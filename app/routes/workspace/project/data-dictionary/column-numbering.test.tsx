/**
 * A TableEditor post whose column numbering has gaps (only `columns[3]`: forged, or a copy of another page), which
 * the editor never sends (its columns are numbered 0, 1, 2… after any removal, with JavaScript or without). It once
 * got a 400 whose errors named the missing columns 0 to 2, rows the page does not show: nothing said why.
 */
import { describe, expect, it, vi } from "vitest";
import { COLUMNS_MISSING } from "~/components/dictionary/schemas.server";
import { TableEditor, tableEditorDefaults } from "~/components/dictionary/table-editor";
import { renderPage } from "~/test/render-page";
import { createTableFrom } from "./dictionary.server";

function postWithGaps() {
  const form = new FormData();
  form.set("version", "3");
  form.set("name", "orders");
  form.set("columns[3].name", "id");
  form.set("columns[3].type", "int");
  form.set("columns[3].nullable", "false");
  form.set("columns[7].name", "total");
  form.set("columns[7].type", "date");
  form.set("columns[7].nullable", "true");
  return form;
}

type Answer = {
  data: { result: { status?: string; error?: Record<string, string[]>; initialValue?: { columns?: { name: string }[] } } };
  init: ResponseInit | null;
};

describe("A table's form whose columns are not numbered 0, 1, 2…", () => {
  it("is refused with a 400 and a message at the top, saves nothing, and comes back with its columns numbered in order", async () => {
    const dictionary = { createTable: vi.fn() };
    const answer = (await createTableFrom(postWithGaps(), dictionary as never, "/to")) as unknown as Answer;
    expect(answer.init?.status).toBe(400);
    expect(answer.data.result.error).toEqual({ "": [COLUMNS_MISSING] });
    expect(answer.data.result.initialValue?.columns?.map((c) => c.name)).toEqual(["id", "total"]);
    expect(dictionary.createTable).not.toHaveBeenCalled();

    // The page shows the message at the top and both columns, numbered 1 and 2.
    const html = renderPage(
      "/table",
      "/table",
      () => <TableEditor defaultValue={tableEditorDefaults(null, 3)} lastResult={answer.data.result as never} submitLabel="Save" cancelHref="/to" />,
      null,
    );
    expect(html).toContain(COLUMNS_MISSING);
    expect([...html.matchAll(/<legend[^>]*>(Column \d+)<\/legend>/g)].map((m) => m[1])).toEqual(["Column 1", "Column 2"]);
    expect(html).toContain('name="columns[0].name" value="id"');
    expect(html).toContain('name="columns[1].name" value="total"');
  });

  it("is saved once posted again as the page shows it", async () => {
    const dictionary = { createTable: vi.fn() };
    const answer = (await createTableFrom(postWithGaps(), dictionary as never, "/to")) as unknown as Answer;
    const again = new FormData();
    again.set("version", "3");
    again.set("name", "orders");
    answer.data.result.initialValue!.columns!.forEach((column, i) => {
      for (const [field, value] of Object.entries(column)) again.set(`columns[${i}].${field}`, value);
    });
    await createTableFrom(again, dictionary as never, "/to");
    expect(dictionary.createTable).toHaveBeenCalledWith(
      expect.objectContaining({ name: "orders", columns: [expect.objectContaining({ name: "id" }), expect.objectContaining({ name: "total" })] }),
    );
  });
});
