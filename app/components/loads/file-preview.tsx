import type { PreviewFile } from "../../../contracts/loads";
import { DELIMITER_LABELS } from "../../../contracts/values/flat-files";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";

/**
 * One file of a preview: where it goes, how it was read, its columns against the table's, and its
 * first rows exactly as read (text as written: leading zeros show), each that the load would reject
 * with why, before a "Load nothing" finds it and leaves every table as it was. Shown once a file is
 * chosen and previewed: the load page loads it on demand (decision 029).
 */
export function FilePreview({ file }: { file: PreviewFile }) {
  const titleId = `preview-${file.name.replace(/\W+/g, "-")}`;
  const delimiter = file.delimiter ? (DELIMITER_LABELS[file.delimiter as keyof typeof DELIMITER_LABELS] ?? file.delimiter) : null;
  const width = Math.max(file.header?.length ?? 0, ...file.rows.map((r) => r.cells.length));
  const rejected = file.rows.filter((r) => r.rejected).length;
  const headings = Array.from({ length: width }, (_, i) => {
    const column = file.columns[i];
    const name = file.header?.[i] ?? `Column ${i + 1}`;
    return { name, into: column ? column.table : null, matched: Boolean(column?.table) };
  });
  return (
    <section aria-labelledby={titleId} className="rounded-md border p-4">
      <h4 id={titleId} className="font-medium">
        {file.name}
        {file.table ? <> into {file.table}</> : <span className="text-destructive">: no table of that name</span>}
      </h4>
      <dl className="mt-2 label-values gap-x-6 gap-y-1 text-sm">
        {file.encoding ? (
          <>
            <dt className="text-muted-foreground">Encoding read</dt>
            <dd>{file.encoding}</dd>
          </>
        ) : null}
        {delimiter ? (
          <>
            <dt className="text-muted-foreground">Delimiter read</dt>
            <dd>{delimiter}</dd>
          </>
        ) : null}
        {file.missingColumns.length ? (
          <>
            <dt className="text-muted-foreground">Table columns the file lacks</dt>
            <dd>{file.missingColumns.join(", ")} (left empty)</dd>
          </>
        ) : null}
        {file.extraColumns.length ? (
          <>
            <dt className="text-muted-foreground">File columns the table lacks</dt>
            <dd>{file.extraColumns.join(", ")}</dd>
          </>
        ) : null}
      </dl>
      {file.problem ? (
        <p role="alert" className="mt-3 rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-sm text-destructive">
          {file.problem}
        </p>
      ) : null}
      {rejected ? (
        <p className="mt-3 rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-sm text-destructive">
          {rejected === 1 ? "1 of these rows would be rejected" : `${rejected} of these rows would be rejected`}: the last column says why. Correct the file, or
          load with “Load the other rows”.
        </p>
      ) : null}
      {file.rows.length ? (
        <div className="mt-3 overflow-x-auto">
          <Table aria-label={`First rows of ${file.name}`}>
            <TableHeader>
              <TableRow>
                <TableHead>Row</TableHead>
                {headings.map((h, i) => (
                  <TableHead key={i}>
                    {h.name}{" "}
                    {file.table ? (
                      <span className={`block text-xs font-normal ${h.matched ? "text-muted-foreground" : "text-destructive"}`}>
                        {h.into ? `into ${h.into}` : "no column"}
                      </span>
                    ) : null}
                  </TableHead>
                ))}
                {rejected ? <TableHead>Would be rejected</TableHead> : null}
              </TableRow>
            </TableHeader>
            <TableBody>
              {file.rows.map((row) => (
                <TableRow key={row.line}>
                  <TableCell className="text-muted-foreground">{row.line}</TableCell>
                  {headings.map((_, i) => (
                    <TableCell key={i} className="whitespace-pre">
                      {row.cells[i] ?? ""}
                    </TableCell>
                  ))}
                  {rejected ? (
                    <TableCell className="text-destructive">
                      {row.rejected ? (row.rejected.column ? `${row.rejected.column}: ${row.rejected.reason}` : row.rejected.reason) : ""}
                    </TableCell>
                  ) : null}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      ) : null}
    </section>
  );
}
