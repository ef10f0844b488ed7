import type { Backup } from "../../../contracts/backups";
import { HISTORY_TYPE_LABELS } from "../../../contracts/values/loads";
import { formatBytes, formatCount, formatTimestamp } from "~/components/projects/format";
import { DownloadLink } from "~/components/ui/download-link";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { useCompanyHref } from "~/lib/company-href";
import { useWorkspacePaths } from "~/lib/workspace-paths";

/**
 * What a backup holds, in a phrase: "after the flat-file load of customers.csv on 2026-10-31 07:30 UTC",
 * or "before anything was loaded". When the load ended says which delivery it was: a backup is named and
 * dated when it was taken, at the next load, and a monthly delivery's files often keep their names.
 */
export function backupContents(b: Pick<Backup, "after">): string {
  if (!b.after) return "before anything was loaded";
  const when = b.after.finishedAt ? ` on ${formatTimestamp(b.after.finishedAt)}` : "";
  return `after the ${HISTORY_TYPE_LABELS[b.after.type].toLowerCase()} of ${b.after.fileName}${when}`;
}

/** A backup as a choice reads: when, which kind, what it holds. */
export function backupLabel(b: Backup): string {
  return `${formatTimestamp(b.createdAt)} · ${b.kind === "Automatic" ? "automatic" : "backed up by hand"} · the data ${backupContents(b)} (${formatCount(b.rowCount)} rows)`;
}

/** The workspace's backups with their contents, sizes and a "Download" link each. */
export function BackupsTable({ projectId, backups }: { projectId: string; backups: readonly Backup[] }) {
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  return (
    <Table aria-label="Backups">
      <TableHeader>
        <TableRow>
          <TableHead>Taken</TableHead>
          <TableHead>Kind</TableHead>
          <TableHead>Holds the data</TableHead>
          <TableHead className="text-right">Tables</TableHead>
          <TableHead className="text-right">Rows</TableHead>
          <TableHead className="text-right">Size</TableHead>
          <TableHead>
            <span className="sr-only">Download</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {backups.map((b) => (
          <TableRow key={b.id}>
            <TableCell>{formatTimestamp(b.createdAt)}</TableCell>
            <TableCell>{b.kind}</TableCell>
            <TableCell>{backupContents(b)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatCount(b.tableCount)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatCount(b.rowCount)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatBytes(b.bytes)}</TableCell>
            <TableCell>
              <DownloadLink
                to={href(paths.databases.backupDownload(projectId, b.id))}
                className="text-brand underline underline-offset-2"
                aria-label={`Download ${b.name}`}
              >
                Download
              </DownloadLink>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
