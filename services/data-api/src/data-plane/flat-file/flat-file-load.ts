/**
 * A flat-file load as a job (lock reason FlatFileCreation, run type FlatFile): the uploaded file,
 * already on disk, goes into one table of the workspace's source database (load-worker.ts), and the
 * load's history entry records what happened, with every rejected row. A migration project's first
 * load moves it from "Setup: load source data" to "Setup: assign templates".
 */
import fs from "node:fs";
import type { Job, FlatFileParameters, ProjectStatus } from "../../../../../contracts/projects.ts";
import type { LoadForm } from "../../../../../contracts/loads.ts";
import type { Table } from "../../../../../contracts/dictionary.ts";
import type { WorkspaceKind } from "../../../../../contracts/workspaces.ts";
import type { JobDeps } from "../../jobs/start-job.ts";
import { JobCancelledError, JobInputRefusedError, startJob } from "../../jobs/start-job.ts";
import { deleteRejections, finishLoad, finishLoadTable, insertLoad, insertRejections, setLoadHeader, setLoadJob } from "../../repositories/loads.ts";
import { runnerUrl } from "../project-databases.ts";
import type { DataPlane } from "../servers.ts";
import { loadInWorker } from "./load-in-worker.ts";

/** Where a workspace may be loaded: its databases exist. */
export const LOAD_START_STATUSES: readonly ProjectStatus[] = ["SetupRestoreDatabaseIncomplete", "SetupAssignTemplatesIncomplete", "Active", "Inactive"];

export type FlatFileLoadInput = {
  projectId: string;
  serverId: string;
  userId: string;
  file: { path: string; name: string; size: number };
  /** Removes the file once the load is over (by default the file itself; a staged upload's folder for one previewed). */
  discard?: () => Promise<void>;
  /** When the load could not start (locked meanwhile): by default the file is removed too. */
  refused?: () => Promise<void>;
  form: LoadForm;
  table: Table;
  parameters: FlatFileParameters;
};

/** Starts the load (202 at the route); the file is the job's from here and removed when it ends. Throws JobRefusedError when locked. */
export async function startFlatFileLoad(
  deps: JobDeps & { dataPlane: DataPlane },
  kind: WorkspaceKind,
  input: FlatFileLoadInput,
): Promise<{ loadId: string; job: Job }> {
  const { db, dataPlane } = deps;
  const table = input.table.name;
  const loadId = await insertLoad(db, {
    projectId: input.projectId,
    fileName: input.file.name,
    fileBytes: input.file.size,
    form: { ...input.form, table },
    tables: [{ table, fileName: input.file.name }],
    parameters: input.parameters,
    userId: input.userId,
    now: new Date(),
  });
  // Asynchronous: unlinking a file of gigabytes takes the file system a while, never the event loop's.
  const removeFile = input.discard ?? (() => fs.promises.rm(input.file.path, { force: true }));
  let job: Job;
  try {
    job = await startJob(deps, {
      projectId: input.projectId,
      workspace: kind,
      kind: "FlatFile",
      lockReason: "FlatFileCreation",
      userId: input.userId,
      allowedStatuses: LOAD_START_STATUSES,
      steps: [
        {
          name: `Load ${input.file.name} into ${input.table.name}`,
          run: async (ctx) => {
            try {
              const outcome = await loadInWorker(
                {
                  filePath: input.file.path,
                  parameters: input.parameters,
                  table: input.table,
                  mode: input.form.mode,
                  onRejected: input.form.onRejected,
                  connectionUrl: runnerUrl(dataPlane, input.serverId, input.projectId),
                },
                {
                  onHeader: (cells) => setLoadHeader(ctx.db, loadId, table, cells),
                  onRejected: (rows) => insertRejections(ctx.db, loadId, table, rows),
                  onReset: () => deleteRejections(ctx.db, loadId, table),
                  onProgress: (bytes, rows) =>
                    ctx.progress(input.file.size ? Math.min(0.99, bytes / input.file.size) : 0, {
                      bytesRead: bytes,
                      bytesTotal: input.file.size,
                      rowsRead: rows,
                    }),
                },
                ctx.signal,
              );
              await finishLoadTable(ctx.db, loadId, table, outcome);
              await finishLoad(ctx.db, loadId, outcome, new Date());
              // A refused or unreadable file ends the job as failed, with the reason on the background-process page.
              if (outcome.status !== "Loaded") throw new JobInputRefusedError(outcome.message ?? "Nothing was loaded.");
            } finally {
              await removeFile();
            }
          },
        },
      ],
      onSuccess: {
        status: "previous",
        update: async (trx) => {
          await trx
            .updateTable("projects")
            .set({ status: "SetupAssignTemplatesIncomplete" })
            .where("id", "=", input.projectId)
            .where("status", "=", "SetupRestoreDatabaseIncomplete")
            .execute();
        },
      },
      onFailure: async (error, ctx) => {
        await removeFile();
        // A crash or a stop before the worker answered: the transaction never committed.
        const message = error instanceof JobCancelledError ? "Cancelled." : error instanceof Error ? error.message : String(error);
        await finishLoad(
          ctx.db,
          loadId,
          { status: "Failed", rowsRead: 0, rowsLoaded: 0, rowsRejected: 0, message: `${message} Nothing was loaded.` },
          new Date(),
        );
      },
    });
  } catch (err) {
    await (input.refused ?? removeFile)();
    await db.deleteFrom("loads").where("id", "=", loadId).execute();
    throw err;
  }
  await setLoadJob(db, loadId, job.id);
  return { loadId, job };
}
