import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "react-router";
import { FormErrors } from "~/components/forms/fields";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { useCompanyHref } from "~/lib/company-href";
import { getFormProps, getInputProps, useServerForm } from "~/lib/forms";

export type DeleteTableConfirmationProps = {
  table: { id: string; name: string; columnCount: number };
  /** The dictionary's version the deletion is based on (a stale one is refused). */
  version: number;
  /** Where "Cancel" goes (a path; the company is added here). */
  cancelHref: string;
  /** Where the form posts (a path); by default the current route. Its action reads `deleteTableSchema`. */
  action?: string;
  lastResult?: SubmissionResult<string[]> | null;
};

/**
 * "Delete table X?": the confirmation of a table's deletion as its own small form, so it works
 * without JavaScript (the list's Delete link opens it, the POST deletes, the action redirects).
 */
export function DeleteTableConfirmation({ table, version, cancelHref, action, lastResult }: DeleteTableConfirmationProps) {
  const href = useCompanyHref();
  const formAction = action ? href(action) : undefined;
  const pending = useIsPending({ formAction });
  const [form, fields] = useServerForm({
    id: `delete-table-${table.id}`,
    lastResult,
    defaultValue: { intent: "delete-table", tableId: table.id, version },
  });
  const headingId = `${form.id}-heading`;
  return (
    <Card aria-labelledby={headingId} tone="destructive">
      <h2 id={headingId} className="text-base font-semibold">
        Delete table {table.name}?
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        The table and its {table.columnCount} {table.columnCount === 1 ? "column" : "columns"} are removed from the dictionary.
      </p>
      <Form method="post" action={formAction} {...getFormProps(form)} className="mt-4 flex flex-col gap-3">
        <FormErrors form={form} />
        <input {...getInputProps(fields.intent!, { type: "hidden" })} />
        <input {...getInputProps(fields.tableId!, { type: "hidden" })} />
        <input {...getInputProps(fields.version!, { type: "hidden" })} />
        <div className="flex gap-2">
          <StatusButton type="submit" variant="destructive" pending={pending}>
            Delete table
          </StatusButton>{" "}
          <Link to={href(cancelHref)} className={buttonVariants({ variant: "outline" })}>
            Cancel
          </Link>
        </div>
      </Form>
    </Card>
  );
}
