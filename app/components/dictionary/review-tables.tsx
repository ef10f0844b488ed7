import type { SubmissionResult } from "@conform-to/react";
import type { z } from "zod";
import { Form, useLocation } from "react-router";
import type { ReviewHeader, ReviewProblemsPage, ReviewTable, ReviewTablesPage, columnChangeSchema } from "../../../contracts/dictionary";
import { FormErrors } from "~/components/forms/fields";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { Card } from "~/components/ui/card";
import { PageSizeForm } from "~/components/ui/list-search-form";
import { Pagination, PastTheEnd } from "~/components/ui/pagination";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { TextSeparator } from "~/components/ui/text-separator";
import { COMPANY_PARAM, useCompanyHref } from "~/lib/company-href";
import { PAGING_KEYS } from "~/lib/list-search";
import { PAGE_SIZES } from "../../../contracts/values/common";
import { getFormProps, getInputProps, useServerForm } from "~/lib/forms";
import { cn } from "~/lib/utils";
import { formatColumnType, yesNo } from "./column-format";
import { formatCount, formatCountOf } from "~/components/projects/format";

type ColumnChange = z.infer<typeof columnChangeSchema>;
type ColumnState = NonNullable<ColumnChange["after"]>;

const STATUS_LABELS: Record<ReviewTable["status"], string> = { added: "New table", changed: "Changed", unchanged: "No changes" };

export type ReviewTablesProps = {
  review: ReviewHeader;
  /** A page of the review's tables (none while the file has problems). */
  tables: ReviewTablesPage;
  /** A page of its problems. */
  problems: ReviewProblemsPage;
  /** Pagination links through `?page=` and the page size's form (default); off for a page that shows one table. */
  paginate?: boolean;
};

/**
 * What applying an uploaded dictionary file would do, table by table (columns added, changed and
 * removed), or the problems found in the file with their row and column: a page of either, with
 * links to the others (`?page=&pageSize=`, kept beside the page's other parameters). Nothing is applied yet.
 * A file with problems has no tables, so one page and one page size serve the list shown.
 */
export function ReviewTables({ review, tables, problems, paginate = true }: ReviewTablesProps) {
  const location = useLocation();
  const href = (page: number) => {
    const params = new URLSearchParams(location.search);
    params.set("page", String(page));
    return `${location.pathname}?${params}`;
  };
  if (review.status === "parsing") return <StillReading review={review} />;
  const [shown, shownName] = problems.total > 0 ? [problems, "Problems"] : [tables, "Tables"];
  // A new size starts at the first page and keeps the page's other parameters (the review's id).
  const notKept = [COMPANY_PARAM, PAGING_KEYS.page, PAGING_KEYS.pageSize];
  const kept = Object.fromEntries([...new URLSearchParams(location.search)].filter(([name]) => !notKept.includes(name)));
  return (
    <div className="flex flex-col gap-6">
      <p className="text-sm text-muted-foreground">
        <span className="font-medium text-slate-900">{review.fileName}</span>:{" "}
        {`${formatCountOf(review.rowCount, "row")}, ${formatCountOf(review.tableCount, "table")}, ${formatCount(review.changingTableCount)} to change.`}
        {review.mode === "merge" ? " Uploaded with “Only add and change”: columns that are not in the file are kept." : null}
      </p>
      {paginate && shown.total > PAGE_SIZES[0] ? (
        <PageSizeForm action={location.pathname} label={`${shownName} page size`} pageSize={shown.pageSize} pageSizeId="review-page-size" keep={kept} />
      ) : null}
      {problems.total > 0 ? <RowErrors problems={problems} /> : null}
      {paginate && problems.total > problems.pageSize ? (
        <Pagination page={problems.page} pageSize={problems.pageSize} total={problems.total} noun={["problem", "problems"]} href={href} />
      ) : null}
      {tables.items.map((t) => (
        <ReviewTableCard key={t.name} table={t} />
      ))}
      {/* A page past the end (an old link, a smaller page size): said, as the other lists say it, above the way back. */}
      {paginate && shown.items.length === 0 && shown.total > 0 ? <PastTheEnd page={shown.page} /> : null}
      {paginate && tables.total > tables.pageSize ? (
        <Pagination page={tables.page} pageSize={tables.pageSize} total={tables.total} noun={["table", "tables"]} href={href} />
      ) : null}
    </div>
  );
}

/** How often the page of a file still being read asks again. */
const READING_REFRESH_SECONDS = 2;

/**
 * A big file is still being read: the rows read so far, and the page reloads itself until its review
 * is ready (a meta refresh, which works with JavaScript off; React puts it in the head).
 */
function StillReading({ review }: { review: Pick<ReviewHeader, "fileName" | "rowCount"> }) {
  return (
    <div role="status" className="rounded-md border border-border bg-white px-4 py-3 text-sm">
      <meta httpEquiv="refresh" content={String(READING_REFRESH_SECONDS)} />
      Reading <span className="font-medium">{review.fileName}</span>: {formatCountOf(review.rowCount, "row")} so far. This page
      refreshes until its review is ready.
    </div>
  );
}

/** The problems in the file, a page of them: row (the header is row 1), column and what is wrong. */
export function RowErrors({ problems }: { problems: ReviewProblemsPage }) {
  const { total, items: errors } = problems;
  return (
    <section aria-labelledby="review-errors-heading">
      <h3 id="review-errors-heading" className="text-base font-semibold text-destructive">
        {formatCountOf(total, "problem")} in the file
      </h3>
      <p className="mt-1 text-sm text-muted-foreground">Correct the file and upload it again; nothing can be applied while it has errors.</p>
      <div className="mt-3">
        <Table aria-label="Problems in the file">
          <TableHeader>
            <TableRow>
              <TableHead className="w-20">Row</TableHead>
              <TableHead className="w-40">Column</TableHead>
              <TableHead>Problem</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {errors.map((e, i) => (
              <TableRow key={`${problems.page}-${i}`}>
                <TableCell className="tabular-nums">{e.row ?? "–"}</TableCell>
                <TableCell>{e.column ?? "–"}</TableCell>
                <TableCell className="text-destructive">{e.message}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </section>
  );
}

function ReviewTableCard({ table }: { table: ReviewTable }) {
  const headingId = `review-table-${table.name}`;
  return (
    <Card aria-labelledby={headingId} size="sm">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={headingId} className="text-base font-semibold">
          {table.name}
        </h3>{" "}
        <span
          className={cn(
            "rounded-full px-2 py-0.5 text-xs font-medium",
            table.status === "added" ? "bg-emerald-100 text-emerald-800" : table.status === "changed" ? "bg-amber-100 text-amber-900" : "bg-muted text-muted-foreground",
          )}
        >
          {STATUS_LABELS[table.status]}
        </span>
        {table.unchanged > 0 ? <TextSeparator /> : null}
        {table.unchanged > 0 ? (
          <span className="text-xs text-muted-foreground">
            {table.unchanged} {table.unchanged === 1 ? "column" : "columns"} unchanged
          </span>
        ) : null}
      </div>
      <ChangeList title="Columns added" changes={table.added} render={(c) => describe(c.after)} />
      <ChangeList title="Columns changed" changes={table.changed} render={(c) => describeChange(c)} />
      <ChangeList title="Columns removed" changes={table.removed} render={(c) => describe(c.before)} />
    </Card>
  );
}

function ChangeList({ title, changes, render }: { title: string; changes: ColumnChange[]; render: (c: ColumnChange) => string }) {
  if (changes.length === 0) return null;
  return (
    <div className="mt-3">
      <h4 className="text-sm font-medium">
        {title} ({changes.length})
      </h4>
      <ul className="mt-1 space-y-0.5 text-sm">
        {changes.map((c) => (
          <li key={c.name}>
            <span className="font-medium">{c.name}</span> <span className="text-muted-foreground">{render(c)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function describe(c: ColumnState | null): string {
  if (!c) return "";
  const parts = [formatColumnType(c), c.nullable ? "nullable" : "not null"];
  if (c.isKey) parts.push("key");
  return parts.join(", ");
}

const FIELD_VALUE: Record<string, (c: ColumnState) => string> = {
  type: (c) => formatColumnType(c),
  length: (c) => String(c.length ?? "none"),
  precision: (c) => String(c.precision ?? "none"),
  scale: (c) => String(c.scale ?? "none"),
  nullable: (c) => yesNo(c.nullable),
  isKey: (c) => yesNo(c.isKey),
  description: (c) => (c.description ? `“${c.description}”` : "none"),
};
const FIELD_LABEL: Record<string, string> = { isKey: "key", nullable: "nullable" };

function describeChange(c: ColumnChange): string {
  if (!c.before || !c.after) return describe(c.after ?? c.before);
  const { before, after } = c;
  return c.fields
    .map((f) => {
      const value = FIELD_VALUE[f];
      return value ? `${FIELD_LABEL[f] ?? f}: ${value(before)} → ${value(after)}` : f;
    })
    .join("; ");
}

export type ReviewActionsProps = {
  review: Pick<ReviewHeader, "id" | "canApply" | "errorCount" | "status">;
  lastResult?: SubmissionResult<string[]> | null;
  /** Where the form posts (a path); by default the current route. Its action reads `reviewActionSchema`. */
  action?: string;
};

/**
 * "Apply" and "Discard" for a review. Apply is disabled, with the reason, while the file has errors
 * or changes nothing; a refusal (the dictionary changed meanwhile) shows at the top.
 */
export function ReviewActions({ review, lastResult, action }: ReviewActionsProps) {
  const href = useCompanyHref();
  const formAction = action ? href(action) : undefined;
  const pending = useIsPending({ formAction });
  const [form, fields] = useServerForm({ id: `review-${review.id}`, lastResult, defaultValue: { reviewId: review.id } });
  const why =
    review.canApply ? null : review.status === "parsing"
      ? "The file is still being read: its review follows here."
      : review.errorCount > 0
      ? `The file has ${formatCountOf(review.errorCount, "problem")} (listed above): correct it and upload it again, or discard this upload.`
      : "The file changes nothing in the dictionary.";
  return (
    <Form method="post" action={formAction} {...getFormProps(form)} className="flex flex-col gap-3">
      <FormErrors form={form} />
      {why ? (
        <p id={`${form.id}-why`} className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          {why}
        </p>
      ) : null}
      <input {...getInputProps(fields.reviewId!, { type: "hidden" })} />
      <div className="flex gap-2">
        <StatusButton type="submit" name="intent" value="apply" pending={pending} disabled={!review.canApply} aria-describedby={why ? `${form.id}-why` : undefined}>
          Apply
        </StatusButton>{" "}
        <StatusButton type="submit" name="intent" value="discard" variant="outline" pending={pending}>
          Discard
        </StatusButton>
      </div>
    </Form>
  );
}
