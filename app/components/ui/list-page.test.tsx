/**
 * A list's page: what it shows with nothing at all in the list, past its end (an old link), and with rows.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { EmptyList, PagedList } from "./list-page";

const show = (list: { items: string[]; page: number; pageSize: number; total: number }) => {
  const Stub = createRoutesStub([
    {
      path: "/things",
      Component: () => (
        <PagedList
          list={list}
          empty={<EmptyList title="No things yet">Make one.</EmptyList>}
          noun={["thing", "things"]}
          href={(page) => `/things?page=${page}`}
        >
          <ul aria-label="Things">
            {list.items.map((t) => (
              <li key={t}>{t}</li>
            ))}
          </ul>
        </PagedList>
      ),
    },
  ]);
  return renderToStaticMarkup(<Stub initialEntries={["/things"]} />);
};

describe("a paged list", () => {
  it("shows only its empty card when the list holds nothing", () => {
    expect(show({ items: [], total: 0, page: 1, pageSize: 25 })).toBe(
      '<section class="rounded-lg border bg-white shadow-sm border-border p-6"><h2 class="text-base font-semibold">No things yet</h2><p class="mt-2 text-sm text-muted-foreground">Make one.</p></section>',
    );
  });

  it("says there is nothing on a page past the end, instead of the rows, with the pagination back", () => {
    const html = show({ items: [], total: 30, page: 9, pageSize: 25 });
    expect(html).toMatch(/^<div><p role="status"[^>]*>There is nothing on page 9\. Go back with Previous\.<\/p><nav aria-label="Pagination"/);
    expect(html).toMatch(/<a[^>]*rel="prev"[^>]*href="\/things\?page=2"/);
    expect(html).not.toContain("Things");
    expect(html).not.toContain("No things yet");
  });

  it("shows the rows and the pagination under them", () => {
    const html = show({ items: ["a", "b"], total: 30, page: 1, pageSize: 25 });
    expect(html).toMatch(/^<div><ul aria-label="Things"><li>a<\/li><li>b<\/li><\/ul><nav aria-label="Pagination"[^>]*><p>Page 1 of 2 · 30 things<\/p>/);
    expect(html).not.toContain("There is nothing");
  });
});
