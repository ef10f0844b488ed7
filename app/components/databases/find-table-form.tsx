import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { SearchField } from "~/components/ui/search-field";
import { KeptFields } from "~/components/ui/list-search-form";

/** What a page's Table select offers: the tables whose name contains `search`, `names` the first of the `matching` ones. */
export type TableChoices = { search: string; names: string[]; matching: number };

/**
 * The GET search that narrows a page's Table select (the load page, source data) to the tables whose
 * name contains it: the data API searches in SQL and answers the first few, so a project of thousands
 * of tables offers a short list, and the search finds the others. A GET form beside the page's own:
 * it works without JavaScript; `keep` are the page's other parameters (an upload's preview). The
 * tables are the source database's (the load page), either database's (the data page) or a mapping project's file data structure (Translate a file).
 */
export function FindTableForm({
  action,
  choices,
  keep = {},
  of = "source database",
}: {
  action: string;
  choices: TableChoices;
  keep?: Record<string, string | null | undefined>;
  /** Where the tables are: said when it has none. */
  of?: "source database" | "destination database" | "file data structure";
}) {
  const { search, names, matching } = choices;
  return (
    <Form method="get" action={action} role="search" aria-label="Find a table" className="flex flex-col gap-2">
      {/* An empty parameter is no choice: left out. */}
      <KeptFields keep={Object.fromEntries(Object.entries(keep).map(([key, value]) => [key, value || undefined]))} />
      <div className="flex flex-wrap items-end gap-4">
        <SearchField id="find-table" label="Table name contains" value={search} />
        <Button type="submit" variant="outline">
          Find tables
        </Button>
      </div>
      <p role="status" className="text-sm text-muted-foreground">
        {tableChoicesNote(search, names.length, matching, of)}
      </p>
    </Form>
  );
}

/** Says what the Table select holds: every table that matches, or the first of many, for the search or without one. */
function tableChoicesNote(search: string, shown: number, matching: number, of: string): string {
  if (matching === 0) return search ? `No table's name contains “${search}”.` : `The ${of} has no tables.`;
  const which = `${matching.toLocaleString("en")} table${matching === 1 ? "" : "s"}${search ? ` whose name contains “${search}”` : ""}`;
  return shown < matching ? `The Table list offers the first ${shown} of ${which}: search to find the others.` : `The Table list offers the ${which}.`;
}

/** The Table select's options: the tables the search found, and the one already chosen when the search does not list it. */
export function tableOptionsOf(choices: TableChoices, chosen: string | null | undefined) {
  const names = chosen && !choices.names.includes(chosen) ? [chosen, ...choices.names] : choices.names;
  return names.map((t) => ({ value: t, label: t }));
}
