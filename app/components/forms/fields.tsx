import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata, type FormMetadata } from "~/lib/forms";
/**
 * The one field component per input kind (STYLE.md). Each owns its <label>, its error list and the
 * aria wiring, from Conform's field metadata, so pages never write error markup by hand. Everything
 * is plain HTML underneath: it works without JavaScript.
 */
import type * as React from "react";
import { Fragment } from "react";
import { cn } from "~/lib/utils";

type AnyField = FieldMetadata;

export const control =
  "w-full rounded-md border border-border bg-white px-3 py-2 text-sm shadow-xs aria-[invalid=true]:border-destructive disabled:opacity-60";

/** `focus`: the list takes focus on a refused submit without JavaScript, for a field with no control in the page to take it. */
export function ErrorList({ id, errors, focus = false }: { id?: string; errors?: string[] | null; focus?: boolean }) {
  if (!errors?.length) return null;
  return (
    <ul id={id} tabIndex={focus ? -1 : undefined} autoFocus={focus || undefined} className="mt-1 space-y-0.5 text-sm text-destructive">
      {errors.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  );
}

export function Description({ id, children }: { id: string; children?: React.ReactNode }) {
  if (!children) return null;
  return (
    <p id={id} className="mt-1 text-xs text-muted-foreground">
      {children}
    </p>
  );
}

export type BaseProps = { label: string; field: AnyField; description?: React.ReactNode; className?: string };

export function TextField({
  label,
  field,
  description,
  className,
  type = "text",
  ...rest
}: BaseProps & { type?: "text" | "number" | "email" | "search" | "date" } & Omit<React.ComponentProps<"input">, "type" | "name" | "id">) {
  return (
    <div className={className}>
      <label htmlFor={field.id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <input {...getInputProps(field, { type, ariaDescribedBy: description ? field.descriptionId : undefined })} {...rest} className={control} />
      <Description id={field.descriptionId}>{description}</Description>
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

export function TextareaField({ label, field, description, className, ...rest }: BaseProps & Omit<React.ComponentProps<"textarea">, "name" | "id">) {
  return (
    <div className={className}>
      <label htmlFor={field.id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <textarea {...getTextareaProps(field, { ariaDescribedBy: description ? field.descriptionId : undefined })} rows={3} {...rest} className={control} />
      <Description id={field.descriptionId}>{description}</Description>
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

/** A choice; a select shows options of the same `group`, next to each other, under its heading (an <optgroup>). */
export type Option = { value: string; label: string; group?: string };

/** The options in runs of the same group (one run of no group where none is given), in their order. */
function optionRuns(options: readonly Option[]): { group: string | undefined; options: Option[] }[] {
  const runs: { group: string | undefined; options: Option[] }[] = [];
  for (const option of options) {
    const last = runs.at(-1);
    if (last && last.group === option.group) last.options.push(option);
    else runs.push({ group: option.group, options: [option] });
  }
  return runs;
}

export function SelectField({
  label,
  field,
  options,
  placeholder,
  description,
  className,
  ...rest
}: BaseProps & { options: Option[]; placeholder?: string } & Omit<React.ComponentProps<"select">, "name" | "id">) {
  return (
    <div className={className}>
      <label htmlFor={field.id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <select {...getSelectProps(field, { ariaDescribedBy: description ? field.descriptionId : undefined })} {...rest} className={control}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {optionRuns(options).map((run, index) => {
          const shown = run.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ));
          return run.group === undefined ? (
            <Fragment key={`${index}-`}>{shown}</Fragment>
          ) : (
            <optgroup key={`${index}-${run.group}`} label={run.group}>
              {shown}
            </optgroup>
          );
        })}
      </select>
      <Description id={field.descriptionId}>{description}</Description>
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

/** A checkbox sends "on" when checked and nothing otherwise; schemas read it with `formBoolean`. */
export function CheckboxField({ label, field, description, className, ...rest }: BaseProps & Omit<React.ComponentProps<"input">, "type" | "name" | "id">) {
  const props = getInputProps(field, { type: "checkbox", ariaDescribedBy: description ? field.descriptionId : undefined });
  return (
    <div className={className}>
      <div className="flex items-center gap-2">
        <input {...props} {...rest} className="size-4 rounded border-border accent-brand" />{" "}
        <label htmlFor={field.id} className="text-sm">
          {label}
        </label>
      </div>
      <Description id={field.descriptionId}>{description}</Description>
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

export function FileField({ label, field, description, className, accept, multiple }: BaseProps & { accept?: string; multiple?: boolean }) {
  return (
    <div className={className}>
      <label htmlFor={field.id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <input {...getInputProps(field, { type: "file", ariaDescribedBy: description ? field.descriptionId : undefined })} accept={accept} multiple={multiple} className={cn(control, "file:mr-3 file:rounded file:border-0 file:bg-muted file:px-3 file:py-1")} />
      <Description id={field.descriptionId}>{description}</Description>
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

/**
 * Errors of the whole form (a stale save, a service refusal) at the top of the form: announced as
 * an alert, and focused when no field has an error to take focus (useServerForm; autofocus without
 * JavaScript), so a keyboard user is not left on <body>.
 */
export function FormErrors({ form }: { form: FormMetadata }) {
  if (!form.errors?.length) return null;
  return (
    <div
      id={form.errorId}
      role="alert"
      tabIndex={-1}
      autoFocus={form.messageTakesFocus || undefined}
      className="rounded-md border border-destructive/40 bg-destructive/5 px-4 py-3 text-sm text-destructive"
    >
      {form.errors.join(" ")}
    </div>
  );
}
