import type { Kysely, Migration } from "kysely";
import { createKysely } from "../../services/shared/db";
import { migrateToLatest } from "../../services/shared/migrate";
import { env } from "./env.server";

/** The portal's own tables: only the server-side sessions (tokens never reach the browser). */
export interface PortalDatabase {
  portal_sessions: { id: string; data: string; expires_at: string };
}

const migrations: Record<string, Migration> = {
  "0001_sessions": {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("portal_sessions")
        .ifNotExists()
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("expires_at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("portal_sessions_expires_at").ifNotExists().on("portal_sessions").column("expires_at").execute();
    },
  },
};

let ready: Promise<Kysely<PortalDatabase>> | undefined;

/** The portal database, migrated on first use (by the first request, /healthz included: the build has no start hook). */
export function portalDb(): Promise<Kysely<PortalDatabase>> {
  ready ??= (async () => {
    const db = createKysely<PortalDatabase>(env.PORTAL_DATABASE_URL);
    await migrateToLatest(db, migrations);
    return db;
  })();
  return ready;
}
