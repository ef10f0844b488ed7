/**
 * The audit log page tells its readers how long entries are kept in days, from the data API's
 * answer, not by the name of the setting (an administrator's word, in the README).
 */
import { describe, expect, it } from "vitest";
import { renderPage } from "~/test/render-page";
import AuditLog from "./audit-log";

describe("the audit log page", () => {
  const page = "/additional-options/audit-log";
  const show = (retentionDays: number) =>
    renderPage(page, page, AuditLog, {
      filters: { page: 1, pageSize: 25 },
      log: { items: [], total: 0, page: 1, pageSize: 25, retentionDays },
      companies: [],
      companyId: null,
    });

  it("says how many days entries are kept, without naming an environment variable", () => {
    const html = show(90);
    expect(html).toContain("Entries are kept for 90 days and never changed.");
    expect(html).not.toContain("AUDIT_RETENTION_DAYS");
    expect(show(1)).toContain("Entries are kept for 1 day and never changed.");
  });
});
