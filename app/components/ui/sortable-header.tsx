import { Icon } from "~/components/ui/icon";
import { Link } from "react-router";

/** The column a sort value names: "-name" → "name". */
export type SortKeyOf<S extends string> = S extends `-${infer K}` ? K : S;

function parseSort<S extends string>(sort: S) {
  const descending = sort.startsWith("-");
  return { key: (descending ? sort.slice(1) : sort) as SortKeyOf<S>, descending };
}

/** For a table's caption: "name, ascending". */
export function sortDescription<S extends string>(sort: S, labels: Record<SortKeyOf<S>, string>): string {
  const { key, descending } = parseSort(sort);
  return `${labels[key]}, ${descending ? "descending" : "ascending"}`;
}

/**
 * A column header that links to the list sorted by it (a link, so no JavaScript is needed); a second
 * click reverses the order. The sorted column carries aria-sort. `to(sort)` answers the list's URL
 * with that sort, keeping the other parameters (and going back to page 1).
 */
export function SortableHeader<S extends string>({
  label,
  column,
  sort,
  to,
  className,
}: {
  label: string;
  column: SortKeyOf<S>;
  sort: S;
  to: (sort: S) => string;
  className?: string;
}) {
  const { key, descending: sortedDescending } = parseSort(sort);
  const active = key === column;
  const descending = active && sortedDescending;
  const next = (active && !descending ? `-${column}` : column) as S;
  const icon = !active ? "arrow-up-down" : descending ? "arrow-down" : "arrow-up";
  return (
    <th scope="col" aria-sort={active ? (descending ? "descending" : "ascending") : undefined} className={className}>
      <Link to={to(next)} className="inline-flex items-center gap-1 hover:text-slate-900" discover="none">
        {label}
        <Icon name={icon} className="size-3.5" />{" "}
        <span className="sr-only">{active ? `(sorted ${descending ? "descending" : "ascending"}; sort ${descending ? "ascending" : "descending"})` : "(sort)"}</span>
      </Link>
    </th>
  );
}
