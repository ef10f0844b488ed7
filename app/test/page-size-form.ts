/**
 * A list's page size choice as the server renders it (a GET form: its own, or the list's search form),
 * read for the tests of the pages that offer one.
 */
export type PageSizeChoice = {
  /** The sizes offered, the selected one marked with a star: ["10*", "25", "50", "100"]. */
  sizes: string[];
  /** What the form sends, in order: each field's name and value, "(chosen)" for the select's. */
  sent: [string, string][];
  /** Whether the select `selectId` has its "Page size" label. */
  labelled: boolean;
};

/** The page size choice of the GET form named `formLabel` (as React writes it: ' is &#x27;), its select `selectId`. */
export function pageSizeChoice(html: string, formLabel: string, selectId: string): PageSizeChoice {
  const form = new RegExp(`<form [^>]*aria-label="${formLabel}"[^>]*method="get"[^]*?</form>`).exec(html)?.[0] ?? "";
  return {
    sizes: [...form.matchAll(/<option value="(\d+)"( selected="")?/g)].map(([, n, selected]) => (selected ? `${n}*` : n!)),
    sent: [...form.matchAll(/<(?:input|select)[^>]* name="(\w+)"(?:[^>]* value="([^"]*)")?/g)].map(([, name, value]) => [name!, value ?? "(chosen)"]),
    labelled: new RegExp(`<label for="${selectId}"[^>]*>Page size</label>`).test(form),
  };
}

/** The href of the page's Previous link (Pagination's rel="prev"), its &amp; read as &: whether paging keeps the size. */
export const previousHref = (html: string) =>
  /<a [^>]*rel="prev"[^>]*href="([^"]+)"|<a [^>]*href="([^"]+)"[^>]*rel="prev"/.exec(html)?.slice(1).find(Boolean)?.replaceAll("&amp;", "&");
