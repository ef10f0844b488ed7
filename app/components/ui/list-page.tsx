import type { ReactNode } from "react";
import { Card, CardDescription } from "~/components/ui/card";
import { Pagination, PastTheEnd } from "~/components/ui/pagination";

// A list page's pieces. Beside pagination.tsx, not in it: that module is in the shell's chunk, which every page loads
// (vite.config.ts); these are only the lists'.

/**
 * A list's page under its search: `empty` when the list holds nothing at all; otherwise, in one div, the rows
 * (`children`, or PastTheEnd on a page past the end, an old link) and the Pagination under them.
 */
export function PagedList({
  list,
  empty,
  noun,
  href,
  children,
}: {
  list: { items: readonly unknown[]; page: number; pageSize: number; total: number };
  empty: ReactNode;
  noun: readonly [string, string];
  href: (page: number) => string;
  children: ReactNode;
}) {
  if (list.total === 0) return empty;
  return (
    <div>
      {list.items.length === 0 ? <PastTheEnd page={list.page} /> : children}
      <Pagination page={list.page} pageSize={list.pageSize} total={list.total} noun={noun} href={href} />
    </div>
  );
}

/** PagedList's `empty` on most lists: a card that says the list holds nothing (yet, or that matches the search), and what to do. */
export function EmptyList({ title, heading: Heading = "h2", children }: { title: string; heading?: "h2" | "h3"; children: ReactNode }) {
  return (
    <Card>
      <Heading className="text-base font-semibold">{title}</Heading>
      <CardDescription>{children}</CardDescription>
    </Card>
  );
}
