import { parseWithZod } from "@conform-to/zod/v4";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { getInputProps, useServerForm, type FormResult } from "./forms";

const schema = z.object({ name: z.string({ error: "Required" }), columns: z.array(z.object({ name: z.string(), isKey: z.string().optional() })) });

/** The hook's answer for a form, rendered once as the server renders it. */
function formFor(options: Parameters<typeof useServerForm>[0]) {
  let answer!: ReturnType<typeof useServerForm>;
  function Probe() {
    answer = useServerForm(options);
    return null;
  }
  renderToStaticMarkup(<Probe />);
  return answer;
}

/** What the server's Conform makes of a post of `fields` with one intent button's name and value. */
function submit(fields: Record<string, string>, button: { name: string; value: string }) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  body.append(button.name, button.value);
  return parseWithZod(body, { schema }).reply() as FormResult;
}

describe("useServerForm", () => {
  it("gives Conform's ids and the last submission's values and errors", () => {
    const result = submit({ columns: "" }, { name: "x", value: "" });
    const [form, fields] = formFor({ id: "t", lastResult: result, defaultValue: { name: "kept?" } });
    expect(form.id).toBe("t");
    expect(fields.name!.errors).toEqual(["Required"]);
    expect(getInputProps(fields.name!, { type: "text" })).toMatchObject({ id: "t-name", name: "name", form: "t", "aria-invalid": true, "aria-describedby": "t-name-error" });
  });

  it("marks the fields the server requires, list items by any index, so they are announced as required", () => {
    const [, fields] = formFor({ id: "t", defaultValue: { columns: [{ name: "a" }, { name: "b" }] }, required: ["name", "columns[].name"] });
    expect(getInputProps(fields.name!, { type: "text" }).required).toBe(true);
    const [first, second] = fields.columns!.getFieldList();
    expect(getInputProps(second!.getFieldset().name!, { type: "text" }).required).toBe(true);
    expect(getInputProps(first!.getFieldset().isKey!, { type: "checkbox" }).required).toBeUndefined();
    expect(getInputProps(formFor({ id: "u" })[1].name!, { type: "text" }).required).toBeUndefined();
  });

  it("serializes defaults as form data: numbers as text, true as on", () => {
    const [, fields] = formFor({ id: "t", defaultValue: { name: 3, columns: [{ name: "a", isKey: true }] } });
    expect(fields.name!.initialValue).toBe("3");
    const [first] = fields.columns!.getFieldList();
    expect(first!.getFieldset().isKey!.initialValue).toBe("on");
    expect(first!.getFieldset().name!.id).toBe("t-columns[0].name");
  });

  it("sends list intents the server's Conform applies (the path without JavaScript)", () => {
    const [form] = formFor({ id: "t", defaultValue: { columns: [{ name: "a" }, { name: "b" }] } });
    const posted = { name: "n", "columns[0].name": "a", "columns[1].name": "b" };
    expect(submit(posted, form.reorder.getButtonProps({ name: "columns", from: 0, to: 1 })).initialValue).toMatchObject({ columns: [{ name: "b" }, { name: "a" }] });
    expect(submit(posted, form.remove.getButtonProps({ name: "columns", index: 0 })).initialValue).toMatchObject({ columns: [{ name: "b" }] });
    const inserted = submit(posted, form.insert.getButtonProps({ name: "columns", defaultValue: { name: "", isKey: true } }));
    expect(inserted.initialValue).toMatchObject({ columns: [{ name: "a" }, { name: "b" }, { isKey: "on" }] });
  });
});
