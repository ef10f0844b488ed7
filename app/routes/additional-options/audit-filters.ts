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
 * no sense (an unknown action, a date that is not a real YYYY-MM-DD day) is dropped rather than refused; the page
 * says which dates it dropped, next to their fields (unreadDays).
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

/**
 * A From or To the URL gives that is no real day (2026-13-45, "yesterday"): auditFilters drops it, and the page says so
 * next to its field, with a 400, rather than show a list silently unfiltered by it; the CSV export refuses it, saying
 * `outcome`, rather than export a file that looks filtered by it. Null for a real day or none.
 */
export function unreadDays(p: URLSearchParams, outcome = "the list is not filtered by it"): { from: string | null; to: string | null } {
  const unread = (key: string) => {
    const value = p.get(key);
    return value && !isRealDay(value) ? `"${value.slice(0, 40)}" is not a real date (YYYY-MM-DD): ${outcome}.` : null;
  };
  return { from: unread("from"), to: unread("to") };
}
