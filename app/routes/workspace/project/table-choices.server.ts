import { PROJECT_DATABASE_KINDS, type ProjectDatabaseKind } from "../../../../contracts/values/configurations";
import { readContains } from "~/lib/list-search.server";
import type { projectCalls } from "../workspace.server";

/** The most tables a page's Table select offers: a project may have thousands, and a search (in SQL) finds the others. */
const TABLE_CHOICES = 50;

type Calls = ReturnType<typeof projectCalls>;

/** The database a page shows (`?database=`): the source unless the URL names the destination; an unknown value is the source. */
export function readDatabaseKind(params: URLSearchParams): ProjectDatabaseKind {
  const database = params.get("database");
  return (PROJECT_DATABASE_KINDS as readonly string[]).includes(database ?? "") ? (database as ProjectDatabaseKind) : "source";
}

/**
 * The tables of one database a page's Table select offers (the load page: the source's; the data page:
 * either): the first ones by name whose name contains the page's `?name=` search, asked of the data
 * API a page at a time, with how many match. No table is read to count its rows (rows=estimated):
 * only the names are shown.
 */
export async function databaseTableChoices(calls: Calls, params: URLSearchParams, database: ProjectDatabaseKind = "source") {
  const search = readContains(params);
  const { databases } = await calls.databases({ database, rows: "estimated", table: search || undefined, page: 1, pageSize: TABLE_CHOICES });
  const found = databases.find((d) => d.kind === database);
  return {
    created: Boolean(found?.exists),
    search,
    names: found?.exists ? found.tables.map((t) => t.name) : [],
    matching: found?.exists ? found.tableCount : 0,
  };
}

/**
 * The dictionary tables a page's Table select offers (a mapping project's Translate a file, which has
 * no databases): the first ones in the dictionary's order whose name contains `?name=`, with how many match.
 */
export async function dictionaryTableChoices(calls: Calls, params: URLSearchParams) {
  const search = readContains(params);
  const { items, total } = await calls.dictionary.tables({ name: search || undefined, page: 1, pageSize: TABLE_CHOICES });
  return { search, names: items.map((t) => t.name), matching: total };
}
