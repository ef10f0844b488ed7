import type { Kysely, Selectable } from "kysely";
import type { PermissionEntry } from "../../../../contracts/client-portal.ts";
import type { Database, UsersTable } from "./schema.ts";

export type User = Selectable<UsersTable>;

/** Emails compare case-insensitively: they are stored and looked up lower-cased. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Kysely<Database>, email: string): Promise<User | undefined> {
  // No address holds a NUL, and PostgreSQL's text refuses one in a query: a sign-in typed with one finds no account.
  if (email.includes("\u0000")) return undefined;
  return db.selectFrom("users").selectAll().where("email", "=", normaliseEmail(email)).executeTakeFirst();
}

export function findUserById(db: Kysely<Database>, id: string): Promise<User | undefined> {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function listPermissions(db: Kysely<Database>, userId: string): Promise<PermissionEntry[]> {
  const rows = await db
    .selectFrom("permissions")
    .select(["company_id", "product_role_name"])
    .where("user_id", "=", userId)
    .orderBy("company_id")
    .execute();
  return rows.map((r) => ({ companyId: r.company_id, productRoleName: r.product_role_name }));
}
