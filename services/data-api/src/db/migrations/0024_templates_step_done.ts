import { sql, type Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// A workspace given a template of its own (assigned or made from its Templates tab) before the
// wizard reached its templates step stayed at SetupAssignTemplatesIncomplete once it got there,
// though the step was done: the data API now moves such a workspace on to Active as it reaches the
// step. Those left there before that change go to Active now, their version moved on as any change
// of status moves it (by no user).
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .updateTable("projects")
    .set({ status: "Active", version: sql`version + 1`, updated_at: new Date().toISOString(), updated_by: null })
    .where("status", "=", "SetupAssignTemplatesIncomplete")
    .where((eb) => eb.exists(eb.selectFrom("templates").select("templates.id").whereRef("templates.project_id", "=", "projects.id")))
    .execute();
}

// Which workspaces were stuck is not kept: nothing to undo.
export async function down(): Promise<void> {}
