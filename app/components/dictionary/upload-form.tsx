import { getFormProps, type SubmissionResult } from "@conform-to/react";
import type * as React from "react";
import { Form } from "react-router";
import { BULK_COLUMNS, BULK_REQUIRED_COLUMNS, BULK_UPLOAD_EXTENSIONS } from "../../../contracts/dictionary";
import { FileField, FormErrors } from "~/components/forms/fields";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { useCompanyHref } from "~/lib/company-href";
import { useValidatedForm } from "~/lib/forms";
import { dictionaryUploadSchema, MAX_UPLOAD_MB } from "./schemas";

export type UploadFormProps = {
  lastResult?: SubmissionResult<string[]> | null;
  /** Where the form posts (a path); by default the current route. Its action reads `dictionaryUploadSchema`. */
  action?: string;
  label?: string;
  submitLabel?: string;
  /** Shown above the field, e.g. what uploading replaces. */
  children?: React.ReactNode;
};

/** The file a bulk upload reads: what it must contain. */
export function UploadHelp() {
  const optional = BULK_COLUMNS.filter((c) => !(BULK_REQUIRED_COLUMNS as readonly string[]).includes(c));
  return (
    <>
      A {BULK_UPLOAD_EXTENSIONS.join(" or ")} file of at most {MAX_UPLOAD_MB} MB with a header row and one row per column. Columns:{" "}
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
export function UploadForm({ lastResult, action, label = "Dictionary file", submitLabel = "Upload", children }: UploadFormProps) {
  const href = useCompanyHref();
  const formAction = action ? href(action) : undefined;
  const pending = useIsPending({ formAction });
  const [form, fields] = useValidatedForm(dictionaryUploadSchema, { id: "dictionary-upload", lastResult });
  return (
    <Form method="post" encType="multipart/form-data" action={formAction} {...getFormProps(form)} className="flex max-w-2xl flex-col gap-4">
      {children}
      <FormErrors form={form} />
      <FileField label={label} field={fields.file!} accept={BULK_UPLOAD_EXTENSIONS.join(",")} description={<UploadHelp />} />
      <div>
        <StatusButton type="submit" pending={pending}>
          {submitLabel}
        </StatusButton>
      </div>
    </Form>
  );
}
