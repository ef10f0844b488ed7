import { readContains } from "~/lib/list-search.server";
import type { projectCalls } from "../workspace.server";

/** The most tables a page's Table select offers: a project may have thousands, and a search (in SQL) finds the others. */
const TABLE_CHOICES = 50;

type Calls = ReturnType<typeof projectCalls>;

/**
 * The source tables a page's Table select offers (the load page, source data): the first ones by name
 * whose name contains the page's `?name=` search, asked of the data API a page at a time, with how
 * many match. No table is read to count its rows (rows=estimated): only the names are shown.
 */
export async function sourceTableChoices(calls: Calls, params: URLSearchParams) {
  const search = readContains(params);
  const { databases } = await calls.databases({ database: "source", rows: "estimated", table: search || undefined, page: 1, pageSize: TABLE_CHOICES });
  const source = databases.find((d) => d.kind === "source");
  return {
    created: Boolean(source?.exists),
    search,
    names: source?.exists ? source.tables.map((t) => t.name) : [],
    matching: source?.exists ? source.tableCount : 0,
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
