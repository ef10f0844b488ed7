import { sql, type Kysely } from "kysely";

// Frozen: never edit after release; add a new migration instead.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("roles", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("permissions")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("company_id", "text", (c) => c.notNull())
    .addColumn("product_role_name", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("permissions_pk", ["user_id", "company_id"])
    .execute();

  await db.schema
    .createTable("branding")
    .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn("logo_url", "text")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("terms_and_conditions", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("oidc_payloads")
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("grant_id", "text")
    .addColumn("user_code", "text")
    .addColumn("uid", "text")
    .addColumn("expires_at", "text")
    .addColumn("consumed_at", "text")
    .addPrimaryKeyConstraint("oidc_payloads_pk", ["model", "id"])
    .execute();
  await db.schema.createIndex("oidc_payloads_grant_id").on("oidc_payloads").column("grant_id").execute();
  await db.schema.createIndex("oidc_payloads_uid").on("oidc_payloads").columns(["model", "uid"]).execute();
  await db.schema.createIndex("oidc_payloads_user_code").on("oidc_payloads").columns(["model", "user_code"]).execute();
  await db.schema.createIndex("oidc_payloads_expires_at").on("oidc_payloads").column("expires_at").execute();

  await db.schema
    .createTable("signing_keys")
    .addColumn("kid", "text", (c) => c.primaryKey())
    .addColumn("purpose", "text", (c) => c.notNull().unique())
    .addColumn("private_jwk", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["signing_keys", "oidc_payloads", "branding", "permissions", "users"]) {
    await db.schema.dropTable(table).execute();
  }
}
