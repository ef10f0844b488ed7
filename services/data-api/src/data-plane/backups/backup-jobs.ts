/**
 * Backups, restores, undo and comparisons as jobs (issue 10), for projects and configurations alike:
 *
 * - "Back up now": a Backup job (lock reason Backup) writes an archive of both schemas in one snapshot
 *   (backup-archive.ts); it becomes the workspace's current backup.
 * - A restore (lock reason Restore) first backs up the current data (automatic, so it can be undone),
 *   then replaces the source schema in one transaction (restore-source.ts) from one of the workspace's
 *   backups, an uploaded archive or a client's SQLite export; with "Compare with the current data" it
 *   then compares what it restored with that automatic backup (RestoreAndComparison).
 * - Undo: a restore of the automatic backup an entry took before it changed the data.
 * - A comparison (lock reason DataComparison) compares a backup with the current source (compare-source.ts).
 *
 * Each writes an entry of the history (repositories/loads.ts): its type, status, tables and counts,
 * and for a comparison each table's result. Every file a job writes or takes is removed when it fails.
 */
import { deferAudit } from "../../audit-writes.ts";
import fs from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import type { Backup, TableComparisonResult } from "../../../../../contracts/backups.ts";
import type { HistoryEntry } from "../../../../../contracts/loads.ts";
import type { Job } from "../../../../../contracts/projects.ts";
import { AUTO_BACKUPS_KEPT_DEFAULT, BACKUP_FILE_EXTENSION, type BackupKind } from "../../../../../contracts/values/backups.ts";
import type { HistoryType } from "../../../../../contracts/values/loads.ts";
import type { WorkspaceKind } from "../../../../../contracts/workspaces.ts";
import type { Database } from "../../db/schema.ts";
import type { JobKind } from "../../jobs/job-kinds.ts";
import type { JobContext, JobDeps, JobStep } from "../../jobs/start-job.ts";
import { JobCancelledError, startJob } from "../../jobs/start-job.ts";
import { automaticBackupsBeyond, deleteBackups, failBackup, finishBackup, insertBackup, insertComparison } from "../../repositories/backups.ts";
import { findProjectDictionaryRef } from "../../repositories/dictionaries.ts";
import { readTables } from "../../repositories/dictionary-tables.ts";
import { workspaceDateOrder } from "../../repositories/projects.ts";
import { finishLoad, insertLoad, insertLoadTables, setLoadBackup, setLoadJob } from "../../repositories/loads.ts";
import { entriesOf, removeLeft } from "../../left-files.ts";
import { LOAD_START_STATUSES, leaveSetupAfterFirstLoad } from "../data-jobs.ts";
import type { DdlTable } from "../postgres-ddl.ts";
import type { DataPlane } from "../servers.ts";
import { failureMessage } from "../server-lost.ts";
import { PARTIAL_SUFFIX, readBackupArchive, type BackupManifest } from "./backup-archive.ts";
import { comparedFraction, compareSource } from "./compare-source.ts";
import { restoreSource, type RestoreOutcome } from "./restore-source.ts";
import { sqliteTableInputs, type SqliteExportPlan } from "./sqlite-export.ts";
import { BACKUP_WORK_PREFIX, takeBackup, type ReadFirst } from "./take-backup.ts";
import type { TableInput } from "./table-input.ts";

/** What these jobs need: the job mechanism, the data plane, the data folder (backups live there), how many automatic backups to keep. */
export type BackupDeps = JobDeps & { dataPlane: DataPlane; dataDir: string; autoBackupsKept?: number };

/** The workspace the work is on: its id, the server holding its databases, its name (backups are named after it). */
export type WorkTarget = { projectId: string; serverId: string; workspaceName: string; userId: string };

/** Where a backup's archive is: DATA_DIR/backups/{workspace}/{backup}.backup.tar. */
export function backupFilePath(dataDir: string, projectId: string, backupId: string): string {
  return path.join(dataDir, "backups", projectId, `${backupId}${BACKUP_FILE_EXTENSION}`);
}

/**
 * Removes what backups left when their process died (a killed data API mid-backup): their folders of
 * table files under tmp/ and their archives half written beside the finished ones; with `olderThan`
 * (several processes share the data folder) only those last written before then. Answers how many went.
 */
export async function removeLeftBackupWork(dataDir: string, olderThan?: Date): Promise<number> {
  const left = await entriesOf(path.join(dataDir, "tmp"), (name) => name.startsWith(BACKUP_WORK_PREFIX));
  for (const project of await entriesOf(path.join(dataDir, "backups"), () => true))
    left.push(...(await entriesOf(project, (name) => name.endsWith(PARTIAL_SUFFIX))));
  return removeLeft(left, olderThan);
}

/**
 * A backup's name: the workspace's name (letters, digits, - and _; an accented letter without its accent,
 * Zürich as Zurich rather than Z-rich) and when it was taken, to the second, in UTC.
 */
export function backupName(workspaceName: string, at: Date): string {
  const unaccented = workspaceName.normalize("NFKD").replace(/\p{M}+/gu, "");
  const slug = unaccented.replace(/[^\w-]+/g, "-").replace(/^-+|-+$/g, "") || "backup";
  const stamp = at.toISOString().slice(0, 19).replace("T", "-").replaceAll(":", "");
  return `${slug}-${stamp}${BACKUP_FILE_EXTENSION}`;
}

/** The dictionary's tables as the databases have them: what a restore creates and a comparison matches by. */
async function dictionaryTablesOf(db: Kysely<Database>, projectId: string): Promise<DdlTable[]> {
  const ref = await findProjectDictionaryRef(db, projectId);
  return ref ? await readTables(db, ref.id) : [];
}

/**
 * The source tables of a backup archive, streamed and checked as they are read; `onTotal` learns the CSV
 * bytes they hold from the manifest, the archive's first entry, before the first table comes.
 */
function archiveSourceTables(file: string, signal: AbortSignal, onTotal: (bytes: number) => void): AsyncIterable<TableInput> {
  return readBackupArchive(file, { schemas: ["source"], signal, onManifest: (manifest) => onTotal(sourceCsvBytesOf(manifest)) });
}

/** A step's progress through `bytesTotal` bytes to read: short of done until the step ends, and nothing while the total is not known. */
function progressOfBytes(ctx: JobContext, fraction: number, bytesRead: number, bytesTotal: number) {
  return ctx.progress(bytesTotal ? Math.min(0.99, fraction) : 0, bytesTotal ? { bytesRead, bytesTotal } : undefined);
}

/**
 * The current source data compared with a backup's source tables, read and checked as they are compared;
 * its progress the bytes of them read, its fraction done grows with their comparison too (comparedFraction).
 */
async function compareWithBackup(deps: BackupDeps, ctx: JobContext, target: WorkTarget, backupId: string): Promise<TableComparisonResult[]> {
  const dictionary = await dictionaryTablesOf(ctx.db, target.projectId);
  let total = 0;
  const earlier = archiveSourceTables(backupFilePath(deps.dataDir, target.projectId, backupId), ctx.signal, (bytes) => (total = bytes));
  return compareSource(deps.dataPlane, target.serverId, target.projectId, dictionary, earlier, {
    signal: ctx.signal,
    onProgress: (work) => progressOfBytes(ctx, comparedFraction(work, total), work.bytesRead, total),
  });
}

/**
 * Takes a backup within a job's step: its row (Running, then Ready), its file, the step's progress.
 * A failure removes the partial file and marks it Failed. An automatic one makes older automatic
 * ones beyond AUTO_BACKUPS_KEPT go.
 */
async function backUp(
  deps: BackupDeps,
  ctx: JobContext,
  target: WorkTarget,
  kind: BackupKind,
  readFirst?: ReadFirst,
  prune = true,
): Promise<{ id: string; name: string; manifest: BackupManifest }> {
  const now = new Date();
  const name = backupName(target.workspaceName, now);
  const id = await insertBackup(deps.db, { projectId: target.projectId, name, kind, userId: target.userId, now });
  const file = backupFilePath(deps.dataDir, target.projectId, id);
  try {
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const manifest = await takeBackup(deps.dataPlane, target.serverId, target.projectId, file, {
      signal: ctx.signal,
      tmpDir: path.join(deps.dataDir, "tmp"),
      onProgress: (done, total) => ctx.progress(total ? Math.min(0.99, done / total) : 0, { bytesRead: done, bytesTotal: total }),
      readFirst,
    });
    const { size } = await fs.promises.stat(file);
    const rowCount = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
    await finishBackup(deps.db, id, { bytes: size, tableCount: manifest.tables.length, rowCount }, new Date());
    if (kind === "Automatic" && prune) await pruneAutomaticBackups(deps, target.projectId);
    return { id, name, manifest };
  } catch (err) {
    await fs.promises.rm(file, { force: true });
    await failBackup(deps.db, id, new Date());
    throw err;
  }
}

/** Removes the automatic backups beyond the newest AUTO_BACKUPS_KEPT (and failed ones): rows and files. */
export async function pruneAutomaticBackups(deps: BackupDeps, projectId: string) {
  await removeBackups(deps, projectId, await automaticBackupsBeyond(deps.db, projectId, deps.autoBackupsKept ?? AUTO_BACKUPS_KEPT_DEFAULT));
}

/**
 * Removes the automatic backup a load took before it failed without committing: the source is as that
 * backup holds it, and the next job that changes it takes its own backup first, so it would only be one
 * more copy of the data before the failed try in Restore's list (decision 019). Never a backup a user took.
 */
export async function removeBackupOfFailedLoad(deps: BackupDeps, projectId: string, loadId: string, backupId: string) {
  const automatic = await deps.db.selectFrom("backups").select("id").where("id", "=", backupId).where("kind", "=", "Automatic").executeTakeFirst();
  if (!automatic) return;
  await deps.db.updateTable("loads").set({ backup_id: null }).where("id", "=", loadId).execute();
  await removeBackups(deps, projectId, [backupId]);
}

async function removeBackups(deps: BackupDeps, projectId: string, ids: readonly string[]) {
  await deleteBackups(deps.db, ids);
  await Promise.all(ids.map((id) => fs.promises.rm(backupFilePath(deps.dataDir, projectId, id), { force: true })));
}

/**
 * The first step of every job that changes the source data: the data as it is, backed up and recorded
 * as the entry's backup (what its Undo restores). `taken` learns the backup's id; `readFirst`, the
 * tables a load fills, read before the rest (take-backup.ts). `pruneLater`: the older automatic
 * backups beyond those kept are left for the job to remove once it knows whether this one stays (a
 * load that fails removes it: an older one must not have gone for it).
 */
export function automaticBackupStep(
  deps: BackupDeps,
  target: WorkTarget,
  loadId: string,
  options: { taken?: (backupId: string) => void; readFirst?: ReadFirst; pruneLater?: boolean } = {},
): JobStep {
  const { taken, readFirst } = options;
  return {
    name: "Back up the current data",
    run: async (ctx) => {
      const backup = await backUp(deps, ctx, target, "Automatic", readFirst, !options.pruneLater);
      await setLoadBackup(deps.db, loadId, backup.id);
      taken?.(backup.id);
    },
  };
}

/**
 * The automatic backup's share of the progress of a job that starts with one (a load, a restore, an
 * undo). It takes about a second where the steps after it are the job's work, so the bar grows with
 * that work, not with the steps done: a backup done is not half the bar.
 */
export const AUTOMATIC_BACKUP_SHARE = 0.05;

/**
 * The weights (JobStep.weight) of a job's automatic backup and of the steps after it: each step its
 * work in bytes (a load's file, a restore's backup or file), the backup AUTOMATIC_BACKUP_SHARE of the
 * whole; steps whose work is all unknown (0) weigh the same.
 */
export function stepWeightsAfterBackup(workBytes: readonly number[]): { backup: number; steps: number[] } {
  const steps = workBytes.some((bytes) => bytes > 0) ? [...workBytes] : workBytes.map(() => 1);
  const whole = steps.reduce((sum, bytes) => sum + bytes, 0);
  return { backup: (whole * AUTOMATIC_BACKUP_SHARE) / (1 - AUTOMATIC_BACKUP_SHARE), steps };
}

/** An entry's tables and counts from what a backup holds: destination tables are named "destination.<table>". */
function manifestTables(manifest: BackupManifest) {
  return manifest.tables.map((t) => ({ table: t.schema === "source" ? t.name : `${t.schema}.${t.name}`, fileName: t.entry, rows: t.rows }));
}

/** Starts a job with its history entry: the entry is removed again when the job cannot start. */
async function startWithEntry(
  deps: BackupDeps,
  entry: Parameters<typeof insertLoad>[1],
  start: (loadId: string) => Promise<Job>,
  refused?: () => Promise<void>,
): Promise<{ entryId: string; job: Job }> {
  // The request's audit entry is the job's start, not this entry (deleted again when the start is refused).
  deferAudit();
  const entryId = await insertLoad(deps.db, entry);
  let job: Job;
  try {
    job = await start(entryId);
  } catch (err) {
    await refused?.();
    await deps.db.deleteFrom("loads").where("id", "=", entryId).execute();
    throw err;
  }
  await setLoadJob(deps.db, entryId, job.id);
  return { entryId, job };
}

const workEntry = (target: WorkTarget, type: HistoryType, fileName: string, fileBytes: number, aboutLoadId?: string | null) => ({
  projectId: target.projectId,
  type,
  fileName,
  fileBytes,
  // Not a load: the form's choices do not apply; the entry's pages do not show them for these types.
  form: { table: "source", mode: "replace" as const, onRejected: "loadNothing" as const },
  tables: [],
  parameters: null,
  userId: target.userId,
  now: new Date(),
  aboutLoadId: aboutLoadId ?? null,
});

/** Ends an entry whose job failed or was stopped: nothing changed. */
function failEntry(db: Kysely<Database>, loadId: string, error: unknown) {
  // A server that went away is said as that, not in pg's words (server-lost.ts).
  const message = error instanceof JobCancelledError ? "Cancelled." : failureMessage(error);
  return finishLoad(db, loadId, { status: "Failed", rowsRead: 0, rowsLoaded: 0, rowsRejected: 0, message: `${message} Nothing was changed.` }, new Date());
}

/** "Back up now": a Manual backup of both schemas, the workspace's current backup once done. */
export async function startBackup(deps: BackupDeps, kind: WorkspaceKind, target: WorkTarget) {
  let made: string | undefined;
  return startWithEntry(deps, workEntry(target, "Backup", "Backup of the source and destination databases", 0), (loadId) =>
    startJob(deps, {
      projectId: target.projectId,
      workspace: kind,
      kind: "Backup",
      lockReason: "Backup",
      userId: target.userId,
      allowedStatuses: LOAD_START_STATUSES,
      steps: [
        {
          name: "Back up the source and destination databases",
          run: async (ctx) => {
            const backup = await backUp(deps, ctx, target, "Manual");
            made = backup.name;
            await setLoadBackup(deps.db, loadId, backup.id);
            await deps.db.updateTable("loads").set({ file_name: backup.name }).where("id", "=", loadId).execute();
            const tables = manifestTables(backup.manifest);
            await insertLoadTables(deps.db, loadId, tables);
            const rows = tables.reduce((sum, t) => sum + t.rows, 0);
            await finishLoad(ctx.db, loadId, { status: "Completed", rowsRead: rows, rowsLoaded: rows, rowsRejected: 0, message: null }, new Date());
          },
        },
      ],
      onSuccess: {
        status: "previous",
        update: async (trx) => {
          await trx.updateTable("projects").set({ current_backup_name: made! }).where("id", "=", target.projectId).execute();
        },
      },
      onFailure: (error) => failEntry(deps.db, loadId, error),
    }),
  );
}

/** What a restore restores: one of the workspace's backups (an undo's too), or an uploaded file already checked. */
export type RestoreSource =
  | { kind: "backup"; backup: Backup }
  | { kind: "archive"; file: { path: string; name: string; size: number } }
  | { kind: "sqlite"; file: { path: string; name: string; size: number }; plan: SqliteExportPlan };

/** A sentence on what a restore left out or left empty; null when it restored every table whole. */
export function restoreNotes(outcome: RestoreOutcome): string | null {
  const notes: string[] = [];
  const list = (names: readonly string[]) => (names.length > 10 ? `${names.slice(0, 10).join(", ")} and ${names.length - 10} more` : names.join(", "));
  if (outcome.emptyTables.length) notes.push(`Tables with nothing to restore, now empty: ${list(outcome.emptyTables)}.`);
  if (outcome.leftOutTables.length) notes.push(`Left out, not in the data dictionary: ${list(outcome.leftOutTables)}.`);
  if (outcome.leftOutColumns.length)
    notes.push(`Columns left out, not in the data dictionary: ${list(outcome.leftOutColumns.map((c) => `${c.table}.${c.column}`))}.`);
  if (outcome.emptyColumns.length)
    notes.push(`Columns with nothing to restore, now empty: ${list(outcome.emptyColumns.map((c) => `${c.table}.${c.column}`))}.`);
  return notes.length ? notes.join(" ") : null;
}

/**
 * A restore into the source database (lock reason Restore): first an automatic backup of the data as
 * it is (Undo), then the source replaced in one transaction; with `compare`, the restored data then
 * compared with that backup. An undo (`undoOf`) restores the backup taken before that entry.
 */
export async function startRestore(
  deps: BackupDeps,
  kind: WorkspaceKind,
  target: WorkTarget,
  input: { source: RestoreSource; compare: boolean; undoOf?: HistoryEntry; expectedVersion?: number },
) {
  const { source, compare, undoOf, expectedVersion } = input;
  // The history entry and the job are named alike (an undo's job is "Undo", not the restore it is made of).
  const type: HistoryType & JobKind = undoOf ? "Undo" : compare ? "RestoreAndComparison" : "Restore";
  const uploaded = source.kind === "backup" ? null : source.file;
  const removeUpload = () => (uploaded ? fs.promises.rm(uploaded.path, { force: true }) : Promise.resolve());
  const name = source.kind === "backup" ? source.backup.name : source.file.name;
  const bytes = source.kind === "backup" ? source.backup.bytes : source.file.size;
  let before: string | undefined;
  let restored: RestoreOutcome | undefined;
  return startWithEntry(
    deps,
    workEntry(target, type, name, bytes, undoOf?.id),
    (loadId) => {
      const finish = async (db: Kysely<Database>, outcome: RestoreOutcome) => {
        const rows = outcome.tables.reduce((sum, t) => sum + t.rows, 0);
        await finishLoad(db, loadId, { status: "Loaded", rowsRead: rows, rowsLoaded: rows, rowsRejected: 0, message: restoreNotes(outcome) }, new Date());
      };
      // The restore weighs the bytes it reads; a comparison after it as much (it reads the restored data again, beside the backup).
      const weights = stepWeightsAfterBackup(compare ? [bytes, bytes] : [bytes]);
      const steps: JobStep[] = [
        { ...automaticBackupStep(deps, target, loadId, { taken: (id) => (before = id) }), weight: weights.backup },
        {
          name: `Restore ${name} into the source database`,
          weight: weights.steps[0]!,
          run: async (ctx) => {
            const dictionary = await dictionaryTablesOf(ctx.db, target.projectId);
            // The bytes read of all there is to read: a SQLite file's size; an archive's source CSV, which its
            // manifest gives as the restore reads it (an uploaded file's or one of the workspace's backups, an undo's too).
            let total = source.kind === "sqlite" ? source.file.size : 0;
            const inputs =
              source.kind === "sqlite"
                ? sqliteTableInputs(source.file.path, source.plan, { signal: ctx.signal })
                : archiveSourceTables(
                    source.kind === "archive" ? source.file.path : backupFilePath(deps.dataDir, target.projectId, source.backup.id),
                    ctx.signal,
                    (bytes) => (total = bytes),
                  );
            const outcome = await restoreSource(deps.dataPlane, target.serverId, target.projectId, dictionary, inputs, {
              dateOrder: await workspaceDateOrder(ctx.db, target.projectId),
              signal: ctx.signal,
              onProgress: (done) => progressOfBytes(ctx, done / total, done, total),
              beforeCommit: () => ctx.stillWanted(),
            });
            // What the export had that the dictionary lacks was left out before the restore read it.
            restored =
              source.kind === "sqlite"
                ? { ...outcome, leftOutTables: source.plan.leftOutTables, leftOutColumns: [...source.plan.leftOutColumns, ...outcome.leftOutColumns] }
                : outcome;
            await insertLoadTables(
              deps.db,
              loadId,
              restored.tables.map((t) => ({ ...t, fileName: name })),
            );
            if (!compare) await finish(ctx.db, restored);
          },
        },
      ];
      if (compare)
        steps.push({
          name: "Compare with the data before the restore",
          weight: weights.steps[1]!,
          run: async (ctx) => {
            const result = await compareWithBackup(deps, ctx, target, before!);
            await insertComparison(ctx.db, loadId, result);
            await finish(ctx.db, restored!);
          },
        });
      return startJob(deps, {
        projectId: target.projectId,
        workspace: kind,
        kind: type,
        lockReason: "Restore",
        userId: target.userId,
        allowedStatuses: LOAD_START_STATUSES,
        expectedVersion,
        steps: steps.map((step, index) =>
          // The uploaded file goes once the restore has read it (the comparison reads the automatic backup).
          index === 1 ? { ...step, run: (ctx: JobContext) => step.run(ctx).finally(removeUpload) } : step,
        ),
        onSuccess: { status: "previous", update: leaveSetupAfterFirstLoad(target.projectId) },
        onFailure: async (error) => {
          await removeUpload();
          await failEntry(deps.db, loadId, error);
        },
      });
    },
    removeUpload,
  );
}

/** The CSV bytes of a backup archive's source tables: what a restore or a comparison reads, its progress. */
function sourceCsvBytesOf(manifest: BackupManifest): number {
  return manifest.tables.filter((t) => t.schema === "source").reduce((sum, t) => sum + t.csvBytes, 0);
}

/** A comparison (lock reason DataComparison) of a backup with the current source data; `about`: the history entry whose data the backup holds. */
export async function startComparison(deps: BackupDeps, kind: WorkspaceKind, target: WorkTarget, input: { backup: Backup; about?: HistoryEntry | null }) {
  const { backup } = input;
  return startWithEntry(deps, workEntry(target, "Comparison", backup.name, backup.bytes, input.about?.id), async (loadId) => {
    await setLoadBackup(deps.db, loadId, backup.id);
    return startJob(deps, {
      projectId: target.projectId,
      workspace: kind,
      kind: "Comparison",
      lockReason: "DataComparison",
      userId: target.userId,
      allowedStatuses: LOAD_START_STATUSES,
      steps: [
        {
          name: `Compare ${backup.name} with the current data`,
          run: async (ctx) => {
            const result = await compareWithBackup(deps, ctx, target, backup.id);
            await insertComparison(ctx.db, loadId, result);
            const changes = result.reduce((sum, t) => sum + t.added + t.removed + t.changed, 0);
            const reshaped = result.some((t) => t.columnChanges.length > 0);
            const rows = result.reduce((sum, t) => sum + t.currentRows, 0);
            // Rows alike in the columns both sides have are not the same data when a column came or went.
            const message =
              changes > 0
                ? null
                : reshaped
                  ? "No row differs in the columns both have, but columns were added, removed or retyped."
                  : "No difference: the data is the same.";
            await finishLoad(ctx.db, loadId, { status: "Completed", rowsRead: rows, rowsLoaded: 0, rowsRejected: 0, message }, new Date());
          },
        },
      ],
      onSuccess: { status: "previous" },
      onFailure: (error) => failEntry(deps.db, loadId, error),
    });
  });
}
