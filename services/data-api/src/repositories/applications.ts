import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Application } from "../../../../contracts/applications.ts";
import { DuplicateNameError } from "../api-problem.ts";
import type { Database } from "../db/schema.ts";
import { isUniqueViolation, nameKey } from "./db-helpers.ts";

export const DUPLICATE_APPLICATION_MESSAGE = "An application with this name already exists";

/** A company's applications, sorted by name, with how many master dictionaries and projects use each. */
export async function listApplications(db: Kysely<Database>, companyId: string): Promise<Application[]> {
  const rows = await selectApplications(db).where("a.company_id", "=", companyId).orderBy("a.name_key").orderBy("a.name").orderBy("a.id").execute();
  return rows.map(toApplication);
}

export async function findApplication(db: Kysely<Database>, id: string): Promise<Application | undefined> {
  const row = await selectApplications(db).where("a.id", "=", id).executeTakeFirst();
  return row && toApplication(row);
}

export type NewApplication = { companyId: string; name: string; description: string | null };

/** Inserts the application; a name the company already uses (any case) is a DuplicateNameError on `name`. */
export async function createApplication(db: Kysely<Database>, input: NewApplication, now = new Date()): Promise<Application> {
  const id = randomUUID();
  const key = nameKey(input.name);
  const taken = await db
    .selectFrom("applications")
    .select("id")
    .where("company_id", "=", input.companyId)
    .where("name_key", "=", key)
    .executeTakeFirst();
  if (taken) throw new DuplicateNameError("name", DUPLICATE_APPLICATION_MESSAGE);
  try {
    await db
      .insertInto("applications")
      .values({ id, company_id: input.companyId, name: input.name, name_key: key, description: input.description, created_at: now.toISOString() })
      .execute();
  } catch (err) {
    // Two requests with the same name at once: the check above passed for both; the constraint did not.
    if (isUniqueViolation(err)) throw new DuplicateNameError("name", DUPLICATE_APPLICATION_MESSAGE);
    throw err;
  }
  const created = await findApplication(db, id);
  if (!created) throw new Error(`application ${id} vanished after insert`);
  return created;
}

function selectApplications(db: Kysely<Database>) {
  return db
    .selectFrom("applications as a")
    .select([
      "a.id",
      "a.company_id",
      "a.name",
      "a.description",
      "a.created_at",
      // Counted in SQL, per row: the list stays one query however many applications there are.
      (eb) =>
        eb
          .selectFrom("dictionaries as d")
          .select(eb.fn.countAll<number | string>().as("n"))
          .whereRef("d.application_id", "=", "a.id")
          .where("d.project_id", "is", null)
          .as("dictionary_count"),
      (eb) =>
        eb
          .selectFrom("projects as p")
          .select(eb.fn.countAll<number | string>().as("n"))
          .whereRef("p.application_id", "=", "a.id")
          .as("project_count"),
    ]);
}

type ApplicationRow = {
  id: string;
  company_id: string;
  name: string;
  description: string | null;
  created_at: string;
  dictionary_count: number | string | null;
  project_count: number | string | null;
};

function toApplication(row: ApplicationRow): Application {
  return {
    id: row.id,
    companyId: row.company_id,
    name: row.name,
    description: row.description,
    dictionaryCount: Number(row.dictionary_count ?? 0),
    projectCount: Number(row.project_count ?? 0),
    createdAt: row.created_at,
  };
}

