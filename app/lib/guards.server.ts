/**
 * The portal's guards (spec §5, ARCHITECTURE.md §2), one mechanism: small functions that throw
 * redirects, run as route middleware on the shell and area layouts, so they run before every loader
 * AND every action of the subtree. Entity guards (lock, write) are called by the entity's routes.
 */
import { createContext, redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import type { PermissionEntry } from "../../contracts/client-portal";
import type { Company } from "../../contracts/data-api";
import type { LockReason } from "../../contracts/projects";
import { LOCK_REASON_LABELS } from "../../contracts/values/projects";
import { isAdmin, parseRoleAttribute } from "../../contracts/roles";
import { createLogger } from "../../services/shared/logger";
import { mayEnterArea, rolesInCompany, type AccessSettings, type Area } from "./access";
import type { Caller } from "./api.server";
import { getPermissions, listCompanies } from "./api/companies.server";
import { requireAuth, type Authenticated } from "./auth.server";
import { COMPANY_PARAM, companyHref } from "./company-href";
import { env } from "./env.server";
import { redirectWithFlash } from "./flash.server";
import { safeRedirect } from "./safe-redirect";
import { sessionCached } from "./session-cache.server";

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

/**
 * The shell of the request, as a promise: the companies and roles may still be on their way while
 * the loaders start their own calls (one round trip, not two). Read it with `await shellOf(context)`.
 */
const shellContext = createContext<Promise<Shell>>();
/** The signed-in caller: known as soon as the session is, before the shell's data. */
const callerContext = createContext<Caller>();

/** The shell: who, which company (checked against the companies the user may see), which roles. Throws the shell's redirect. */
export function shellOf(context: Readonly<RouterContextProvider>): Promise<Shell> {
  return context.get(shellContext);
}

/**
 * The signed-in user's request and tokens, for calls a loader starts before the shell is known.
 * Such a call's answer is used only after `await shellOf(context)` (or a guard built on it) passed.
 */
export function callerOf(context: Readonly<RouterContextProvider>): Caller {
  return context.get(callerContext);
}

/**
 * The `companyId` of the URL, before the shell checked it: for calls started beside the shell's
 * (the data API refuses a company the user may not see); the page uses their answer only once
 * `shellOf` confirmed it is the selected company.
 */
export function requestedCompanyId(context: Readonly<RouterContextProvider>): string | null {
  return new URL(callerOf(context).request.url).searchParams.get(COMPANY_PARAM) || null;
}

/**
 * Signed in (else /login?redirectTo=…), companies and per-company roles loaded, and a valid
 * `companyId` in the URL: a missing or unknown one is replaced by the first company by name.
 * The companies and roles come from the session's cache (session-cache.server.ts) or are asked
 * while the page's loaders already run: see `beside`.
 */
export const shellMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const authenticated = await requireAuth(request);
  const as = { request, authenticated };
  context.set(callerContext, as);
  const shell = loadShell(as);
  context.set(shellContext, shell);
  return beside(request, shell, next);
};

async function loadShell(as: Caller): Promise<Shell> {
  const { request, authenticated } = as;
  const identityRoles = parseRoleAttribute(authenticated.auth.roles);
  const admin = isAdmin(identityRoles);
  const { companies, permissions } = await sessionCached(
    { sessionId: authenticated.session.id, userId: authenticated.auth.userId },
    async () => {
      const [companies, permissions] = await Promise.all([
        listCompanies(as),
        admin ? Promise.resolve<PermissionEntry[]>([]) : loadPermissions(as),
      ]);
      return { companies: [...companies].sort((a, b) => a.name.localeCompare(b.name)), permissions };
    },
    // Roles that fell back to the identity's (permissions unavailable) are asked again next time.
    (value) => value.permissions !== null,
  );

  const url = new URL(request.url);
  const requested = url.searchParams.get(COMPANY_PARAM);
  const company = companies.find((c) => c.id === requested) ?? null;
  const first = companies[0];
  // The page's own path, checked anyway: a redirect never leaves the portal.
  if (!company && first) throw redirect(safeRedirect(companyHref(url.pathname + url.search, first.id)));

  return {
    request,
    authenticated,
    user: { id: authenticated.auth.userId, name: authenticated.auth.name },
    identityRoles,
    companies,
    company,
    roles: rolesInCompany(identityRoles, permissions, company?.id ?? null),
    admin,
  };
}

/**
 * The company's data of a page, started beside the shell (one round trip, not two): `load` is called
 * with the `companyId` of the URL before the shell checked it, and its answer is handed out only once
 * the shell confirmed that company as the selected one (else the shell's redirect is thrown). Null
 * when the user has no company at all.
 */
export async function forSelectedCompany<T>(
  context: Readonly<RouterContextProvider>,
  load: (as: Caller, companyId: string) => Promise<T>,
): Promise<{ shell: Shell; value: T | null }> {
  const requested = requestedCompanyId(context);
  const pending = requested ? load(callerOf(context), requested) : null;
  pending?.catch(() => undefined);
  const shell = await shellOf(context);
  // The selected company is the requested one whenever there is one: the shell redirects otherwise.
  if (!shell.company) return { shell, value: null };
  return { shell, value: await (shell.company.id === requested && pending ? pending : load(callerOf(context), shell.company.id)) };
}

/** Spec §8: a failed permissions call only logs a warning; the user keeps the identity roles alone. */
async function loadPermissions(as: Caller): Promise<PermissionEntry[] | null> {
  const userId = as.authenticated.auth.userId;
  try {
    return await getPermissions(as, userId);
  } catch (err) {
    if (err instanceof Response) throw err;
    log.warn("permissions could not be loaded; falling back to the identity roles", { userId });
    return null;
  }
}

/**
 * Runs a guard beside the rest of the request. A page (GET, HEAD) starts its loaders while the
 * guard's calls are on their way, and the guard's verdict still wins: its redirect replaces whatever
 * the loaders answered, so nothing of theirs reaches the user unless it passes. Anything else (an
 * action writes) waits for the guard before it starts.
 */
export async function beside(request: Request, guard: Promise<unknown>, next: () => Promise<Response>): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    await guard;
    return next();
  }
  const response = next();
  // Awaited below once the guard passed; a refusal must not leave it unhandled meanwhile.
  response.catch(() => undefined);
  try {
    await guard;
  } catch (refusal) {
    // The page rendered for nobody: stop its stream rather than let it wait for a reader.
    void response.then((r) => (r instanceof Response ? r.body?.cancel() : undefined)).catch(() => undefined);
    throw refusal;
  }
  return response;
}

/**
 * The guard's answer, then the calls a loader started beside it: a refusal of the guard wins over
 * anything the calls answered or threw (a 404 for a project of another company says what the guard
 * says, not what the call said).
 */
export async function afterGuard<G, T>(guard: Promise<G>, calls: Promise<T>): Promise<[G, T]> {
  calls.catch(() => undefined);
  const passed = await guard;
  return [passed, await calls];
}

/** Role in the area's allow list and the area available on this cloud target, else /permission-denied. */
export function requireArea(area: Area): MiddlewareFunction<Response> {
  return async ({ request, context }, next) => {
    const allowed = shellOf(context).then((shell) => {
      if (!mayEnterArea(area, shell.roles, accessSettings)) throw redirect(companyHref("/permission-denied", shell.company?.id));
    });
    return beside(request, allowed, next);
  };
}

/** The flash of requireUnlocked's redirect of a write: why it landed on the background-process page, with nothing changed. */
export const lockedWriteMessage = (noun: string, lockReason: LockReason | null) =>
  `Nothing was changed: the ${noun} is locked (${lockReason ? LOCK_REASON_LABELS[lockReason] : "a background process"}) while a background job runs. ` +
  "This page follows it: try again when it has finished.";

/**
 * A locked project or configuration sends lock-sensitive pages to its background-process page (spec §5).
 * A write (`write`: its request and the workspace's noun) says why there: a post answered with that page
 * without a word would read as saved.
 */
export async function requireUnlocked(
  entity: { isLocked: boolean; lockReason?: LockReason | null },
  backgroundProcessPath: string,
  companyId: string | null,
  write?: { request: Request; noun: string },
) {
  if (!entity.isLocked) return;
  const to = companyHref(backgroundProcessPath, companyId);
  if (!write || ["GET", "HEAD"].includes(write.request.method)) throw redirect(to);
  throw await redirectWithFlash(to, { kind: "error", text: lockedWriteMessage(write.noun, entity.lockReason ?? null) });
}

/** The flash of requireWrite's redirect: the parent route says why the user landed there instead. */
export const READ_ONLY_MESSAGE = "That needs write access, and yours here is read only: nothing was changed.";

/**
 * Create and edit pages, and every action that writes, need write permission; else the parent route
 * (spec §5), which says why: a post refused there without a word would read as saved.
 */
export async function requireWrite(access: { canWrite: boolean }, parentPath: string, companyId: string | null) {
  if (!access.canWrite) throw await redirectWithFlash(companyHref(parentPath, companyId), { kind: "error", text: READ_ONLY_MESSAGE });
}
