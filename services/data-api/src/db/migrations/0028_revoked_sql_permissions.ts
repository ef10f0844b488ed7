import type { Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// A revoked SQL credential kept its permission rows until commit 0fe1853, which drops them as it
// revokes (and takes the login's memberships of the project roles back on the servers): the
// credentials list showed a credential revoked before that change with its databases and levels, as
// if it still reached them, and the start's sharing pass still counted one revoked with Write among a
// workspace's writers. A revoked credential is granted nothing: its rows go now. Their logins'
// memberships on the project database servers are not the control plane's to change here (the
// logins cannot log in: NOLOGIN since their revocation).
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .deleteFrom("sql_permissions")
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("sql_credentials")
          .select("sql_credentials.id")
          .whereRef("sql_credentials.id", "=", "sql_permissions.credential_id")
          .where("sql_credentials.revoked_at", "is not", null),
      ),
    )
    .execute();
}

// The rows removed were a revoked credential's, which grant nothing: nothing to undo.
export async function down(): Promise<void> {}
