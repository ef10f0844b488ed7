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
      datesRefused: null,
      daysUnread: { from: null, to: null },
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

describe("the audit log's dates the wrong way round", () => {
  const page = "/additional-options/audit-log";
  const html = renderPage(page, `${page}?from=2026-11-20&to=2026-11-01`, AuditLog, {
    filters: { from: "2026-11-20", to: "2026-11-01", page: 1, pageSize: 25 },
    log: null,
    datesRefused: "From must be on or before To.",
    daysUnread: { from: null, to: null },
    companies: [],
    companyId: null,
  });

  it("says so next to From, which it describes, and lists no entry", () => {
    expect(html).toMatch(/<input id="audit-from"[^>]*aria-invalid="true"[^>]*aria-describedby="audit-from-error"/);
    expect(html).toMatch(/<ul id="audit-from-error"[^>]*><li>From must be on or before To\.<\/li><\/ul>/);
    expect(html).not.toContain("No entry matches");
    expect(html).not.toContain("Audit entries");
    expect(html).toContain('value="2026-11-20"');
  });

  it("offers no export, which would refuse the dates too", () => {
    expect(html).not.toContain("Export CSV");
  });
});

describe("the audit log's dates that are no real day", () => {
  const page = "/additional-options/audit-log";
  const said = '"2026-13-45" is not a real date (YYYY-MM-DD): the list is not filtered by it.';
  const html = renderPage(page, `${page}?from=2026-13-45`, AuditLog, {
    filters: { page: 1, pageSize: 25 },
    log: { items: [], total: 0, page: 1, pageSize: 25, retentionDays: 90 },
    datesRefused: null,
    daysUnread: { from: said, to: null },
    companies: [],
    companyId: null,
  });

  it("says so next to the date's field, which it describes", () => {
    expect(html).toMatch(/<input id="audit-from"[^>]*aria-invalid="true"[^>]*aria-describedby="audit-from-error"/);
    expect(html).toMatch(
      /<ul id="audit-from-error"[^>]*><li>&quot;2026-13-45&quot; is not a real date \(YYYY-MM-DD\): the list is not filtered by it\.<\/li><\/ul>/,
    );
    expect(html).not.toMatch(/<input id="audit-to"[^>]*aria-invalid/);
  });

  it("offers no export, which would refuse the date too; with the dates real, it is offered", () => {
    expect(html).not.toContain("Export CSV");
    expect(html).not.toContain("audit-log.csv");
    const to = renderPage(page, `${page}?to=yesterday`, AuditLog, {
      filters: { page: 1, pageSize: 25 },
      log: { items: [], total: 0, page: 1, pageSize: 25, retentionDays: 90 },
      datesRefused: null,
      daysUnread: { from: null, to: '"yesterday" is not a real date (YYYY-MM-DD): the list is not filtered by it.' },
      companies: [],
      companyId: null,
    });
    expect(to).not.toContain("Export CSV");
    const real = renderPage(page, `${page}?from=2026-11-01`, AuditLog, {
      filters: { from: "2026-11-01", page: 1, pageSize: 25 },
      log: { items: [], total: 0, page: 1, pageSize: 25, retentionDays: 90 },
      datesRefused: null,
      daysUnread: { from: null, to: null },
      companies: [],
      companyId: null,
    });
    expect(real).toMatch(/<a [^>]*href="\/additional-options\/audit-log\.csv\?from=2026-11-01"[^>]*>Export CSV<\/a>/);
  });
});

describe("the audit log's project", () => {
  const page = "/additional-options/audit-log";
  const entry = (
    // As the loader answers it: the data API's product type, and the kind the loader reads from it.
    workspace: { id: string; name: string; productType: string; kind: "migration" | "onboarding" } | null,
    target = "POST /api/v1/projects/:id/run",
    summary: Record<string, unknown> = { runId: "r1" },
  ) => ({
    id: `e-${workspace?.id ?? "none"}`,
    at: "2026-11-20T09:30:00.000Z",
    companyId: "birch",
    workspaceId: workspace?.id ?? null,
    workspace,
    userId: "u1",
    userName: "Ann Analyst",
    action: "api.write",
    target,
    summary,
    reason: null,
  });
  const html = renderPage(page, `${page}?companyId=acme&project=ledger`, AuditLog, {
    filters: { workspace: "ledger", page: 1, pageSize: 25 },
    log: {
      items: [
        entry({ id: "p1", name: "Quarterly ledger", productType: "Migration", kind: "migration" }),
        entry(
          { id: "c1", name: "Monthly payroll", productType: "Onboarding", kind: "onboarding" },
          "PUT /api/v1/audit-projects/:id/templates/:templateId/scripts/:scriptId",
          {},
        ),
        entry({ id: "c1", name: "Monthly payroll", productType: "Onboarding", kind: "onboarding" }, "POST /api/v1/audit-projects/:id/flat-file/loads", {
          loadId: "l1",
        }),
        entry(null, "POST /api/v1/applications"),
      ],
      total: 4,
      page: 1,
      pageSize: 25,
      retentionDays: 365,
    },
    datesRefused: null,
    daysUnread: { from: null, to: null },
    companies: [{ id: "birch", name: "Birch Logistics" }],
    companyId: "acme",
  });

  it("names each entry's project, linked to its page in the entry's company", () => {
    expect(html).toMatch(/<th[^>]*>Project<\/th>/);
    expect(html).toMatch(/<a [^>]*href="\/migration\/projects\/p1\/details\?companyId=birch"[^>]*>Quarterly ledger<\/a>/);
    expect(html).toMatch(
      /<a [^>]*href="\/onboarding\/configurations\/c1\/details\?companyId=birch"[^>]*>Monthly payroll<span[^>]*> \(configuration\)<\/span><\/a>/,
    );
  });

  it("says what an other change was in words when its route is one a support person looks for: a run, a script's new version", () => {
    const actions = [...html.matchAll(/<tr[^>]*>(?:<td[^>]*>.*?<\/td>){4}<td[^>]*>(.*?)<\/td>/g)].map((m) => m[1]);
    expect(actions).toEqual(["Run started", "Script saved (a new version)", "Flat-file load started", "Other change"]);
  });

  it("links a run's and a load's entry to the run's and the load's page, in the entry's company", () => {
    expect(html).toMatch(/<a [^>]*href="\/migration\/projects\/p1\/templates\/run-history\/r1\/details\?companyId=birch"[^>]*>Run details<\/a>/);
    expect(html).toMatch(/<a [^>]*href="\/onboarding\/configurations\/c1\/databases\/history\/l1\/details\?companyId=birch"[^>]*>Load details<\/a>/);
    expect(html.match(/>(Run|Load) details</g)).toHaveLength(2);
  });

  it("filters by project, by name or id, kept in the URL with the other filters", () => {
    expect(html).toMatch(/<label for="audit-project"[^>]*>Project<\/label><input id="audit-project" [^>]*name="project" value="ledger"/);
    expect(html).toContain('href="/additional-options/audit-log.csv?companyId=acme&amp;project=ledger"');
    // The company and the action are labelled selects of one GET parameter each, "all" first and chosen when not filtered.
    expect(html).toMatch(
      /<label for="audit-company"[^>]*>Company<\/label><select id="audit-company" name="company"[^>]*><option value="" selected="">Every company<\/option><option value="birch">Birch Logistics<\/option><\/select>/,
    );
    expect(html).toMatch(
      /<label for="audit-action"[^>]*>Action<\/label><select id="audit-action" name="action"[^>]*><option value="" selected="">Any action<\/option>/,
    );
  });
});
