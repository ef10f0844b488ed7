import { parseWithZod } from "@conform-to/zod/v4";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FormErrors, TextField } from "~/components/forms/fields";
import { CheckboxGroupField } from "~/components/forms/choice-fields";
import { focusFirstInvalid, getInputProps, useServerForm, type FormResult } from "./forms";

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

/** A refused submit's result, as the actions answer it (Conform's reply with errors). */
function refused(error: Record<string, string[]>): FormResult {
  return { status: "error", initialValue: {}, error };
}

/** A form page: the form's message, a hidden field and two text fields, rendered as the server renders it. */
function FormPage({ lastResult }: { lastResult: FormResult }) {
  const [form, fields] = useServerForm({ id: "t", lastResult });
  return (
    <form id={form.id}>
      <FormErrors form={form} />
      <input {...getInputProps(fields.version!, { type: "hidden" })} />
      <TextField label="Name" field={fields.name!} />
      <TextField label="Code" field={fields.code!} />
    </form>
  );
}

describe("focus after a refused submit", () => {
  it("without JavaScript the page marks every field with an error autofocus (the browser takes the first), never a hidden one", () => {
    const html = renderToStaticMarkup(<FormPage lastResult={refused({ code: ["Too long"], version: ["Stale"], "": ["Changed meanwhile"] })} />);
    expect(html).toMatch(/<input[^>]*id="t-code"[^>]*autofocus=""/);
    expect(html).not.toMatch(/<input[^>]*id="t-name"[^>]*autofocus/);
    expect(html).not.toMatch(/<input[^>]*type="hidden"[^>]*autofocus/);
    // A field takes focus, so the form's message does not (it is an alert, announced anyway).
    expect(html).toMatch(/<div id="t-error" role="alert" tabindex="-1" class/);
  });

  it("without JavaScript the form's message takes focus when no field has an error", () => {
    const html = renderToStaticMarkup(<FormPage lastResult={refused({ "": ["Changed meanwhile"] })} />);
    expect(html).toMatch(/<div id="t-error" role="alert" tabindex="-1" autofocus=""/);
    expect(html).not.toMatch(/<input[^>]*autofocus/);
  });

  it("without JavaScript a group of checkboxes none of which the page shows (a search that found none) has its error list take focus", () => {
    function Ticks({ options }: { options: { value: string; label: string }[] }) {
      const [, fields] = useServerForm({ id: "t", lastResult: refused({ templateIds: ["Choose at least one template"] }) });
      return <CheckboxGroupField label="Templates" field={fields.templateIds!} options={options} />;
    }
    const none = renderToStaticMarkup(<Ticks options={[]} />);
    expect(none).toMatch(/<ul id="t-templateIds-error" tabindex="-1" autofocus=""/);
    // With checkboxes shown, each is marked (the browser takes the first) and the list is not.
    const shown = renderToStaticMarkup(<Ticks options={[{ value: "a", label: "A" }]} />);
    expect(shown).toMatch(/<input[^>]*id="t-templateIds-a"[^>]*autofocus=""/);
    expect(shown).toMatch(/<ul id="t-templateIds-error" class/);
  });

  /** Just enough of a form and its document for focusFirstInvalid: controls in the page's order, elements by id. */
  function page(controls: { tagName: string; name: string; type?: string; disabled?: boolean }[], messages: string[]) {
    const focused: string[] = [];
    const element = (key: string, extra: object) => ({ ...extra, hasAttribute: () => false, tabIndex: 0, focus: () => focused.push(key) });
    const byId = new Map(messages.map((id) => [id, element(`#${id}`, { id })]));
    const form = {
      id: "t",
      elements: controls.map((c) => element(c.name, c)),
      ownerDocument: { getElementById: (id: string) => byId.get(id) ?? null },
    };
    return { form: form as unknown as HTMLFormElement, focused, byId };
  }

  it("with JavaScript focus goes to the first field with an error in the form's order, as Conform's report does", () => {
    const { form, focused } = page(
      [
        { tagName: "INPUT", name: "version", type: "hidden" },
        { tagName: "INPUT", name: "name", type: "text" },
        { tagName: "BUTTON", name: "intent" },
        { tagName: "SELECT", name: "kind" },
        { tagName: "TEXTAREA", name: "notes" },
      ],
      ["t-error"],
    );
    focusFirstInvalid(form, { notes: ["Too long"], kind: ["Choose a kind"], version: ["Stale"], intent: ["?"], "": ["Changed"] });
    expect(focused).toEqual(["kind"]);
  });

  it("with JavaScript the form's message takes focus when no field can, made focusable", () => {
    const { form, focused, byId } = page([{ tagName: "INPUT", name: "name", type: "text", disabled: true }], ["t-error", "t-columns-error"]);
    focusFirstInvalid(form, { columns: ["Add at least one column"], name: ["Taken"], "": ["Changed meanwhile"] });
    expect(focused).toEqual(["#t-error"]);
    expect(byId.get("t-error")!.tabIndex).toBe(-1);
    // No form message: a list's own error (no control carries its name).
    const other = page([], ["t-columns-error"]);
    focusFirstInvalid(other.form, { columns: ["Add at least one column"] });
    expect(other.focused).toEqual(["#t-columns-error"]);
  });
});
