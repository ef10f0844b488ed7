/**
 * Tables made through SQL access before the project shared what a login makes (sql-logins.ts
 * shareLoginTables, decision 022) stayed the login's alone until Write was saved again: backups left
 * them out and runs could not count them. The start shares them, and sets the default privileges of
 * the logins granted Write, in each workspace of a company with credentials, whatever their levels
 * now: the logins to share for are the tables' owners in the project database (one set back to None
 * has no permission row) and the Write grants. Each workspace done is marked in the control plane
 * (markLoginTablesShared), so later starts skip it; one that failed is tried again at the next start.
 * Each step is a GRANT: done twice (two processes starting at once), it changes nothing.
 */
import type { Kysely } from "kysely";
import type { Logger } from "../../shared/logger.ts";
import { databaseExists } from "./data-plane/project-databases.ts";
import type { DataPlane } from "./data-plane/servers.ts";
import { LoginMissingError, loginsOwningDestination, shareLoginTables } from "./data-plane/sql-logins.ts";
import type { Database } from "./db/schema.ts";
import { markLoginTablesShared, workspacesToShareAfter } from "./repositories/sql-credentials.ts";

const BATCH = 100;

/** Answers the number of logins whose tables it shared; a workspace that fails is logged, left unmarked, and the others go on. */
export async function shareTablesOfSqlLogins(db: Kysely<Database>, dataPlane: DataPlane, logger: Logger): Promise<number> {
  let shared = 0;
  let after = "";
  for (;;) {
    const batch = await workspacesToShareAfter(db, after, BATCH);
    for (const { projectId, serverId, writeLogins } of batch) {
      try {
        // Without its database yet, the workspace has nothing made before the rule: a database made later follows it.
        if (await databaseExists(dataPlane, serverId, projectId)) {
          // A login now at Read or None may still own what it made with Write before.
          const logins = new Set([...writeLogins, ...(await loginsOwningDestination(dataPlane, serverId, projectId))]);
          for (const login of logins) {
            try {
              await shareLoginTables(dataPlane, serverId, projectId, login);
              shared++;
            } catch (err) {
              // Made on the server at the credential's next rotation, which grants again.
              if (!(err instanceof LoginMissingError)) throw err;
            }
          }
        }
        await markLoginTablesShared(db, projectId, new Date());
      } catch (err) {
        logger.warn("could not share the tables SQL credentials made in a workspace's database", { err, projectId, serverId });
      }
    }
    if (batch.length < BATCH) return shared;
    after = batch[batch.length - 1]!.projectId;
  }
}
