/**
 * Tables made through SQL access before the project shared what a login makes (sql-logins.ts
 * shareLoginTables, decision 022) stayed the login's alone until Write was saved again: backups left
 * them out and runs could not count them. The start shares them, and sets the default privileges of
 * the logins granted Write, in every workspace some credential was granted; a user who upgrades
 * re-saves nothing. Each step is a GRANT: done twice, it changes nothing, so every start may do it.
 */
import type { Kysely } from "kysely";
import type { Logger } from "../../shared/logger.ts";
import { databaseExists } from "./data-plane/project-databases.ts";
import type { DataPlane } from "./data-plane/servers.ts";
import { LoginMissingError, loginsOwningDestination, shareLoginTables } from "./data-plane/sql-logins.ts";
import type { Database } from "./db/schema.ts";
import { grantedWorkspacesAfter } from "./repositories/sql-credentials.ts";

const BATCH = 100;

/** Answers the number of logins whose tables it shared; a workspace that fails is logged and the others go on. */
export async function shareTablesOfSqlLogins(db: Kysely<Database>, dataPlane: DataPlane, logger: Logger): Promise<number> {
  let shared = 0;
  let after = "";
  for (;;) {
    const batch = await grantedWorkspacesAfter(db, after, BATCH);
    for (const { projectId, serverId, writeLogins } of batch) {
      try {
        if (!(await databaseExists(dataPlane, serverId, projectId))) continue;
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
      } catch (err) {
        logger.warn("could not share the tables SQL credentials made in a workspace's database", { err, projectId, serverId });
      }
    }
    if (batch.length < BATCH) return shared;
    after = batch[batch.length - 1]!.projectId;
  }
}
