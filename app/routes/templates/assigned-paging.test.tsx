/**
 * A workspace's run order past 100 templates: the rest are on a next page, numbered and moved as places
 * in the whole order, rather than out of reach (the list read its first 100 and showed no more).
 */
import { describe, expect, it } from "vitest";
import { templateSummaryOf } from "~/test/fixtures";
import { renderPage } from "~/test/render-page";
import AssignedTemplates from "./assigned";

const page = "/migration/projects/p1/templates/assigned";
const template = (n: number) => templateSummaryOf({ id: `t${n}`, name: `Template ${n}` });
const show = (search: string, numbers: number[], pageNumber: number) =>
  renderPage(page, `${page}${search}`, AssignedTemplates, {
    templates: { items: numbers.map(template), total: 101, page: pageNumber, pageSize: 100 },
    canWrite: true,
  });
const moveButton = (html: string, name: string, direction: "up" | "down") =>
  new RegExp(`<button[^>]*aria-label="Move template ${name} ${direction}"[^>]*>`).exec(html)?.[0] ?? "";

describe("the run order of 101 templates", () => {
  it("offers the 101st on page 2, numbered 101, last in the order: it moves up, not down", () => {
    const html = show("?page=2", [101], 2);
    expect(html).toMatch(/<td[^>]*>101<\/td>/);
    expect(moveButton(html, "Template 101", "up")).not.toContain("disabled");
    expect(moveButton(html, "Template 101", "down")).toContain("disabled");
    expect(html).toContain("Page 2 of 2");
    expect(html).toMatch(new RegExp(`<a [^>]*href="${page}"[^>]*rel="prev"|<a [^>]*rel="prev"[^>]*href="${page}"`));
  });

  it("lets the 100th on page 1 move down, to the next page's place", () => {
    const html = show(
      "",
      Array.from({ length: 100 }, (_, i) => i + 1),
      1,
    );
    expect(moveButton(html, "Template 100", "down")).not.toContain("disabled");
    expect(moveButton(html, "Template 1", "up")).toContain("disabled");
    expect(html).toMatch(new RegExp(`href="${page}\\?page=2"`));
  });
});
