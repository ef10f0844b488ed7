import { afterAll, describe, expect, it } from "vitest";
import { FROM_AFTER_TO_MESSAGE } from "../../../contracts/sql-access";
import { DEMO_COMPANIES } from "../../../scripts/demo-data";
import { flashOf } from "~/test/flash-of";
import { isRedirect, startLiveServices } from "~/test/live-services";

/**
 * The audit log's loader, behind the shell and area middleware, against the live services: a filter no
 * entry could match (From after To) is said next to the dates with a 400, and the log is not asked.
 */
const live = await startLiveServices();
afterAll(() => live.stop());

const { createHarness, unwrap } = await import("../workspace/test-support");
const { call } = await createHarness();
const auditLog = await import("./audit-log");
const auditCsv = await import("./audit-log-csv");

const SUPER = "super@demo.test";
const [, , birch] = DEMO_COMPANIES;
const page = `/additional-options/audit-log?companyId=${birch.id}`;

describe("the audit log's dates", () => {
  it("From after To is refused next to From with a 400, the log not asked; the same days the right way round are a page of the log", async () => {
    const refused = unwrap(await call(SUPER, `${page}&from=2026-11-20&to=2026-11-01&who=ann`, auditLog.loader));
    expect(refused?.status).toBe(400);
    expect(refused?.data).toMatchObject({ datesRefused: FROM_AFTER_TO_MESSAGE, log: null, filters: { from: "2026-11-20", to: "2026-11-01", who: "ann" } });
    const answered = (await call(SUPER, `${page}&from=2026-11-01&to=2026-11-20`, auditLog.loader)) as { datesRefused: unknown; log: { retentionDays: number } };
    expect(answered.datesRefused).toBeNull();
    expect(answered.log.retentionDays).toBeGreaterThan(0);
    // One day, From and To the same: a day's entries, not refused.
    expect(((await call(SUPER, `${page}&from=2026-11-20&to=2026-11-20`, auditLog.loader)) as { datesRefused: unknown }).datesRefused).toBeNull();
  });
});

describe("the audit log's dates that are no real day", () => {
  it("are said next to their field with a 400, and the list is shown without them", async () => {
    const refused = unwrap(await call(SUPER, `${page}&from=2026-13-45&to=yesterday&who=ann`, auditLog.loader));
    expect(refused?.status).toBe(400);
    expect(refused?.data).toMatchObject({
      daysUnread: {
        from: '"2026-13-45" is not a real date (YYYY-MM-DD): the list is not filtered by it.',
        to: '"yesterday" is not a real date (YYYY-MM-DD): the list is not filtered by it.',
      },
      datesRefused: null,
      filters: { who: "ann" },
    });
    expect(refused?.data.filters).not.toHaveProperty("from", expect.anything());
    expect(refused?.data.log.retentionDays).toBeGreaterThan(0);
    const answered = (await call(SUPER, `${page}&from=2026-11-01`, auditLog.loader)) as { daysUnread: unknown };
    expect(answered.daysUnread).toEqual({ from: null, to: null });
  });
});

describe("the audit log's CSV export", () => {
  const csv = `/additional-options/audit-log.csv?companyId=${birch.id}`;
  const exported = (query: string) => call(SUPER, `${csv}&${query}`, auditCsv.loader, { middleware: auditCsv.middleware });

  it("refuses the dates the page refuses, back on the page with why, never a file unfiltered by them; real days are a file", async () => {
    const unread = await exported("from=2026-13-45&to=yesterday&who=ann");
    expect(isRedirect(unread, `/additional-options/audit-log?companyId=${birch.id}&from=2026-13-45&to=yesterday&who=ann`)).toBe(true);
    expect((unread as Response).status).toBe(303);
    expect(await flashOf(unread)).toEqual({
      kind: "error",
      text: '"2026-13-45" is not a real date (YYYY-MM-DD): nothing was exported. "yesterday" is not a real date (YYYY-MM-DD): nothing was exported.',
    });
    const backwards = await exported("from=2026-11-20&to=2026-11-01");
    expect(isRedirect(backwards, `/additional-options/audit-log?companyId=${birch.id}&from=2026-11-20&to=2026-11-01`)).toBe(true);
    expect(await flashOf(backwards)).toEqual({ kind: "error", text: `${FROM_AFTER_TO_MESSAGE} Nothing was exported.` });
    const file = (await exported("from=2026-11-01&to=2026-11-20")) as Response;
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toBe('attachment; filename="audit-log.csv"');
    expect((await file.text()).split("\r\n")[0]).toBe("at,company_id,workspace_id,workspace_name,user_id,user_name,action,target,summary,reason");
  });
});
