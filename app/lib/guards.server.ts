/**
 * The portal's guards (spec §5, ARCHITECTURE.md §2), one mechanism: small functions that throw
 * redirects, run as route middleware on the shell and area layouts, so they run before every loader
 * AND every action of the subtree. Entity guards (lock, write) are called by the entity's routes.
 */
import { createContext, redirect, type MiddlewareFunction } from "react-router";
import type { PermissionEntry } from "../../contracts/client-portal";
import type { Company } from "../../contracts/data-api";
import { isAdmin, parseRoleAttribute } from "../../contracts/roles";
import { createLogger } from "../../services/shared/logger";
import { mayEnterArea, rolesInCompany, type AccessSettings, type Area } from "./access";
import { getPermissions, listCompanies } from "./api/companies.server";
import { requireAuth, type Authenticated } from "./auth.server";
import { COMPANY_PARAM, companyHref } from "./company-href";
import { env } from "./env.server";
import { safeRedirect } from "./safe-redirect";

const log = createLogger("portal.guards");

export const accessSettings: AccessSettings = {
  cloudTarget: env.CLOUD_TARGET,
  translationAnalystRole: env.TRANSLATION_ANALYST_ROLE,
};

/** Who is working, in which company, with which roles there. Set by `shellMiddleware`. */
export type Shell = {
  request: Request;
  authenticated: Authenticated;
  user: { id: string; name: string };
  identityRoles: string[];
  companies: Company[];
  company: Company | null;
  /** The roles that count in the selected company. */
  roles: string[];
  admin: boolean;
};

export const shellContext = createContext<Shell>();

/**
 * Signed in (else /login?redirectTo=…), companies and per-company roles loaded, and a valid
 * `companyId` in the URL: a missing or unknown one is replaced by the first company by name.
 */
export const shellMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const authenticated = await requireAuth(request);
  const as = { request, authenticated };
  const identityRoles = parseRoleAttribute(authenticated.auth.roles);
  const admin = isAdmin(identityRoles);
  const [companies, permissions] = await Promise.all([
    listCompanies(as),
    admin ? Promise.resolve<PermissionEntry[]>([]) : loadPermissions(as),
  ]);
  const sorted = [...companies].sort((a, b) => a.name.localeCompare(b.name));

  const url = new URL(request.url);
  const requested = url.searchParams.get(COMPANY_PARAM);
  const company = sorted.find((c) => c.id === requested) ?? null;
  const first = sorted[0];
  // The page's own path, checked anyway: a redirect never leaves the portal.
  if (!company && first) throw redirect(safeRedirect(companyHref(url.pathname + url.search, first.id)));

  context.set(shellContext, {
    request,
    authenticated,
    user: { id: authenticated.auth.userId, name: authenticated.auth.name },
    identityRoles,
    companies: sorted,
    company,
    roles: rolesInCompany(identityRoles, permissions, company?.id ?? null),
    admin,
  });
  return next();
};

/** Spec §8: a failed permissions call only logs a warning; the user keeps the identity roles alone. */
async function loadPermissions(as: { request: Request; authenticated: Authenticated }): Promise<PermissionEntry[] | null> {
  const userId = as.authenticated.auth.userId;
  try {
    return await getPermissions(as, userId);
  } catch (err) {
    if (err instanceof Response) throw err;
    log.warn("permissions could not be loaded; falling back to the identity roles", { userId });
    return null;
  }
}

/** Role in the area's allow list and the area available on this cloud target, else /permission-denied. */
export function requireArea(area: Area): MiddlewareFunction<Response> {
  return async ({ context }, next) => {
    const shell = context.get(shellContext);
    if (!mayEnterArea(area, shell.roles, accessSettings)) {
      throw redirect(companyHref("/permission-denied", shell.company?.id));
    }
    return next();
  };
}

/** A locked project or configuration sends lock-sensitive pages to its background-process page. */
export function requireUnlocked(entity: { isLocked: boolean }, backgroundProcessPath: string, companyId: string | null) {
  if (entity.isLocked) throw redirect(companyHref(backgroundProcessPath, companyId));
}

/** Create and edit pages, and every action that writes, need write permission; else the parent route. */
export function requireWrite(access: { canWrite: boolean }, parentPath: string, companyId: string | null) {
  if (!access.canWrite) throw redirect(companyHref(parentPath, companyId));
}
