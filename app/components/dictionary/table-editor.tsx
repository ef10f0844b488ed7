import type { SubmissionResult } from "@conform-to/react";
import { useEffect, useRef, useState } from "react";
import { Icon } from "~/components/ui/icon";
import { Form, Link } from "react-router";
import type { Table } from "../../../contracts/dictionary";
import { COLUMN_TYPES, isColumnType, takesLength, takesPrecision } from "../../../contracts/values/column-types";
import { CheckboxField, ErrorList, FormErrors, SelectField, TextareaField, TextField } from "~/components/forms/fields";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { Button, buttonVariants } from "~/components/ui/button";
import { useCompanyHref } from "~/lib/company-href";
import { getFormProps, getInputProps, useServerForm, type FieldMetadata, type IntentButtonProps } from "~/lib/forms";

/** A column as the form holds it: every value a string, as HTML sends it. */
export type ColumnFormValue = {
  /** An existing column's id (empty for a new one): renaming it keeps its values in the databases. */
  id: string;
  name: string;
  type: string;
  length: string;
  precision: string;
  scale: string;
  /** "true" | "false": a Yes/No select, since an unchecked box would read as the schema's default (true). */
  nullable: string;
  isKey: boolean;
  description: string;
};

export type TableEditorValue = {
  name: string;
  description: string;
  version: string;
  tableId?: string;
  columns: ColumnFormValue[];
};

const NEW_COLUMN: ColumnFormValue = { id: "", name: "", type: "", length: "", precision: "", scale: "", nullable: "true", isKey: false, description: "" };

const num = (n: number | null) => (n == null ? "" : String(n));

/** The form's starting value: an existing table (edit) or a new one with one empty column (create). */
export function tableEditorDefaults(table: Table | null, version: number): TableEditorValue {
  if (!table) return { name: "", description: "", version: String(version), columns: [NEW_COLUMN] };
  return {
    name: table.name,
    description: table.description ?? "",
    version: String(version),
    tableId: table.id,
    columns: [...table.columns]
      .sort((a, b) => a.order - b.order)
      .map((c) => ({
        id: c.id,
        name: c.name,
        type: c.type,
        length: num(c.length),
        precision: num(c.precision),
        scale: num(c.scale),
        nullable: c.nullable ? "true" : "false",
        isKey: c.isKey,
        description: c.description ?? "",
      })),
  };
}

export type TableEditorProps = {
  defaultValue: TableEditorValue;
  /** The action's `result` (validation errors, a refusal, or a list intent sent without JavaScript). */
  lastResult?: SubmissionResult<string[]> | null;
  submitLabel: string;
  /** Where "Cancel" goes (a path; the company is added here). */
  cancelHref: string;
  /** Where the form posts (a path); by default the current route. */
  action?: string;
};

const TYPE_OPTIONS = COLUMN_TYPES.map((t) => ({ value: t, label: t }));
const NULLABLE_OPTIONS = [
  { value: "true", label: "Yes" },
  { value: "false", label: "No" },
];

/**
 * A table of a data dictionary: its name, description and columns (name, type, length, precision,
 * scale, nullable, key, description). Adding, removing and moving columns are Conform list intents:
 * with JavaScript they happen in the page; without it the buttons post the form and the action
 * answers it with the list changed (`submission.reply()`), so nothing is lost either way.
 */
export function TableEditor({ defaultValue, lastResult, submitLabel, cancelHref, action }: TableEditorProps) {
  const href = useCompanyHref();
  const formAction = action ? href(action) : undefined;
  const pending = useIsPending({ formAction });
  const [form, fields] = useServerForm({ id: "table-editor", lastResult, defaultValue, required: ["name", "columns[].name", "columns[].type"] });
  const columnsField = fields.columns!;
  const columns = columnsField.getFieldList();

  return (
    <Form method="post" action={formAction} {...getFormProps(form)} className="flex flex-col gap-6">
      {/* Enter in a field submits with the form's first submit button: make that one Save, not "Move up". */}
      <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
      <FormErrors form={form} />
      {/*
        The version the form's values are based on: a column added or moved without JavaScript keeps the one
        it was sent with; after a refusal, the page's (read again after a 409: the next try is applied), never
        the stale one a refused save sent.
      */}
      <input
        type="hidden"
        name={fields.version!.name}
        value={lastResult?.status === "error" ? defaultValue.version : String(fields.version!.initialValue ?? defaultValue.version)}
      />
      {defaultValue.tableId ? <input {...getInputProps(fields.tableId!, { type: "hidden" })} /> : null}

      <div className="grid max-w-2xl gap-4">
        <TextField label="Table name" field={fields.name!} description="Letters, digits and underscores; it becomes the table's SQL name." />
        <TextareaField label="Table description" field={fields.description!} rows={2} />
      </div>

      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-base font-semibold">Columns</legend>
        <ErrorList id={columnsField.errorId} errors={columnsField.errors} />
        {columns.length === 0 ? <p className="text-sm text-muted-foreground">No columns yet. Add the first one.</p> : null}
        <ol className="flex flex-col gap-3">
          {columns.map((column, index) => (
            <li key={column.key}>
              <ColumnRow
                column={column}
                index={index}
                count={columns.length}
                moveUp={form.reorder.getButtonProps({ name: columnsField.name, from: index, to: index - 1 })}
                moveDown={form.reorder.getButtonProps({ name: columnsField.name, from: index, to: index + 1 })}
                remove={form.remove.getButtonProps({ name: columnsField.name, index })}
              />
            </li>
          ))}
        </ol>
        <div>
          <Button type="submit" variant="outline" {...form.insert.getButtonProps({ name: columnsField.name, defaultValue: NEW_COLUMN })}>
            <Icon name="plus" />
            Add column
          </Button>
        </div>
      </fieldset>

      <div className="flex gap-2 border-t border-border pt-4">
        <StatusButton type="submit" pending={pending}>
          {submitLabel}
        </StatusButton>{" "}
        <Link to={href(cancelHref)} className={buttonVariants({ variant: "outline" })}>
          Cancel
        </Link>
      </div>
    </Form>
  );
}

function ColumnRow({
  column,
  index,
  count,
  moveUp,
  moveDown,
  remove,
}: {
  column: FieldMetadata;
  index: number;
  count: number;
  moveUp: IntentButtonProps;
  moveDown: IntentButtonProps;
  remove: IntentButtonProps;
}) {
  const c = column.getFieldset<keyof ColumnFormValue>();
  const n = index + 1;
  // With JavaScript, only the sizes the chosen type takes (a field left out is not posted): the type as
  // the select holds it, read once the page runs (it may have changed before) and on each change.
  // Without JavaScript every field is there, and the action drops the sizes the type does not take
  // (parseTableEditor).
  const typeSelect = useRef<HTMLSelectElement>(null);
  const [type, setType] = useState<string | null>(null);
  useEffect(() => setType(typeSelect.current?.value ?? null), []);
  const shows = (takes: (type: string) => boolean) => type === null || !isColumnType(type) || takes(type);
  return (
    <fieldset className="rounded-md border border-border bg-white p-3" aria-describedby={column.errors?.length ? column.errorId : undefined}>
      <legend className="px-1 text-sm font-medium">Column {n}</legend>
      {/* Moves with the row (a Conform list): the column it is, whatever its name becomes. */}
      <input {...getInputProps(c.id, { type: "hidden" })} />
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4 xl:grid-cols-[2fr_1.3fr_1fr_1fr_1fr_1fr_auto]">
        <TextField label="Name" field={c.name} className="col-span-2 md:col-span-2 xl:col-span-1" />
        <SelectField
          label="Type"
          field={c.type}
          options={TYPE_OPTIONS}
          placeholder="Choose a type"
          ref={typeSelect}
          onChange={(event) => setType(event.currentTarget.value)}
        />
        {/* Optional here whatever the type: the schema says when a type needs one. */}
        {shows(takesLength) ? <TextField label="Length" type="number" field={c.length} required={false} /> : null}
        {shows(takesPrecision) ? (
          <>
            <TextField label="Precision" type="number" field={c.precision} required={false} />
            <TextField label="Scale" type="number" field={c.scale} required={false} />
          </>
        ) : null}
        <SelectField label="Nullable" field={c.nullable} options={NULLABLE_OPTIONS} />
        <CheckboxField label="Key" field={c.isKey} className="self-end pb-2" />
      </div>
      <div className="mt-3 flex flex-col gap-3 md:flex-row md:items-end">
        <TextField label="Description" field={c.description} className="flex-1" />
        <div className="flex gap-1">
          <Button type="submit" variant="ghost" size="icon" {...moveUp} disabled={index === 0} aria-label={`Move column ${n} up`}>
            <Icon name="arrow-up" />
          </Button>
          <Button type="submit" variant="ghost" size="icon" {...moveDown} disabled={index === count - 1} aria-label={`Move column ${n} down`}>
            <Icon name="arrow-down" />
          </Button>
          <Button type="submit" variant="ghost" size="icon" {...remove} aria-label={`Remove column ${n}`}>
            <Icon name="trash-2" />
          </Button>
        </div>
      </div>
      <ErrorList id={column.errorId} errors={column.errors} />
    </fieldset>
  );
}
