import type { Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// A migration project or onboarding configuration may name the translation mapping project whose
// value maps its scripts join (issue 12): `mapping_project_id`, another `projects` row (of product
// type Translation, checked by the application), cleared if that mapping project goes.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("projects")
    .addColumn("mapping_project_id", "text", (col) => col.references("projects.id").onDelete("set null"))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("projects").dropColumn("mapping_project_id").execute();
}
