/**
 * Backups, restores, undo and comparisons of a workspace's data (issue 10), for projects and
 * configurations alike: list and take backups and download one; restore into the source database from
 * a backup, an uploaded archive or a client's SQLite export, or undo an entry of the history; compare a
 * backup (or the data as an entry left it) with the current data. Each starts a job (202) and writes an
 * entry of the history. Uploads are checked whole before any job starts: a damaged, truncated or
 * foreign file is a 400 with its reason, and nothing changes.
 */
import fs from "node:fs";
import { describeWrite } from "../../audit-writes.ts";
import { Readable } from "node:stream";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { attachment } from "../../../../shared/content-disposition.ts";
import {
  backupPageSchema,
  backupQuerySchema,
  comparisonBodySchema,
  RESTORE_REASON_MAX,
  restoreBodySchema,
  restoreReasonSchema,
  startedWorkSchema,
  type Backup,
} from "../../../../../contracts/backups.ts";
import type { HistoryEntry } from "../../../../../contracts/loads.ts";
import { CHANGING_TYPES, HISTORY_TYPE_LABELS } from "../../../../../contracts/values/loads.ts";
import type { WorkspaceDescriptor } from "../../../../../contracts/workspaces.ts";
import { ApiProblem, ConflictError, NotFoundError, validationProblem } from "../../api-problem.ts";
import { maxUploadBytesOf, uploadTooLargeMessage } from "../../body-limits.ts";
import { backupFilePath, startBackup, startComparison, startRestore, type RestoreSource, type WorkTarget } from "../../data-plane/backups/backup-jobs.ts";
import { verifyBackupArchive } from "../../data-plane/backups/backup-archive.ts";
import { inspectSqliteExportInWorker } from "../../data-plane/backups/sqlite-export.ts";
import { RestoreInputProblem } from "../../data-plane/backups/table-input.ts";
import { LOAD_START_STATUSES } from "../../data-plane/data-jobs.ts";
import { echoingChoices, receiveUpload, uploadsTmpDir } from "../../dictionary-bulk/receive-upload.ts";
import { lockedMessage } from "../../jobs/project-lock.ts";
import { JobRefusedError } from "../../jobs/start-job.ts";
import { createRouter, fieldErrorsOf, jsonContent } from "../../openapi.ts";
import { backupAfter, findBackup, lastChangingLoadId, listBackups } from "../../repositories/backups.ts";
import { findProjectDictionaryRef } from "../../repositories/dictionaries.ts";
import { readTables } from "../../repositories/dictionary-tables.ts";
import { findHistoryEntry, findUndoOf } from "../../repositories/loads.ts";
import type { WorkspaceRow } from "../../repositories/workspaces.ts";
import { requireWorkspace } from "../../workspace-access.ts";
import { HISTORY_ENTRY_NOT_FOUND_MESSAGE } from "./history.ts";
import { backupDeps, capitalised, collectionPath, readErrorsOf, workspaceIdParams, writeErrorsOf } from "./shared.ts";

export const BACKUP_NOT_FOUND_MESSAGE = "No such backup.";
/** A backup of the workspace still being written (Running) or that failed: nothing to restore or compare with. */
export const BACKUP_NOT_READY_TO_RESTORE_MESSAGE = "This backup is not ready to restore.";
export const BACKUP_NOT_READY_TO_COMPARE_MESSAGE = "This backup is not ready to compare with.";
/** The restore form's fields besides its file. */
const RESTORE_FORM_FIELDS = ["compare", "reason"] as const;
export const CHOOSE_RESTORE_FILE_MESSAGE = "Choose a backup archive (.tar) or a SQLite database (.sqlite, .db) to restore";

const RESTORE_BODY = {
  type: "object" as const,
  properties: {
    file: { type: "string" as const, format: "binary", description: "A backup archive of this product (.backup.tar) or a SQLite database (.sqlite, .db)." },
    compare: { type: "boolean" as const, description: "Also compare the restored data with the data it replaces (RestoreAndComparison)." },
    reason: { type: "string" as const, maxLength: RESTORE_REASON_MAX, description: "Why (optional): kept in the audit log; a longer one is refused (400)." },
  },
};
const RESTORE_JSON_BODY = {
  type: "object" as const,
  properties: {
    backupId: { type: "string" as const, description: "One of the workspace's backups." },
    undo: { type: "string" as const, description: "An entry of the history: restores the data as it was before it." },
    version: { type: "integer" as const, description: "With `undo` (required there): the workspace's version the undo was based on; a stale one answers 409." },
    compare: { type: "boolean" as const },
    reason: { type: "string" as const, maxLength: RESTORE_REASON_MAX, description: "Why (optional): kept in the audit log; a longer one is refused (400)." },
  },
};

/** The first bytes of every SQLite database file. */
const SQLITE_HEADER = Buffer.from("SQLite format 3\0", "latin1");

async function startsWithSqliteHeader(file: string): Promise<boolean> {
  const handle = await fs.promises.open(file, "r");
  try {
    const head = Buffer.alloc(SQLITE_HEADER.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return bytesRead === head.length && head.equals(SQLITE_HEADER);
  } finally {
    await handle.close();
  }
}

export function createWorkspaceBackupsRouter(descriptor: WorkspaceDescriptor) {
  const { kind, noun } = descriptor;
  const base = `${collectionPath(descriptor)}/{id}`;
  const tags = kind === "migration" ? ["Backups and comparisons"] : ["Configuration backups and comparisons"];
  const backupParams = z.object({ id: z.string().min(1), backupId: z.string().min(1) });
  const started = jsonContent(startedWorkSchema, "Started: its history entry and job.");

  const list = createRoute({
    method: "get",
    path: `${base}/backups`,
    tags,
    summary: `The ${noun}'s backups that can be restored, downloaded and compared, newest first`,
    description: "`deliveries=true`: only those holding the data as a flat-file load left it (the deliveries a comparison starts from).",
    request: { params: workspaceIdParams, query: backupQuerySchema },
    responses: { 200: jsonContent(backupPageSchema, "A page of backups."), 400: { description: "A bad query." }, ...readErrorsOf(descriptor) },
  });
  const create = createRoute({
    method: "post",
    path: `${base}/backups`,
    tags,
    summary: `Back up the ${noun}'s source and destination databases now (a job, lock reason Backup)`,
    description: `One snapshot of both schemas: a tar of a manifest and one gzipped CSV per table with its checksum. Once done it is the ${noun}'s current backup.`,
    request: { params: workspaceIdParams },
    responses: { 202: started, ...writeErrorsOf(descriptor) },
  });
  const download = createRoute({
    method: "get",
    path: `${base}/backups/{backupId}/download`,
    tags,
    summary: "A backup's archive, streamed",
    request: { params: backupParams },
    responses: {
      200: { description: "The archive (application/x-tar).", content: { "application/x-tar": { schema: z.string() } } },
      ...readErrorsOf(descriptor),
    },
  });
  const restore = createRoute({
    method: "post",
    path: `${base}/restores`,
    tags,
    summary: `Restore the ${noun}'s source database (a job, lock reason Restore), all or nothing`,
    description: [
      "JSON: `backupId` (one of the workspace's backups) or `undo` (an entry of the history: the data as it was before it) with the workspace's `version` it was based on (a stale one answers 409 and restores nothing: the undo sent again, or the workspace changed since), and `compare`.",
      "multipart/form-data: `file` (a backup archive, or a SQLite database whose tables are matched to the dictionary's by name) and `compare`.",
      "The current data is backed up first (so the restore can be undone), then the source is replaced in one transaction. An uploaded file is checked whole first: a damaged, truncated, foreign or oversized archive, or a SQLite file that is not one or matches no table, is a 400.",
    ].join(" "),
    request: {
      params: workspaceIdParams,
      body: { required: true, content: { "application/json": { schema: RESTORE_JSON_BODY }, "multipart/form-data": { schema: RESTORE_BODY } } },
    },
    responses: { 202: started, 413: jsonContent(z.object({}).passthrough(), "The file is larger than MAX_UPLOAD_BYTES."), ...writeErrorsOf(descriptor) },
  });
  const compare = createRoute({
    method: "post",
    path: `${base}/comparisons`,
    tags,
    summary: "Compare earlier data with the current source data (a job, lock reason DataComparison)",
    description:
      "`backupId`: one of the workspace's backups; or `historyId`: the data as that entry of the history left it (a backup's entry, or a load or restore followed by another change). Per table: rows added, removed and changed (by the dictionary's key; by whole row without one), the columns that changed, and up to 20 rows of each kind.",
    request: { params: workspaceIdParams, body: { required: true, content: { "application/json": { schema: comparisonBodySchema } } } },
    responses: { 202: started, ...writeErrorsOf(descriptor) },
  });

  /** The workspace's server, or 409 when its databases are not made yet (or it is in a status no data job starts from). */
  const requireDatabases = (workspace: WorkspaceRow): string => {
    const serverId = workspace.database_server;
    if (!serverId || !LOAD_START_STATUSES.includes(workspace.status as (typeof LOAD_START_STATUSES)[number]))
      throw new ApiProblem(409, "not_ready", `The ${noun}'s databases are not created yet: create them first.`);
    return serverId;
  };
  type Ctx = Parameters<typeof requireWorkspace>[0];
  const targetOf = async (c: Ctx, id: string, write: boolean): Promise<{ workspace: WorkspaceRow; target: WorkTarget }> => {
    const { workspace } = await requireWorkspace(c, kind, id, { write });
    const serverId = requireDatabases(workspace);
    return { workspace, target: { projectId: workspace.id, serverId, workspaceName: workspace.name, userId: c.var.caller.userId } };
  };
  /** A job refused (locked, or a status it cannot start from): 409 with the reason. */
  const refusedAs409 = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      if (err instanceof JobRefusedError) throw new ApiProblem(409, "project_locked", err.message);
      throw err;
    }
  };
  const entryOf = async (c: Ctx, projectId: string, historyId: string) => {
    const found = await findHistoryEntry(c.var.deps.db, projectId, historyId);
    if (!found) throw new NotFoundError(HISTORY_ENTRY_NOT_FOUND_MESSAGE);
    return found;
  };
  /**
   * The workspace's backup to restore or compare with. One it does not hold (another company's or
   * workspace's, an automatic one pruned since the page showed it) is not found, 404 like any other
   * id not its own; one of its own still Running or Failed (the pages offer Ready ones only, so a
   * forged post) is refused at the field, saying why.
   */
  const readyBackup = async (c: Ctx, projectId: string, backupId: string, notReady: string): Promise<Backup> => {
    const backup = await findBackup(c.var.deps.db, projectId, backupId);
    if (!backup) throw new NotFoundError(BACKUP_NOT_FOUND_MESSAGE);
    if (backup.status !== "Ready") throw validationProblem({ backupId: [notReady] });
    return backup;
  };
  /**
   * The refusal (409) of an undo based on a version of the workspace that moved on, saying which is
   * true: the entry was undone already (the form sent twice), or the workspace changed since.
   */
  const staleUndo = async (c: Ctx, projectId: string, entry: HistoryEntry) => {
    const undone = await findUndoOf(c.var.deps.db, projectId, entry.id);
    if (!undone) {
      return new ConflictError(
        `The ${noun} changed since this page was shown (its data or its settings). Nothing was restored: look at its history as it is now, then undo again if you still want to.`,
      );
    }
    const at = new Date(undone.created_at).toISOString();
    const by = undone.created_by === c.var.caller.userId ? "by you" : "by someone else";
    return new ApiProblem(
      409,
      "already_undone",
      `This ${HISTORY_TYPE_LABELS[entry.type].toLowerCase()} of ${entry.fileName} was undone already, ${by} on ${at.slice(0, 10)} at ${at.slice(11, 16)} UTC. Nothing more was restored.`,
    );
  };
  /** A restore or undo is in the audit log, written where its job starts (with the job's id); a refused start leaves none. */
  const audited = (
    workspace: { id: string; name: string; company_id: string },
    action: "workspace.restore_started" | "workspace.undo_started",
    summary: Record<string, unknown>,
    reason: string | null,
  ) => describeWrite({ action, companyId: workspace.company_id, workspaceId: workspace.id, target: `${capitalised(noun)} ${workspace.name}`, summary, reason });

  const answer = async (c: Ctx, projectId: string, work: { entryId: string; job: { id: string } }) => {
    const { entry } = await entryOf(c, projectId, work.entryId);
    return { entry, jobId: work.job.id };
  };

  return createRouter()
    .openapi(list, async (c) => {
      const { workspace } = await requireWorkspace(c, kind, c.req.valid("param").id, { write: false });
      return c.json(await listBackups(c.var.deps.db, workspace.id, c.req.valid("query")), 200);
    })
    .openapi(create, async (c) => {
      const { target } = await targetOf(c, c.req.valid("param").id, true);
      const work = await refusedAs409(() => startBackup(backupDeps(c), kind, target));
      return c.json(await answer(c, target.projectId, work), 202);
    })
    .openapi(download, async (c) => {
      const { id, backupId } = c.req.valid("param");
      const { workspace } = await requireWorkspace(c, kind, id, { write: false });
      const backup = await findBackup(c.var.deps.db, workspace.id, backupId);
      const file = backupFilePath(c.var.deps.dataDir, workspace.id, backupId);
      if (!backup || backup.status !== "Ready" || !fs.existsSync(file)) throw new NotFoundError(BACKUP_NOT_FOUND_MESSAGE);
      return new Response(Readable.toWeb(fs.createReadStream(file)) as ReadableStream, {
        status: 200,
        headers: {
          "content-type": "application/x-tar",
          "content-length": String(backup.bytes),
          "content-disposition": attachment(backup.name),
        },
      }) as never;
    })
    .openapi(restore, async (c) => {
      const { workspace, target } = await targetOf(c, c.req.valid("param").id, true);
      // Refused before the body is read: a file of gigabytes is not received to answer 409.
      if (workspace.is_locked) throw new ApiProblem(409, "project_locked", lockedMessage(workspace.lock_reason, noun));
      const deps = backupDeps(c);

      if (/^application\/json\b/i.test(c.req.header("content-type") ?? "")) {
        const parsed = restoreBodySchema.safeParse(await c.req.json().catch(() => null));
        if (!parsed.success) throw validationProblem(fieldErrorsOf(parsed.error.issues, "form"));
        const { backupId, undo, version, compare, reason } = parsed.data;
        let undoOf: HistoryEntry | undefined;
        let backup: Backup;
        if (undo) {
          const found = await entryOf(c, workspace.id, undo);
          undoOf = found.entry;
          // Based on the version the undo page showed, checked first: sent again (Back, another tab) or after a change, it restores nothing.
          if (version !== Number(workspace.version)) throw await staleUndo(c, workspace.id, undoOf);
          if (!CHANGING_TYPES.includes(undoOf.type) || undoOf.status !== "Loaded")
            throw new ApiProblem(409, "cannot_undo", "Only a load or a restore that changed the data can be undone.");
          const before = found.backupId ? await findBackup(c.var.deps.db, workspace.id, found.backupId) : undefined;
          if (!before || before.status !== "Ready")
            throw new ApiProblem(409, "cannot_undo", "The data as it was before this entry is no longer kept: it cannot be undone.");
          backup = before;
        } else backup = await readyBackup(c, workspace.id, backupId!, BACKUP_NOT_READY_TO_RESTORE_MESSAGE);
        audited(
          workspace,
          undoOf ? "workspace.undo_started" : "workspace.restore_started",
          { backup: backup.name, ...(undoOf ? { undoes: { entry: undoOf.id, type: undoOf.type } } : { compare: Boolean(compare) }) },
          reason,
        );
        const work = await refusedAs409(() =>
          startRestore(deps, kind, target, {
            source: { kind: "backup", backup },
            compare: Boolean(compare) && !undo,
            undoOf,
            expectedVersion: undoOf && version,
          }),
        );
        return c.json(await answer(c, workspace.id, work), 202);
      }

      const maxBytes = maxUploadBytesOf(c.var.deps);
      const upload = await receiveUpload(c.req.raw, uploadsTmpDir(c.var.deps.dataDir), maxBytes, uploadTooLargeMessage(maxBytes));
      let taken = false;
      // A refusal gives the form's Compare and Reason back as sent (the portal streams the form through unread), never the file.
      return echoingChoices(upload.fields, RESTORE_FORM_FIELDS, async () => {
        try {
          const file = upload.file;
          // The reason is the audit log's as the user wrote it: one too long is refused at its field, as in a JSON body, never cut.
          const reason = restoreReasonSchema.safeParse(upload.fields.reason);
          if (!reason.success) throw validationProblem(fieldErrorsOf(reason.error.issues, "reason"));
          if (!file) throw validationProblem({ file: [CHOOSE_RESTORE_FILE_MESSAGE] });
          if (file.size === 0) throw validationProblem({ file: ["The file is empty"] });
          const compare = ["true", "on", "1"].includes(upload.fields.compare ?? "");
          let source: RestoreSource;
          try {
            if (await startsWithSqliteHeader(file.path)) {
              const ref = await findProjectDictionaryRef(c.var.deps.db, workspace.id);
              const tables = ref ? await readTables(c.var.deps.db, ref.id) : [];
              source = { kind: "sqlite", file, plan: await inspectSqliteExportInWorker(file.path, tables) };
            } else {
              await verifyBackupArchive(file.path, { maxCsvBytes: maxBytes * 200 });
              source = { kind: "archive", file };
            }
          } catch (err) {
            if (err instanceof RestoreInputProblem) throw validationProblem({ file: [err.message] });
            throw err;
          }
          audited(workspace, "workspace.restore_started", { file: file.name, kind: source.kind, compare }, reason.data);
          const work = await refusedAs409(() => startRestore(deps, kind, target, { source, compare }));
          taken = true;
          return c.json(await answer(c, workspace.id, work), 202);
        } finally {
          // The job owns the file once started (it removes it); else it goes now.
          if (!taken) upload.remove();
        }
      });
    })
    .openapi(compare, async (c) => {
      const { workspace, target } = await targetOf(c, c.req.valid("param").id, true);
      const parsed = comparisonBodySchema.safeParse(await c.req.json().catch(() => null));
      if (!parsed.success) throw validationProblem(fieldErrorsOf(parsed.error.issues, "form"));
      const { backupId, historyId } = parsed.data;
      const db = c.var.deps.db;
      let backup: Backup;
      let about: HistoryEntry | null = null;
      if (historyId) {
        const found = await entryOf(c, workspace.id, historyId);
        about = found.entry;
        const kept =
          found.entry.type === "Backup"
            ? found.backupId
              ? await findBackup(db, workspace.id, found.backupId)
              : undefined
            : await backupAfter(db, workspace.id, historyId);
        if (!kept || kept.status !== "Ready") {
          const latest = (await lastChangingLoadId(db, workspace.id)) === historyId;
          throw new ApiProblem(
            409,
            "nothing_to_compare",
            latest
              ? "This entry's data is the current data: there is nothing earlier to compare with."
              : "The data as this entry left it is no longer kept: it cannot be compared.",
          );
        }
        backup = kept;
      } else backup = await readyBackup(c, workspace.id, backupId!, BACKUP_NOT_READY_TO_COMPARE_MESSAGE);
      const work = await refusedAs409(() => startComparison(backupDeps(c), kind, target, { backup, about }));
      return c.json(await answer(c, workspace.id, work), 202);
    });
}
