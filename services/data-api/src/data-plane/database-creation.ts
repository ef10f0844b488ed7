/**
 * The first job of a workspace: its PostgreSQL database with the schemas source and destination,
 * one table per table of its own data dictionary (a migration project's wizard step 3; a
 * configuration's dictionary step), on the server with the fewest projects (project-databases.ts).
 * Status DatabaseCreation (locked, reason DatabaseCreation) while it runs; the kind's afterDatabases
 * status when done (SetupRestoreDatabaseIncomplete, SetupAssignTemplatesIncomplete; Active for a
 * configuration that has templates already);
 * DatabaseCreationFailed on failure (a retry starts from there).
 */
import type { Job } from "../../../../contracts/projects.ts";
import type { Table } from "../../../../contracts/dictionary.ts";
import type { JobDeps } from "../jobs/start-job.ts";
import { startJob } from "../jobs/start-job.ts";
import { DATABASE_CREATION_START_STATUSES, type WorkspaceKind } from "../../../../contracts/workspaces.ts";
import { SERVICE_WORKSPACES } from "../../../../contracts/workspaces.server.ts";
import { dictionaryBlockers, finishTemplateSetup } from "../project-setup.ts";
import { findProjectDictionaryRef, readTables } from "../repositories/dictionaries.ts";
import { chooseServer, createProjectDatabase, createProjectSchema, forgetProjectDatabase } from "./project-databases.ts";
import type { DataPlane } from "./servers.ts";

export const DATABASE_CREATION_STEPS = {
  validate: "Validate data dictionary",
  source: "Create source database",
  destination: "Create destination database",
} as const;

/** `expectedVersion`: the workspace's version the start was based on, checked where the lock is taken (none: as it is then). */
export async function startDatabaseCreation(
  deps: JobDeps & { dataPlane: DataPlane },
  kind: WorkspaceKind,
  projectId: string,
  userId: string,
  expectedVersion?: number,
): Promise<Job> {
  const { dataPlane } = deps;
  // Read under the lock by the first step, used by the next two: the databases match the
  // dictionary as it was when the job started, whatever happens to it later.
  let tables: Table[] = [];
  let serverId = "";
  /**
   * A failed step drops what the job made itself, while the job still holds the lock: a Retry the
   * moment the lock is released must not meet a clean-up still dropping roles of the same names.
   */
  let cleanedUp = false;
  const orCleanUp = async (db: Parameters<typeof forgetProjectDatabase>[0], work: () => Promise<void>) => {
    try {
      await work();
    } catch (err) {
      await forgetProjectDatabase(db, dataPlane, projectId);
      cleanedUp = true;
      throw err;
    }
  };

  return startJob(deps, {
    projectId,
    workspace: kind,
    kind: "DatabaseCreation",
    lockReason: "DatabaseCreation",
    userId,
    statusWhileRunning: "DatabaseCreation",
    allowedStatuses: DATABASE_CREATION_START_STATUSES[kind],
    expectedVersion,
    steps: [
      {
        name: DATABASE_CREATION_STEPS.validate,
        run: async ({ db }) => {
          // Checked before the job started too; again here because the dictionary could change
          // between that check and the lock (dictionary writes are refused only once locked).
          const dictionary = await findProjectDictionaryRef(db, projectId);
          tables = dictionary ? await readTables(db, dictionary.id) : [];
          const problems = dictionaryBlockers({ tableCount: tables.length, emptyTableCount: tables.filter((t) => t.columns.length === 0).length });
          if (problems.length) throw new Error(problems.join(" "));
        },
      },
      {
        name: DATABASE_CREATION_STEPS.source,
        run: async ({ db }) => {
          // A retry goes where the failed attempt went (and starts clean there); else the emptiest server.
          const project = await db.selectFrom("projects").select("database_server").where("id", "=", projectId).executeTakeFirstOrThrow();
          serverId = project.database_server ?? (await chooseServer(db, dataPlane));
          // Recorded before anything is made, so whatever a killed process leaves can be found again.
          await db.updateTable("projects").set({ database_server: serverId }).where("id", "=", projectId).execute();
          await orCleanUp(db, async () => {
            await createProjectDatabase(dataPlane, serverId, projectId);
            await createProjectSchema(dataPlane, serverId, projectId, "source", tables);
          });
        },
      },
      {
        name: DATABASE_CREATION_STEPS.destination,
        run: async ({ db }) => orCleanUp(db, () => createProjectSchema(dataPlane, serverId, projectId, "destination", tables)),
      },
    ],
    // A configuration goes on to its templates step, or past it when it has templates already.
    onSuccess: { status: SERVICE_WORKSPACES[kind].afterDatabases, update: (trx) => finishTemplateSetup(trx, projectId, null) },
    // A failed creation leaves no database that looks usable (the source may have been made). A
    // killed process never gets here: the recovery at the next start drops it (recover.ts).
    // A stop between steps (a cancel, a force unlock) gets here with the clean-up not done yet.
    onFailure: async (_error, { db }) => {
      if (!cleanedUp) await forgetProjectDatabase(db, dataPlane, projectId);
    },
  });
}
