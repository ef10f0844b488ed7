import { readContains } from "~/lib/list-search.server";
import type { projectCalls } from "../workspace.server";

/** The most tables a page's Table select offers: a project may have thousands, and a search (in SQL) finds the others. */
const TABLE_CHOICES = 50;

/**
 * The source tables a page's Table select offers (the load page, source data): the first ones by name
 * whose name contains the page's `?name=` search, asked of the data API a page at a time, with how
 * many match. No table is read to count its rows (rows=estimated): only the names are shown.
 */
export async function sourceTableChoices(calls: ReturnType<typeof projectCalls>, params: URLSearchParams) {
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

export type SourceTableChoices = Awaited<ReturnType<typeof sourceTableChoices>>;
