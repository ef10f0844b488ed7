import { createRoute } from "@hono/zod-openapi";
import { stream } from "hono/streaming";
import { z } from "zod";
import { attachment } from "../../../../shared/content-disposition.ts";
import { apiErrorSchema } from "../../../../../contracts/errors.ts";
import { auditPageSchema, auditQuerySchema, type AuditEntry } from "../../../../../contracts/sql-access.ts";
import { AUDIT_RETENTION_DAYS_DEFAULT } from "../../../../../contracts/values/sql-access.ts";
import { requireAdmin } from "../../access.ts";
import { createRouter, errorResponses, jsonContent } from "../../openapi.ts";
import { auditBatches, searchAudit } from "../../repositories/audit-log.ts";
import { csvLine } from "../../translations/csv-line.ts";

const tags = ["Audit log"];
const errors = { 401: errorResponses[401], 403: jsonContent(apiErrorSchema, "Not SuperAdmin or Support (Additional Options).") } as const;

const list = createRoute({
  method: "get",
  path: "/audit-log",
  tags,
  summary: "The audit log (Additional Options: SuperAdmin, Support), newest first",
  description:
    "Filtered by company, user, workspace (id or part of its name), action, date range (UTC days, inclusive) and target text, paged in SQL. `retentionDays`: how long entries are kept (AUDIT_RETENTION_DAYS).",
  request: { query: auditQuerySchema },
  responses: { 200: jsonContent(auditPageSchema, "A page of entries."), ...errors },
});

const csv = createRoute({
  method: "get",
  path: "/audit-log.csv",
  tags,
  summary: "Every entry the filters keep, as CSV, streamed",
  request: { query: auditQuerySchema },
  responses: { 200: { description: "text/csv", content: { "text/csv": { schema: z.string() } } }, ...errors },
});

export const AUDIT_CSV_HEADER = [
  "at",
  "company_id",
  "workspace_id",
  "workspace_name",
  "user_id",
  "user_name",
  "action",
  "target",
  "summary",
  "reason",
] as const;

/**
 * A cell as a spreadsheet shows it, never as a formula it runs: the log is opened in Excel and the like
 * by the staff who read it, and names in it are typed by others (a project called `=HYPERLINK(…)`). A
 * cell starting with =, +, -, @, a tab or a carriage return gets a leading apostrophe, which a
 * spreadsheet reads as "text" (OWASP's CSV injection). Only this export: a value map's CSV is data
 * imported again, kept exactly.
 */
function asText(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

function csvRow(e: AuditEntry): string {
  const cells = [
    e.at,
    e.companyId ?? "",
    e.workspaceId ?? "",
    e.workspace?.name ?? "",
    e.userId,
    e.userName ?? "",
    e.action,
    e.target,
    JSON.stringify(e.summary),
    e.reason ?? "",
  ];
  return csvLine(cells.map(asText));
}

/** SuperAdmin and Support see every company's entries; nobody else reads the log. */
export function createAuditLogRouter() {
  return createRouter()
    .openapi(list, async (c) => {
      requireAdmin(c);
      const { db, auditRetentionDays = AUDIT_RETENTION_DAYS_DEFAULT } = c.var.deps;
      return c.json({ ...(await searchAudit(db, c.req.valid("query"))), retentionDays: auditRetentionDays }, 200);
    })
    .openapi(csv, async (c) => {
      requireAdmin(c);
      const { page: _page, pageSize: _size, ...filters } = c.req.valid("query");
      const { db } = c.var.deps;
      c.header("content-type", "text/csv; charset=utf-8");
      c.header("content-disposition", attachment("audit-log.csv"));
      // A batch of entries at a time: the log is never held whole.
      return stream(c, async (out) => {
        await out.write(csvLine(AUDIT_CSV_HEADER));
        for await (const batch of auditBatches(db, filters)) await out.write(batch.map(csvRow).join(""));
      }) as never;
    });
}
