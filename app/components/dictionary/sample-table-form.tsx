import { Form } from "react-router";
import { FileField, FormErrors, TextField } from "~/components/forms/fields";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { Card } from "~/components/ui/card";
import { getFormProps, useServerForm } from "~/lib/forms";

/**
 * A mapping project's "Describe a table from a sample file" (issue 12): the file's header names the
 * columns (or they are read by position), their types are suggested from its first rows, and the
 * table's page opens to check them. Posted as multipart to the page it is on.
 */
export function SampleTableForm({ lastResult }: { lastResult: unknown }) {
  const pending = useIsPending();
  const [form, fields] = useServerForm({ id: "describe-sample", lastResult: lastResult as never });
  return (
    <Card aria-labelledby="describe-title">
      <h2 id="describe-title" className="text-lg font-semibold">
        Describe a table from a sample file
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        A file as the client sends it (.csv, .txt, .dta or .xlsx). Its columns become the table's, their types suggested from the first rows.
      </p>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="mt-4 flex max-w-xl flex-col gap-4">
        <FormErrors form={form} />
        <FileField label="Sample file" field={fields.file!} accept=".csv,.txt,.dta,.xlsx" />
        <TextField label="Name of the new table" field={fields.table!} description="Empty: the file's name." autoComplete="off" />
        <div className="flex items-center gap-2 text-sm">
          <input
            id="describe-no-header"
            type="checkbox"
            name="hasHeaderRow"
            value="false"
            defaultChecked={fields.hasHeaderRow?.initialValue === "false"}
            className="size-4"
          />
          <label htmlFor="describe-no-header">The file has no header row: name its columns by position</label>
        </div>
        <div>
          <StatusButton type="submit" variant="outline" pending={pending}>
            Describe the table
          </StatusButton>
        </div>
      </Form>
    </Card>
  );
}
