import type { ReactNode } from "react";
import type { ComparisonSummary, TableComparisonResult } from "../../../contracts/backups";
import { formatCount } from "~/components/projects/format";
import { Card } from "~/components/ui/card";
import { LabelValueList } from "~/components/ui/label-value-list";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";

/** A value as stored: NULL says so, an empty string shows as such; `marked`, its whitespace shows (MarkedWhitespace). */
function Value({ value, marked = false }: { value: string | null; marked?: boolean }) {
  if (value === null) return <span className="text-muted-foreground italic">NULL</span>;
  if (value === "") return <span className="text-muted-foreground italic">(empty)</span>;
  return marked ? <MarkedWhitespace value={value} /> : <>{value}</>;
}

/** The page collapses a cell's runs of whitespace and drops them at its ends: what the user sees of a value. */
const asShown = (value: string) => value.replace(/\s+/g, " ").trim();

/**
 * Two values that differ only in whitespace the page does not show (" Ann " and "Ann", a tab for a
 * space, a trailing newline): shown as they are, the change would read "Ann | Ann".
 */
function onlyWhitespaceDiffers(earlier: string | null, current: string | null): boolean {
  return earlier !== null && current !== null && earlier !== current && asShown(earlier) === asShown(current);
}

const WHITESPACE_MARKS: Record<string, string> = { " ": "·", "\t": "→", "\n": "↵", "\r": "␍" };
const WHITESPACE_LEGEND = "Only spaces, tabs or line breaks differ: · is a space, → a tab, ↵ a line break";

/** A value with each whitespace character as a visible mark, and a screen reader told why. */
function MarkedWhitespace({ value }: { value: string }) {
  return (
    <span title={WHITESPACE_LEGEND}>
      {value
        .split(/(\s)/)
        .filter(Boolean)
        .map((part, i) =>
          /^\s$/.test(part) ? (
            <span key={i} className="text-muted-foreground">
              {WHITESPACE_MARKS[part] ?? "⍽"}
            </span>
          ) : (
            part
          ),
        )}
      <span className="sr-only"> (only spaces, tabs or line breaks differ)</span>
    </span>
  );
}

function RowsSample({ label, columns, rows }: { label: string; columns: string[]; rows: (string | null)[][] }) {
  return (
    <Table aria-label={label}>
      <TableHeader>
        <TableRow>
          {columns.map((c) => (
            <TableHead key={c}>{c}</TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row, i) => (
          <TableRow key={i}>
            {row.map((v, j) => (
              <TableCell key={j}>
                <Value value={v} />
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** A column whose definition differs between the earlier and the current data (the dictionary changed between them). */
function columnChangeText({ column, earlier, current }: TableComparisonResult["columnChanges"][number]): string {
  if (current === null) return `${column} removed${earlier ? ` (was ${earlier})` : ""}`;
  if (earlier === null) return `${column} added (${current})`;
  return `${column} ${earlier} → ${current}`;
}

/**
 * A comparison's result: its summary (tables compared and differing, rows added, removed and changed in
 * all), then a page of its tables (`tables`), each with its rows added, removed and changed, the columns
 * that changed, and a sample of each kind. `controls` (what the page shows: a filter, its size) come
 * above the tables, `pagination` below them.
 */
export function ComparisonTables({
  summary,
  tables,
  controls,
  pagination,
}: {
  summary: ComparisonSummary;
  tables: readonly TableComparisonResult[];
  controls?: ReactNode;
  pagination?: ReactNode;
}) {
  const differing = tables.filter((t) => t.added || t.removed || t.changed || t.columnChanges.length);
  return (
    <Card aria-labelledby="comparison-title">
      <h2 id="comparison-title" className="text-lg font-semibold">
        Differences
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        From the earlier data to the current data: rows matched by the table&apos;s key, or by whole row where it has none.{" "}
        {summary.differing === 0 ? "No table differs." : `${formatCount(summary.differing)} of ${formatCount(summary.tables)} tables differ.`}
      </p>
      <LabelValueList
        label="Differences in all"
        className="mt-3"
        rows={[
          ["Tables compared", formatCount(summary.tables)],
          ["Tables that differ", formatCount(summary.differing)],
          ["Rows added", formatCount(summary.added)],
          ["Rows removed", formatCount(summary.removed)],
          ["Rows changed", formatCount(summary.changed)],
        ]}
      />
      {controls}
      {tables.length ? (
        <Table aria-label="Differences per table" className="mt-4">
          <TableHeader>
            <TableRow>
              <TableHead>Table</TableHead>
              <TableHead className="text-right">Added</TableHead>
              <TableHead className="text-right">Removed</TableHead>
              <TableHead className="text-right">Changed</TableHead>
              <TableHead>Columns that changed</TableHead>
              <TableHead>Columns added, removed or retyped</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {tables.map((t) => (
              <TableRow key={t.table}>
                <TableCell>{t.table}</TableCell>
                <TableCell className="text-right tabular-nums">{formatCount(t.added)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatCount(t.removed)}</TableCell>
                <TableCell className="text-right tabular-nums">{t.key ? formatCount(t.changed) : "–"}</TableCell>
                <TableCell>{t.changedColumns.map((c) => `${c.column} (${formatCount(c.rows)})`).join(", ")}</TableCell>
                <TableCell>{t.columnChanges.map(columnChangeText).join(", ")}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
      {differing.map((t) => (
        <section key={t.table} aria-labelledby={`diff-${t.table}`} className="mt-6 flex flex-col gap-3">
          <h3 id={`diff-${t.table}`} className="text-base font-semibold">
            {t.table}
          </h3>
          <p className="text-sm text-muted-foreground">
            {formatCount(t.earlierRows)} rows before, {formatCount(t.currentRows)} now; matched{" "}
            {t.key ? `by its key (${t.key.join(", ")})` : "by whole row: it has no key"}.
          </p>
          {t.columnChanges.length ? (
            <>
              <h4 className="text-sm font-semibold">Columns added, removed or retyped</h4>
              <p className="text-sm text-muted-foreground">
                The table&apos;s columns changed between the two: values of a removed or added column are not compared, those of a retyped one are compared as
                text.
              </p>
              <ul aria-label={`Columns of ${t.table} added, removed or retyped`} className="list-disc pl-5 text-sm">
                {t.columnChanges.map((c) => (
                  <li key={c.column}>{columnChangeText(c)}</li>
                ))}
              </ul>
            </>
          ) : null}
          {t.samples.added.length ? (
            <>
              <h4 className="text-sm font-semibold">
                Added rows{t.added > t.samples.added.length ? ` (the first ${t.samples.added.length} of ${formatCount(t.added)})` : ""}
              </h4>
              <RowsSample label={`Rows added to ${t.table}`} columns={t.columns} rows={t.samples.added} />
            </>
          ) : null}
          {t.samples.removed.length ? (
            <>
              <h4 className="text-sm font-semibold">
                Removed rows{t.removed > t.samples.removed.length ? ` (the first ${t.samples.removed.length} of ${formatCount(t.removed)})` : ""}
              </h4>
              <RowsSample label={`Rows removed from ${t.table}`} columns={t.columns} rows={t.samples.removed} />
            </>
          ) : null}
          {t.samples.changed.length ? (
            <>
              <h4 className="text-sm font-semibold">
                Changed rows{t.changed > t.samples.changed.length ? ` (the first ${t.samples.changed.length} of ${formatCount(t.changed)})` : ""}
              </h4>
              <Table aria-label={`Rows changed in ${t.table}`}>
                <TableHeader>
                  <TableRow>
                    <TableHead>{t.key?.join(", ") ?? "Key"}</TableHead>
                    <TableHead>Column</TableHead>
                    <TableHead>Earlier</TableHead>
                    <TableHead>Current</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {t.samples.changed.flatMap((row, i) =>
                    row.changes.map((change, j) => {
                      const marked = onlyWhitespaceDiffers(change.earlier, change.current);
                      return (
                        <TableRow key={`${i}-${j}`}>
                          <TableCell>{j === 0 ? row.key.map((k) => k ?? "NULL").join(", ") : ""}</TableCell>
                          <TableCell>{change.column}</TableCell>
                          <TableCell>
                            <Value value={change.earlier} marked={marked} />
                          </TableCell>
                          <TableCell>
                            <Value value={change.current} marked={marked} />
                          </TableCell>
                        </TableRow>
                      );
                    }),
                  )}
                </TableBody>
              </Table>
            </>
          ) : null}
        </section>
      ))}
      {pagination}
    </Card>
  );
}
