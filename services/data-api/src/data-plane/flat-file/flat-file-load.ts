/**
 * A flat-file load as a job (lock reason FlatFileCreation, run type FlatFile): the uploaded file,
 * already on disk, goes into one table of the workspace's source database (load-worker.ts), and the
 * load's history entry records what happened, with every rejected row. A migration project's first
 * load moves it from "Setup: load source data" to "Setup: assign templates".
 */
import { deferAudit, noteAudit } from "../../audit-writes.ts";
import fs from "node:fs";
import type { Job, FlatFileParameters } from "../../../../../contracts/projects.ts";
import type { LoadForm } from "../../../../../contracts/loads.ts";
import { LOAD_MODE_LABELS } from "../../../../../contracts/values/loads.ts";
import type { Table } from "../../../../../contracts/dictionary.ts";
import type { WorkspaceKind } from "../../../../../contracts/workspaces.ts";
import { JobCancelledError, JobInputRefusedError, startJob, type JobContext } from "../../jobs/start-job.ts";
import { deleteRejections, finishLoad, finishLoadTable, insertLoad, insertRejections, setLoadHeader, setLoadJob } from "../../repositories/loads.ts";
import { runnerUrl } from "../project-databases.ts";
import { automaticBackupStep, pruneAutomaticBackups, removeBackupOfFailedLoad, stepWeightsAfterBackup, type BackupDeps } from "../backups/backup-jobs.ts";
import { LOAD_START_STATUSES, leaveSetupAfterFirstLoad } from "../data-jobs.ts";
import { failureMessage } from "../server-lost.ts";
import { loadInWorker } from "./load-in-worker.ts";
import type { LoadResult } from "./load-messages.ts";

export type FlatFileLoadInput = {
  projectId: string;
  /** The workspace's name: its automatic backup is named after it. */
  workspaceName: string;
  serverId: string;
  userId: string;
  /**
   * Each file and the table it goes into, loaded in this order in one transaction: one step each.
   * `arriving`: the file is still being uploaded (arriving-file.ts), read as it comes; its `size` is
   * what the upload declared until the route sets the size it had.
   */
  files: { file: { path: string; name: string; size: number }; table: Table; arriving?: SharedArrayBuffer }[];
  /** Removes the files once the load is over (by default the files themselves; a staged upload's folder for one previewed). */
  discard?: () => Promise<void>;
  /** When the load could not start (locked meanwhile): by default the files are removed too. */
  refused?: () => Promise<void>;
  form: Pick<LoadForm, "mode" | "onRejected">;
  parameters: FlatFileParameters;
  /** Files of the upload left out, each named after no table of the dictionary: the entry says so from its start. */
  skipped?: readonly string[];
};

/** What the entry says of the files it left out: "Skipped Unknown.csv: the dictionary has no table 'Unknown'." */
export function skippedFilesMessage(skipped: readonly string[]): string | null {
  if (skipped.length === 0) return null;
  const each = skipped.map((name) => `${name} (no table '${name.replace(/\.[^.]*$/, "")}')`);
  return `Skipped, named after no table of the dictionary: ${each.join(", ")}.`;
}

/** A load's name in the history: its file and table, or how many when it has several. */
function loadNames(files: FlatFileLoadInput["files"]): { fileName: string; tableName: string } {
  if (files.length === 1) return { fileName: files[0]!.file.name, tableName: files[0]!.table.name };
  return { fileName: `${files.length} files`, tableName: `${files.length} tables` };
}

/**
 * Starts the load (202 at the route); the files are the job's from here and removed when it ends.
 * Throws JobRefusedError when locked. One worker reads every file in one transaction; the job has a
 * step per file, each ending when its file is in its table, the last when the transaction has ended.
 */
export async function startFlatFileLoad(deps: BackupDeps, kind: WorkspaceKind, input: FlatFileLoadInput): Promise<{ loadId: string; job: Job }> {
  const { db, dataPlane } = deps;
  const { files } = input;
  const names = loadNames(files);
  const skipped = skippedFilesMessage(input.skipped ?? []);
  /** The outcome's message, then what the entry said of the skipped files. */
  const withSkipped = (message: string | null) => {
    if (!skipped) return message;
    return message ? `${message}${/[.!?]$/.test(message) ? "" : "."} ${skipped}` : skipped;
  };
  // The request's audit entry is the job's start, not this entry (deleted again when the start is refused);
  // its multipart form is no JSON body the entry could read: it says what is loaded, where and how.
  deferAudit();
  noteAudit({ file: names.fileName, table: names.tableName, mode: LOAD_MODE_LABELS[input.form.mode] });
  const loadId = await insertLoad(db, {
    projectId: input.projectId,
    fileName: names.fileName,
    fileBytes: files.reduce((sum, f) => sum + f.file.size, 0),
    form: { ...input.form, table: names.tableName },
    tables: files.map((f) => ({ table: f.table.name, fileName: f.file.name })),
    parameters: input.parameters,
    userId: input.userId,
    now: new Date(),
    message: skipped,
  });
  // …and which entry of the history it is: the audit log links it to the load's page (its rows, its rejections).
  noteAudit({ loadId });
  // Asynchronous: unlinking files of gigabytes takes the file system a while, never the event loop's.
  const removeFiles = input.discard ?? (() => Promise.all(files.map((f) => fs.promises.rm(f.file.path, { force: true }))).then(() => undefined));
  const tableOf = (file: number) => files[file]!.table.name;
  // Started by the first step, followed by every step: each waits for its file to be read, or for the end.
  let loading: Promise<LoadResult> | undefined;
  const fileRead = files.map(() => {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    return { promise, resolve };
  });
  /** The file whose step runs: progress of another (the next file, read while the job records a step) waits. */
  let stepFile = 0;
  /** The load step running: the worker's progress, and its last check before it commits, are its. */
  let loadStep: JobContext | undefined;
  /** Rows the load put in its tables: a load of none (an Append of a file without rows) is no first load of the setup. */
  let rowsLoaded = 0;
  // The worker starts with the job: its thread and its connection come up while the backup runs (a
  // quarter of a second on a busy machine). It begins as soon as the backup has read the tables it
  // fills (take-backup.ts readFirst), and empties and fills them while the rest is backed up.
  let begin!: () => void;
  const begun = new Promise<void>((resolve) => (begin = resolve));
  // It commits only once the backup is done, in the file's step: the entry's Undo needs that backup.
  let backedUp!: () => void;
  const afterBackup = new Promise<void>((resolve) => (backedUp = resolve));
  const over = new AbortController();
  // The automatic backup taken, and whether the worker was let commit: until then a failure changed nothing.
  let backupId: string | undefined;
  let mayHaveCommitted = false;
  // What the worker read of each file, and the rejected rows it reported: a load stopped before its answer records them.
  const rowsRead = new Float64Array(new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT * files.length));
  const rowsRejected = files.map(() => 0);
  const startLoading = (ctx: JobContext) => {
    if (loading) return loading;
    loading = loadInWorker(
      {
        files: files.map((f) => ({ filePath: f.file.path, fileName: f.file.name, table: f.table, arriving: f.arriving })),
        parameters: input.parameters,
        mode: input.form.mode,
        onRejected: input.form.onRejected,
        connectionUrl: runnerUrl(dataPlane, input.serverId, input.projectId),
        rowsRead: rowsRead.buffer,
      },
      {
        ready: () => begun,
        onHeader: (file, cells) => setLoadHeader(ctx.db, loadId, tableOf(file), cells),
        onRejected: async (file, rows) => {
          await insertRejections(ctx.db, loadId, tableOf(file), rows);
          rowsRejected[file]! += rows.length;
        },
        onReset: async (file) => {
          await deleteRejections(ctx.db, loadId, tableOf(file));
          rowsRejected[file] = 0;
        },
        onProgress: async (file, bytes, rows) => {
          // Read while the backup still runs: its step shows the backup's progress.
          if (!loadStep || file !== stepFile) return;
          const size = files[file]!.file.size;
          await loadStep.progress(size ? Math.min(0.99, bytes / size) : 0, { bytesRead: bytes, bytesTotal: size, rowsRead: rows });
        },
        onFileRead: (file) => fileRead[file]!.resolve(),
        beforeCommit: async () => {
          await afterBackup;
          await loadStep!.stillWanted();
          mayHaveCommitted = true;
        },
      },
      AbortSignal.any([ctx.signal, over.signal]),
    );
    // Stopped before its step (a cancel, a failed backup): no step waits for it.
    loading.catch(() => undefined);
    return loading;
  };
  const backup = automaticBackupStep(deps, { ...input, userId: input.userId }, loadId, {
    readFirst: { tables: files.map((f) => ({ schema: "source" as const, name: f.table.name })), read: () => begin() },
    taken: (id) => (backupId = id),
    pruneLater: true,
  });
  // Each file weighs its size: the bar grows with the bytes read.
  const weights = stepWeightsAfterBackup(files.map((f) => f.file.size));
  let job: Job;
  try {
    job = await startJob(deps, {
      projectId: input.projectId,
      workspace: kind,
      kind: "FlatFile",
      lockReason: "FlatFileCreation",
      userId: input.userId,
      allowedStatuses: LOAD_START_STATUSES,
      // First the data as it is, backed up: the entry's Undo restores it.
      steps: [
        {
          ...backup,
          weight: weights.backup,
          run: async (ctx: JobContext) => {
            startLoading(ctx);
            await backup.run(ctx);
          },
        },
      ].concat(
        files.map((step, index) => ({
          name: `Load ${step.file.name} into ${step.table.name}`,
          weight: weights.steps[index]!,
          run: async (ctx) => {
            loadStep = ctx;
            stepFile = index;
            begin();
            backedUp();
            const loading = startLoading(ctx);
            // This file read (the next step then reads the next), or the load over: failed at this file, or the last one done.
            const ended = await Promise.race([fileRead[index]!.promise.then(() => null), loading]);
            if (ended === null && index < files.length - 1) return;
            const result = await loading;
            for (const [file, counts] of result.files.entries()) await finishLoadTable(ctx.db, loadId, tableOf(file), counts);
            const total = (key: keyof (typeof result.files)[number]) => result.files.reduce((sum, c) => sum + c[key], 0);
            rowsLoaded = total("rowsLoaded");
            await finishLoad(
              ctx.db,
              loadId,
              {
                status: result.status,
                message: withSkipped(result.message),
                rowsRead: total("rowsRead"),
                rowsLoaded: total("rowsLoaded"),
                rowsRejected: total("rowsRejected"),
              },
              new Date(),
            );
            await removeFiles();
            // A refused or unreadable file ends the job as failed, with the reason on the background-process page.
            if (result.status !== "Loaded") throw new JobInputRefusedError(result.message ?? "Nothing was loaded.");
            // Its backup stays: older automatic ones beyond those kept go now. The load has committed: a
            // pruning that fails is logged and left for the next load, never the load's failure (onFailure
            // would say "Nothing was loaded" of rows that were).
            await pruneAutomaticBackups(deps, input.projectId).catch((err: unknown) =>
              ctx.logger.warn("older automatic backups not removed: the next load tries again", { err, projectId: input.projectId }),
            );
          },
        })),
      ),
      onSuccess: {
        status: "previous",
        // The wizard's load step is done once the source holds data, not when a file added nothing to it.
        update: async (trx) => {
          if (rowsLoaded > 0) await leaveSetupAfterFirstLoad(input.projectId)(trx);
        },
      },
      onFailure: async (error, ctx) => {
        // A worker waiting for its turn, or loading while the backup failed, stops: nothing is kept.
        over.abort(error);
        await removeFiles();
        // Its transaction never committed: the data is as its backup holds it, and stays so until the next change takes one.
        if (backupId && !mayHaveCommitted) await removeBackupOfFailedLoad(deps, input.projectId, loadId, backupId);
        if (error instanceof JobInputRefusedError) return;
        // A crash or a stop before the worker answered: the transaction never committed. The rows it
        // had read and the rejected rows it had reported (those listed) are counted, none loaded.
        const message = error instanceof JobCancelledError ? "Cancelled." : failureMessage(error);
        const counts = files.map((_, file) => ({ rowsRead: Math.max(rowsRead[file]!, rowsRejected[file]!), rowsLoaded: 0, rowsRejected: rowsRejected[file]! }));
        for (const [file, fileCounts] of counts.entries()) await finishLoadTable(ctx.db, loadId, tableOf(file), fileCounts);
        const total = (key: "rowsRead" | "rowsRejected") => counts.reduce((sum, c) => sum + c[key], 0);
        await finishLoad(
          ctx.db,
          loadId,
          {
            status: "Failed",
            rowsRead: total("rowsRead"),
            rowsLoaded: 0,
            rowsRejected: total("rowsRejected"),
            message: withSkipped(`${message} Nothing was loaded.`),
          },
          new Date(),
        );
      },
    });
  } catch (err) {
    await (input.refused ?? removeFiles)();
    await db.deleteFrom("loads").where("id", "=", loadId).execute();
    throw err;
  }
  await setLoadJob(db, loadId, job.id);
  return { loadId, job };
}
