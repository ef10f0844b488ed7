import type { SubmissionResult } from "@conform-to/react";
import type * as React from "react";
import { Form } from "react-router";
import { BULK_COLUMNS, BULK_REQUIRED_COLUMNS, BULK_UPLOAD_EXTENSIONS, BULK_UPLOAD_MAX_MB } from "../../../contracts/values/dictionary";
import { ErrorList, FileField, FormErrors } from "~/components/forms/fields";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { useCompanyHref } from "~/lib/company-href";
import { getFormProps, getInputProps, type FieldMetadata, useServerForm } from "~/lib/forms";

export type UploadFormProps = {
  lastResult?: SubmissionResult<string[]> | null;
  /** Where the form posts (a path); by default the current route. Its action reads `dictionaryUploadSchema`. */
  action?: string;
  label?: string;
  submitLabel?: string;
  /** Shown above the field, e.g. what uploading replaces. */
  children?: React.ReactNode;
  /**
   * For a dictionary that has tables already, what happens to their columns that the file leaves out:
   * "explain" says it (they are removed); "choose" says it and offers "Only add and change", which the
   * action must pass on to the data API (`submission.value.mode`). Without it, neither is shown.
   */
  columnsNotInFile?: "explain" | "choose";
};

/** Said before a bulk update of a dictionary that has tables. */
export const REPLACE_EXPLANATION =
  "Each table in the file is its full definition: columns of that table that are not in the file will be removed. Tables not in the file stay as they are.";

/** The file a bulk upload reads: what it must contain. */
export function UploadHelp() {
  const optional = BULK_COLUMNS.filter((c) => !(BULK_REQUIRED_COLUMNS as readonly string[]).includes(c));
  return (
    <>
      A {BULK_UPLOAD_EXTENSIONS.join(" or ")} file of at most {BULK_UPLOAD_MAX_MB} MB with a header row and one row per column. Columns:{" "}
      {BULK_REQUIRED_COLUMNS.map((c, i) => (
        <span key={c}>
          {i > 0 ? ", " : null}
          <code>{c}</code>
        </span>
      ))}{" "}
      (required) and{" "}
      {optional.map((c, i) => (
        <span key={c}>
          {i > 0 ? ", " : null}
          <code>{c}</code>
        </span>
      ))}
      . Nothing changes until you review and apply the upload.
    </>
  );
}

/**
 * Upload a dictionary file (CSV or XLSX) for review: a multipart form that works without JavaScript.
 * The action forwards the file to the data API and redirects to the review.
 */
export function UploadForm({ lastResult, action, label = "Dictionary file", submitLabel = "Upload", children, columnsNotInFile }: UploadFormProps) {
  const href = useCompanyHref();
  const formAction = action ? href(action) : undefined;
  const pending = useIsPending({ formAction });
  const [form, fields] = useServerForm({ id: "dictionary-upload", lastResult, defaultValue: { mode: "replace" }, required: ["file"] });
  return (
    <Form method="post" encType="multipart/form-data" action={formAction} {...getFormProps(form)} className="flex max-w-2xl flex-col gap-4">
      {children}
      <FormErrors form={form} />
      {columnsNotInFile === "choose" ? (
        <UploadModeChoice field={fields.mode!} />
      ) : columnsNotInFile === "explain" ? (
        <p className="text-sm">{REPLACE_EXPLANATION}</p>
      ) : null}
      <FileField label={label} field={fields.file!} accept={BULK_UPLOAD_EXTENSIONS.join(",")} description={<UploadHelp />} />
      <div>
        <StatusButton type="submit" pending={pending}>
          {submitLabel}
        </StatusButton>
      </div>
    </Form>
  );
}

const MODE_OPTIONS = [
  { value: "replace", label: "Replace the tables in the file", description: "Their columns that are not in the file are removed." },
  { value: "merge", label: "Only add and change", description: "No column is removed; the file's new columns go after the existing ones." },
] as const;

/** The plain statement of what an upload replaces, and the choice to only add and change (`mode`). */
function UploadModeChoice({ field }: { field: FieldMetadata }) {
  const explanationId = `${field.id}-explanation`;
  return (
    <fieldset aria-describedby={explanationId} className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium">Columns that are not in the file</legend>
      <p id={explanationId} className="text-sm">
        {REPLACE_EXPLANATION}
      </p>
      {MODE_OPTIONS.map((option) => {
        const id = `${field.id}-${option.value}`;
        return (
          <div key={option.value} className="flex items-start gap-2">
            <input
              {...getInputProps(field, { type: "radio", value: option.value })}
              id={id}
              aria-describedby={field.errors?.length ? `${id}-description ${field.errorId}` : `${id}-description`}
              className="mt-0.5 size-4 accent-brand"
            />
            <div className="text-sm">
              <label htmlFor={id} className="font-medium">
                {option.label}
              </label>
              <p id={`${id}-description`} className="text-muted-foreground">
                {option.description}
              </p>
            </div>
          </div>
        );
      })}
      <ErrorList id={field.errorId} errors={field.errors} />
    </fieldset>
  );
}
