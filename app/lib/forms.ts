import { useEffect, useState, type ComponentProps, type MouseEvent } from "react";
import type { SubmissionResult } from "@conform-to/react";

/**
 * Forms whose errors come from the server. The action parses with the form's Zod schema
 * (forms.server.ts, Conform's parseWithZod) and answers `submission.reply()`; that result arrives here
 * as `lastResult`. The page gets field metadata and control props in Conform's shape (same ids, names,
 * aria wiring and intent buttons, so the server's Conform reads what these forms send), but none of
 * Conform's client runtime, Zod or a schema: a few hundred bytes instead of 35 KiB of JavaScript, and a
 * form behaves the same with JavaScript on or off. Validation happens on submit, on the server.
 *
 * A refused submit moves focus to what was refused, as Conform's own runtime does (its `report`): the
 * first field with an error in the form's order, else the form's message (FormErrors). Without
 * JavaScript the page comes back with `autofocus` on each field with an error (the browser focuses
 * the first in the page), or on the form's message when no field has one.
 */

export type FormResult = SubmissionResult<string[]>;
type Errors = Record<string, string[] | null | undefined>;

export type FieldMetadata = {
  name: string;
  id: string;
  formId: string;
  errorId: string;
  descriptionId: string;
  /** This field's errors from the last submission; undefined when it has none. */
  errors: string[] | undefined;
  /** What the field starts with: the last submission's value, else the form's default (as form data: strings, "on"). */
  initialValue: unknown;
  /** A React key that changes when a list item must be rendered afresh (list fields' items only). */
  key: string | undefined;
  required?: boolean;
  /** The fields of an object field, by key (`K`: its keys, for typed access). */
  getFieldset<K extends string = string>(): Record<K, FieldMetadata>;
  getFieldList(): FieldMetadata[];
};

export type FormMetadata = Pick<FieldMetadata, "id" | "errorId" | "descriptionId" | "errors"> & {
  /** The form's message (FormErrors) takes focus: the submit was refused with no field to point at. */
  messageTakesFocus: boolean;
  /** Browsers do not block the submit: the server's messages are the ones users see. */
  noValidate: true;
  /** Buttons that add, remove or move an item of a list field (see `listIntent`). */
  insert: ListControl<{ name: string; defaultValue?: unknown; index?: number }>;
  remove: ListControl<{ name: string; index: number }>;
  reorder: ListControl<{ name: string; from: number; to: number }>;
};

type ListControl<P> = { getButtonProps(payload: P): IntentButtonProps };
export type IntentButtonProps = {
  name: string;
  value: string;
  form: string;
  formNoValidate: true;
  onClick?: (event: MouseEvent<HTMLButtonElement>) => void;
};

/** Conform's reserved field for intents; the action's parseWithZod applies a list intent and replies with the list changed. */
const INTENT = "__intent__";

type ListIntent =
  | { type: "insert"; payload: { name: string; defaultValue?: unknown; index?: number } }
  | { type: "remove"; payload: { name: string; index: number } }
  | { type: "reorder"; payload: { name: string; from: number; to: number } };

/** Lists changed in the page since the last submission: each list's items and their React keys. */
type Lists = Record<string, { items: unknown[]; keys: string[] }>;

export function useServerForm(options: {
  id: string;
  lastResult?: FormResult | null;
  defaultValue?: Record<string, unknown>;
  /**
   * The fields the server's schema requires, so assistive technology announces them (the browser does
   * not block the submit: the form has noValidate). List items are named with `[]` for any index:
   * `columns[].name`.
   */
  required?: readonly string[];
}) {
  const { id: formId, lastResult } = options;
  const required = new Set(options.required ?? []);
  // A new submission result starts over from its values (the page may have moved list items meanwhile).
  const [local, setLocal] = useState<{ result: unknown; lists: Lists; next: number }>({ result: lastResult, lists: {}, next: 0 });
  const current = local.result === lastResult ? local : { result: lastResult, lists: {}, next: local.next };
  if (current !== local) setLocal(current);

  const initial = (lastResult?.initialValue ?? serialize(options.defaultValue ?? {})) as Record<string, unknown>;
  const errors: Errors = lastResult?.error ?? {};

  // Each new refusal (a new result object, as Conform's onUpdate compares them): focus leaves <body>.
  useEffect(() => {
    const element = lastResult?.status === "error" ? document.getElementById(formId) : null;
    if (element instanceof HTMLFormElement) focusFirstInvalid(element, lastResult?.error ?? {});
  }, [formId, lastResult]);

  function field(name: string, key?: string): FieldMetadata {
    const id = `${formId}-${name}`;
    return {
      name,
      id,
      formId,
      errorId: `${id}-error`,
      descriptionId: `${id}-description`,
      errors: errors[name]?.length ? errors[name]! : undefined,
      initialValue: valueAt(initial, name, current.lists),
      key,
      required: required.has(name.replace(/\[\d+\]/g, "[]")) || undefined,
      getFieldset: <K extends string>() =>
        new Proxy({} as Record<K, FieldMetadata>, { get: (_, k) => (typeof k === "string" ? field(`${name}.${k}`) : undefined) }),
      getFieldList: () => {
        const list = current.lists[name];
        const items = list?.items ?? asList(valueAt(initial, name, current.lists));
        return items.map((_, i) => field(`${name}[${i}]`, list?.keys[i] ?? `${String(lastResult ? "r" : "d")}${i}`));
      },
    };
  }

  /** The intent's button: without JavaScript (or before hydration) it posts; with it, the list changes in the page. */
  function control<T extends ListIntent["type"]>(type: T): ListControl<Extract<ListIntent, { type: T }>["payload"]> {
    return {
      getButtonProps: (payload) => {
        const intent = { type, payload: type === "insert" ? { ...payload, defaultValue: serialize((payload as { defaultValue?: unknown }).defaultValue) } : payload } as ListIntent;
        return {
          name: INTENT,
          value: JSON.stringify(intent),
          form: formId,
          formNoValidate: true,
          onClick: (event) => {
            event.preventDefault();
            setLocal((s) => applyIntent(s.result === lastResult ? s : { result: lastResult, lists: {}, next: s.next }, intent, initial));
          },
        };
      },
    };
  }

  const form: FormMetadata = {
    id: formId,
    errorId: `${formId}-error`,
    descriptionId: `${formId}-description`,
    errors: errors[""]?.length ? errors[""]! : undefined,
    messageTakesFocus: Boolean(errors[""]?.length) && !Object.entries(errors).some(([name, list]) => name !== "" && list?.length),
    noValidate: true,
    insert: control("insert"),
    remove: control("remove"),
    reorder: control("reorder"),
  };
  const fields = new Proxy({} as Record<string, FieldMetadata>, {
    get: (_, k) => (typeof k === "string" ? field(k) : undefined),
  });
  return [form, fields] as const;
}

function applyIntent(state: { result: unknown; lists: Lists; next: number }, intent: ListIntent, initial: Record<string, unknown>) {
  const { name } = intent.payload;
  const existing = state.lists[name];
  const items = [...(existing?.items ?? asList(valueAt(initial, name, state.lists)))];
  const keys = existing ? [...existing.keys] : items.map((_, i) => `${state.result ? "r" : "d"}${i}`);
  let next = state.next;
  if (intent.type === "insert") {
    const at = intent.payload.index ?? items.length;
    items.splice(at, 0, intent.payload.defaultValue);
    keys.splice(at, 0, `n${next++}`);
  } else if (intent.type === "remove") {
    items.splice(intent.payload.index, 1);
    keys.splice(intent.payload.index, 1);
  } else {
    const { from, to } = intent.payload;
    if (to < 0 || to >= items.length) return state;
    items.splice(to, 0, ...items.splice(from, 1));
    keys.splice(to, 0, ...keys.splice(from, 1));
  }
  return { result: state.result, lists: { ...state.lists, [name]: { items, keys } }, next };
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The value at a Conform name (`columns[2].type`), reading lists changed in the page first. */
function valueAt(root: Record<string, unknown>, name: string, lists: Lists): unknown {
  if (name === "") return root;
  let value: unknown = root;
  let path = "";
  for (const part of name.match(/[^.[\]]+/g) ?? []) {
    path = /^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part;
    value = value == null ? undefined : (value as Record<string, unknown>)[part];
    const changed = lists[path];
    if (changed) value = changed.items;
  }
  return value;
}

/** A default value as form data holds it (Conform's rule): booleans as "on" or absent, numbers as text. */
function serialize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(serialize);
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, serialize(v)]));
  if (typeof value === "boolean") return value ? "on" : undefined;
  if (typeof value === "number" || typeof value === "bigint") return value.toString();
  return value ?? undefined;
}

/** A control a user can be sent to: Conform's isFieldElement, less those focus cannot reach. */
type Control = { name: string; type?: string; disabled?: boolean; focus(): void };
function isFocusableControl(element: Element): element is Element & Control {
  const tag = element.tagName;
  if (tag === "SELECT" || tag === "TEXTAREA") return !(element as unknown as Control).disabled;
  if (tag !== "INPUT") return false;
  const input = element as unknown as Control;
  return !input.disabled && !["hidden", "submit", "button", "reset", "image"].includes(input.type ?? "");
}

/**
 * After a refused submit: the first control of the form (in the page's order, `form=` members
 * included) whose field has an error, else the form's message, else the first error list of a field
 * with no control of its own (a list's "Add at least one column"). Messages are made focusable.
 */
export function focusFirstInvalid(form: HTMLFormElement, errors: Errors) {
  const invalid = (name: string) => Boolean(errors[name]?.length);
  for (const element of Array.from(form.elements)) {
    if (isFocusableControl(element) && element.name && invalid(element.name)) return element.focus();
  }
  const fieldNames = Object.keys(errors).filter((name) => name !== "" && invalid(name));
  const messageIds = [...(invalid("") ? [`${form.id}-error`] : []), ...fieldNames.map((name) => `${form.id}-${name}-error`)];
  const message = messageIds.map((id) => form.ownerDocument.getElementById(id)).find(Boolean);
  if (!message) return;
  if (!message.hasAttribute("tabindex")) message.tabIndex = -1;
  message.focus();
}

/* ---------- Control props, as Conform's helpers compute them ---------- */

export type AriaOptions = { ariaDescribedBy?: string };

function aria(meta: { errors?: string[]; errorId: string }, options: AriaOptions, control: boolean) {
  const invalid = meta.errors !== undefined;
  return {
    "aria-invalid": (control && invalid) || undefined,
    "aria-describedby": invalid ? `${meta.errorId} ${options.ariaDescribedBy ?? ""}`.trim() : options.ariaDescribedBy,
  };
}

export function controlProps(field: FieldMetadata, options: AriaOptions) {
  // Without JavaScript the browser focuses the first control marked so in the page (see focusFirstInvalid).
  const autoFocus = field.errors !== undefined || undefined;
  return { id: field.id, name: field.name, form: field.formId, required: field.required || undefined, autoFocus, ...aria(field, options, true) };
}

/** Every message of a refusal (the form's and its fields'), for a page that says it at the top because the form it answered is not shown. */
export function refusalMessages(result: FormResult | null | undefined): string[] {
  return Object.values(result?.error ?? {}).flatMap((messages) => messages ?? []);
}

export function getFormProps(form: FormMetadata) {
  return { id: form.id, noValidate: form.noValidate, ...aria(form, {}, false) };
}

export function getInputProps(field: FieldMetadata, options: AriaOptions & { type: string; value?: string | false }) {
  const props: Record<string, unknown> = { ...controlProps(field, options), type: options.type };
  if (options.type === "hidden") delete props.autoFocus;
  if (options.value === undefined || options.value) {
    if (options.type === "checkbox" || options.type === "radio") {
      props.value = typeof options.value === "string" ? options.value : "on";
      props.defaultChecked = Array.isArray(field.initialValue) ? field.initialValue.includes(options.value) : field.initialValue === props.value;
    } else if (typeof field.initialValue === "string") {
      props.defaultValue = field.initialValue;
    }
  }
  return props as ComponentProps<"input">;
}

export function getSelectProps(field: FieldMetadata, options: AriaOptions = {}) {
  const initial = field.initialValue;
  return { ...controlProps(field, options), defaultValue: Array.isArray(initial) ? initial.map((v) => `${v ?? ""}`) : initial?.toString() } as ComponentProps<"select">;
}

export function getTextareaProps(field: FieldMetadata, options: AriaOptions = {}) {
  return { ...controlProps(field, options), defaultValue: field.initialValue?.toString() } as ComponentProps<"textarea">;
}

/**
 * A value a form must send back to the letter (a stored value in a hidden input), written as a JSON
 * string; the action reads it with readExactValues (forms.server.ts). A browser posting a form itself
 * (without JavaScript) rewrites every line break in a field's value as CRLF (the form data set's
 * newline normalisation), so a raw "Bob\nJunior" came back "Bob\r\nJunior", another value. JSON
 * writes line breaks, the other control characters and lone surrogates as escapes nothing rewrites.
 */
export const exactValue = (value: string): string => JSON.stringify(value);
