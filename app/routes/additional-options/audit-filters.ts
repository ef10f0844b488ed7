import { DEFAULT_PAGE_SIZE, isRealDay, PAGE_SIZES } from "../../../contracts/values/common";
import { AUDIT_ACTIONS, type AuditAction } from "../../../contracts/values/sql-access";

export type AuditFilters = {
  companyId?: string;
  who?: string;
  action?: AuditAction;
  from?: string;
  to?: string;
  contains?: string;
  /** A project, configuration or mapping project (the URL's `project`): its id, or part of its name. */
  workspace?: string;
  page: number;
  pageSize: number;
};

/**
 * The audit log's filters as the page and its CSV export read them from the URL: a value that makes
 * no sense (an unknown action, a date that is not YYYY-MM-DD) is dropped rather than refused.
 */
export function auditFilters(p: URLSearchParams): AuditFilters {
  const text = (key: string) => p.get(key)?.trim().slice(0, 200) || undefined;
  const day = (key: string) => (isRealDay(p.get(key) ?? "") ? p.get(key)! : undefined);
  const action = p.get("action");
  const page = Number(p.get("page"));
  const pageSize = Number(p.get("pageSize"));
  return {
    companyId: text("company"),
    who: text("who"),
    action: (AUDIT_ACTIONS as readonly string[]).includes(action ?? "") ? (action as AuditAction) : undefined,
    from: day("from"),
    to: day("to"),
    contains: text("contains"),
    workspace: text("project"),
    page: Number.isInteger(page) && page > 0 ? page : 1,
    pageSize: (PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : DEFAULT_PAGE_SIZE,
  };
}
