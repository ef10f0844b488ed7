import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * axe on the page as it is: no violation of WCAG 2.1 A/AA. The page must live in its own
 * `browser.newContext()` (the `page` fixture does), which AxeBuilder needs: it opens a blank page in
 * the same context.
 */
export async function expectNoViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(results.passes.length, "axe checked the page").toBeGreaterThan(0);
  const violations = results.violations.map((v) => ({
    rule: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(" "), html: n.html, why: n.failureSummary })),
  }));
  expect(violations, `axe violations on ${page.url()}`).toEqual([]);
}
