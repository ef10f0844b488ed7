import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Application, ApplicationSort } from "../../../../contracts/applications.ts";
import { SERVICE_WORKSPACES } from "../../../../contracts/workspaces.server.ts";
import { DuplicateNameError } from "../api-problem.ts";
import type { Database } from "../db/schema.ts";
import { inTransaction, isUniqueViolation, nameKey, nameKeyContains, naturalSortKey, sortOf, totalOf } from "./db-helpers.ts";

export const DUPLICATE_APPLICATION_MESSAGE = "An application with this name already exists";

export type ApplicationSearch = {
  companyId: string;
  name?: string | undefined;
  sort: ApplicationSort;
  page: number;
  pageSize: number;
};

// By name in natural order: "App 2" before "App 10".
const SORT_COLUMNS = { name: "a.name_sort", createdAt: "a.created_at" } as const;

/**
 * One page of a company's applications, with how many master dictionaries and migration projects use each:
 * filtered (name contains, any case), sorted, counted and paginated in SQL.
 */
export async function searchApplications(db: Kysely<Database>, search: ApplicationSearch) {
  let rows = selectApplications(db).where("a.company_id", "=", search.companyId);
  let count = db.selectFrom("applications as a").select((eb) => eb.fn.countAll<number | string>().as("n")).where("a.company_id", "=", search.companyId);
  const nameFilter = nameKeyContains("a.name_key", search.name);
  if (nameFilter) {
    rows = rows.where(nameFilter);
    count = count.where(nameFilter);
  }
  const { key, direction } = sortOf<keyof typeof SORT_COLUMNS>(search.sort);
  rows = rows.orderBy(SORT_COLUMNS[key], direction);
  // Ties break by name, then id: a total order, so consecutive pages never overlap or skip.
  if (key !== "name") rows = rows.orderBy("a.name_sort", direction);
  const items = await rows
    .orderBy("a.name", direction)
    .orderBy("a.id", direction)
    .limit(search.pageSize)
    .offset((search.page - 1) * search.pageSize)
    .execute();
  const total = await totalOf(items.length, search, () => count.executeTakeFirstOrThrow());
  return { items: items.map(toApplication), total, page: search.page, pageSize: search.pageSize };
}

/** Whether the company has any application at all. */
export async function hasApplications(db: Kysely<Database>, companyId: string): Promise<boolean> {
  return (await db.selectFrom("applications").select("id").where("company_id", "=", companyId).limit(1).executeTakeFirst()) !== undefined;
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
    // A transaction even for one statement: the request's audit entry commits with it (audit-writes.ts).
    await inTransaction(db, (trx) =>
      trx
        .insertInto("applications")
        .values({
          id,
          company_id: input.companyId,
          name: input.name,
          name_key: key,
          name_sort: naturalSortKey(input.name),
          description: input.description,
          created_at: now.toISOString(),
        })
        .execute(),
    );
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
          // Migration projects only, as the Migrations list's "Projects" says: configurations and
          // mapping projects are `projects` rows too, of their own product type.
          .where("p.product_type", "=", SERVICE_WORKSPACES.migration.productType)
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

