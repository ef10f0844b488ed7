import { CLEAR_SEARCH } from "../../../contracts/values/common";
import { createContext, data, redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { assignTemplatesSchema, MAX_TEMPLATES_ASSIGNED_AT_ONCE, type Script, type Template } from "../../../contracts/templates";
import { SERVICE_WORKSPACES } from "../../../contracts/workspaces.server";
import { mayEnterArea } from "~/lib/access";
import type { AssignableSearch } from "~/components/templates/assign-templates-form";
import { masterTemplateApi, templateApi, workspaceTemplatesApi, type TemplateApi } from "~/lib/api/templates.server";
import { accessSettings, afterGuard, beside, callerOf, requireUnlocked, requireWrite, shellOf, type Shell } from "~/lib/guards.server";
import { readFormData, serviceFailure, unknownIntent } from "~/lib/forms.server";
import { PAGING_KEYS, type ListPaging } from "~/lib/list-search";
import { clearedSearchHref, readContains, readPaging } from "~/lib/list-search.server";
import { projectScope } from "../workspace/workspace.server";
import { templateOwnerOf, templatePathsOf, type TemplateOwner, type TemplatePaths } from "./paths";

/** The data API path of a template of `owner`. */
export function templateApiPath(owner: TemplateOwner, templateId: string): string {
  if (owner.kind === "master") return masterTemplateApi(templateId);
  return `${SERVICE_WORKSPACES[owner.workspace].apiBase}/${encodeURIComponent(owner.workspaceId)}/templates/${encodeURIComponent(templateId)}`;
}

export const TEMPLATE_NOT_FOUND = "Template not found.";
export const SCRIPT_NOT_FOUND = "Script not found.";

/**
 * Master templates belong to the company's area: whoever may work in the area may change them (the
 * data API checks the same rule, and refuses writes to an Archived template).
 */
export function templateAccess(shell: Shell, paths: TemplatePaths): { canWrite: boolean } {
  return { canWrite: shell.company !== null && mayEnterArea(paths.owner.area, shell.roles, accessSettings) };
}

/**
 * The pages' scope: the shell, the paths of the page's owner, what the user may do, and the API of a
 * template. A workspace's templates follow the workspace's access (its access list) and lock: `access`
 * is read-only while a job holds the lock; `scriptAccess`, for a script's text and its editing lock,
 * is not, as in the data API (a run keeps the versions it started with, and no other job reads
 * scripts), with `lockReason` the job's, for the editor to say what a save changes meanwhile.
 */
export async function templateScope(context: Readonly<RouterContextProvider>) {
  const shell = await shellOf(context);
  const paths = templatePathsOf(new URL(shell.request.url).pathname);
  const api = (templateId: string) => templateApi(callerOf(context), templateApiPath(paths.owner, templateId));
  const companyId = shell.company?.id ?? null;
  if (paths.owner.kind === "master") {
    const access = templateAccess(shell, paths);
    return { shell, paths, access, scriptAccess: access, api, companyId, locked: null, lockReason: null, noun: "template" };
  }
  const workspace = await projectScope(context);
  const { project } = workspace;
  const locked = project.isLocked ? workspace.paths.page(project.id, "background-process") : null;
  // A locked workspace (a job runs on it) is read-only meanwhile, but for its scripts' text.
  return {
    shell,
    paths,
    access: { canWrite: workspace.access.canWrite && !locked },
    scriptAccess: { canWrite: workspace.access.canWrite },
    api,
    companyId,
    locked,
    lockReason: project.isLocked ? project.lockReason : null,
    noun: workspace.ws.noun,
  };
}

/**
 * For actions that write: the scope once write access is checked (else a redirect to `parent`), and
 * for a workspace's templates, once it is not locked (else its background-process page), unless the
 * write is a script's text or its editing lock (`scriptText`), which a job does not stop.
 */
export async function requireTemplateWrite(
  context: Readonly<RouterContextProvider>,
  parent: (paths: TemplatePaths) => string,
  { scriptText = false }: { scriptText?: boolean } = {},
) {
  const scope = await templateScope(context);
  if (scope.locked && !scriptText) {
    await requireUnlocked({ isLocked: true, lockReason: scope.lockReason }, scope.locked, scope.companyId, { request: scope.shell.request, noun: scope.noun });
  }
  await requireWrite(scriptText ? scope.scriptAccess : scope.access, parent(scope.paths), scope.companyId);
  return scope;
}

const templateContext = createContext<Promise<{ template: Template; api: TemplateApi }>>();
const scriptContext = createContext<Promise<Script>>();

/** The template of the page (loadTemplate's), with its API, once the shell's guard passed. */
export const templateOf = (context: Readonly<RouterContextProvider>) => context.get(templateContext);
/** The script of the page (loadScript's). */
export const scriptOf = (context: Readonly<RouterContextProvider>) => context.get(scriptContext);

const notFound = (message: string) => data({ errors: [message] }, { status: 404 });

/**
 * The template layout's middleware: loads `:templateId` once for the layout and every page below it,
 * beside the shell's data. A template of another company than the selected one answers 404, like an
 * unknown id (the data API answers 404 for a company the user may not see).
 */
export const loadTemplate: MiddlewareFunction<Response> = async ({ request, params, context }, next) => {
  const id = params.templateId;
  if (!id) throw notFound(TEMPLATE_NOT_FOUND);
  const owner = templateOwnerOf(new URL(request.url).pathname);
  const api = templateApi(callerOf(context), templateApiPath(owner, id));
  const loaded = afterGuard(shellOf(context), api.get()).then(([shell, template]) => {
    const ownersMatch = owner.kind === "master" ? template.projectId === null : template.projectId === owner.workspaceId;
    if (template.companyId !== shell.company?.id || template.area !== owner.area || !ownersMatch) throw notFound(TEMPLATE_NOT_FOUND);
    return { template, api };
  });
  context.set(templateContext, loaded);
  return beside(request, loaded, next);
};

/** The script layout's middleware: `:scriptId` of the page's template, in the URL's level. */
export const loadScript: MiddlewareFunction<Response> = async ({ request, params, context }, next) => {
  const script = templateOf(context).then(async ({ api }) => {
    const found = await api.getScript(params.scriptId ?? "");
    if (found.levelId !== params.levelId) throw notFound(SCRIPT_NOT_FOUND);
    return found;
  });
  context.set(scriptContext, script);
  return beside(request, script, next);
};

/** A workspace's own templates (list, assign, create, order, remove, compare), for the workspace pages. */
export function workspaceTemplates(context: Readonly<RouterContextProvider>, owner: Extract<TemplateOwner, { kind: "workspace" }>) {
  return workspaceTemplatesApi(callerOf(context), `${SERVICE_WORKSPACES[owner.workspace].apiBase}/${encodeURIComponent(owner.workspaceId)}/templates`);
}

/** The owner of a workspace's page, or a 404 on a master one (never expected: routes.ts registers these pages under workspaces only). */
export function workspaceOwnerOf(request: Request): Extract<TemplateOwner, { kind: "workspace" }> {
  const owner = templateOwnerOf(new URL(request.url).pathname);
  if (owner.kind !== "workspace") throw notFound("Not found.");
  return owner;
}

/** Ids ticked (a repeated parameter of the URL or the post: `selected`), each once, in the order sent. */
export const tickedIds = (values: readonly FormDataEntryValue[]) => [...new Set(values.filter((v): v is string => typeof v === "string" && v.trim() !== ""))];

/**
 * The ids ticked (tickedIds) that a page carries on in its URL: the first `max`, and whether more were dropped
 * (its page says so), so that its URL stays short enough to be read, however many were ticked.
 */
export function cappedTicks(values: readonly FormDataEntryValue[], max: number): { ids: string[]; capped: boolean } {
  const ticked = tickedIds(values);
  return { ids: ticked.slice(0, max), capped: ticked.length > max };
}

/**
 * The search, page and page size (?name=&page=&pageSize=) of a page of templates whose ticks outlive paging
 * (TickedTemplates), as its loader reads them from the URL. Its "Clear search" submits the form with the
 * ticks: it is redirected to the URL without the search.
 */
export function readTickedSearch(url: URL): ListPaging<"name"> & { name: string } {
  const cleared = clearedSearchHref(url);
  if (cleared) throw redirect(cleared);
  return { name: readContains(url.searchParams), ...readPaging(url.searchParams, ["name"], "name") };
}

/** Ticks a page of TickedTemplates carries (`name`, repeated), at most `max` at once: "templates", "levels". */
export type TickCap = { name: string; max: number; noun: string };

/**
 * Search, Clear search, Previous/Next and the page size of a page of TickedTemplates: its form posts them (a post
 * without `intent`), so that however many boxes the page holds, no request carries more ticks in its URL than the
 * caps allow (a GET of a page's 300 ticks was 15 KB, refused by the server with a blank 431). Within the caps:
 * the URL of the page asked for, carrying the form's ticks and `keep` (the page's other fields), for a redirect.
 * Past them: the refusal to show at the top, with a 400, the page and its ticks as they were.
 */
export function ticksNavigation(
  request: Request,
  formData: FormData,
  { ticks, keep = [] }: { ticks: readonly TickCap[]; keep?: readonly string[] },
): { to: string; refusal?: never } | { refusal: string; to?: never } {
  const params = new URLSearchParams();
  const one = (key: string) => {
    const value = formData.get(key);
    if (typeof value === "string" && value !== "") params.set(key, value.slice(0, 100));
  };
  for (const key of ["companyId", "name", PAGING_KEYS.pageSize, PAGING_KEYS.page, CLEAR_SEARCH.name, ...keep]) one(key);
  const over: string[] = [];
  for (const cap of ticks) {
    const ids = tickedIds(formData.getAll(cap.name));
    if (ids.length > cap.max) over.push(`${ids.length} ${cap.noun}`);
    for (const id of ids) params.append(cap.name, id);
  }
  if (over.length) {
    const most = ticks.map((cap) => `${cap.max} ${cap.noun}`).join(" and ");
    return { refusal: `At most ${most} can be chosen at once, and ${over.join(" and ")} are ticked: untick some, then search or change page again.` };
  }
  const url = new URL(`${new URL(request.url).pathname}?${params}`, request.url);
  return { to: clearedSearchHref(url) ?? `${url.pathname}${url.search}` };
}

/**
 * "Assign templates"' search (readTickedSearch) and the templates ticked on any page (?selected=, repeated:
 * the search and the page buttons carry them), as its loader reads them from the URL: at most
 * MAX_TEMPLATES_ASSIGNED_AT_ONCE, the page saying when more were dropped.
 */
export function readAssignableSearch(url: URL): AssignableSearch {
  const search = readTickedSearch(url);
  const { ids, capped } = cappedTicks(url.searchParams.getAll("selected"), MAX_TEMPLATES_ASSIGNED_AT_ONCE);
  return { ...search, selected: ids, selectionCapped: capped, leftOut: [], named: [] };
}

/**
 * What "Assign templates" offers: a page of the area's Available master templates of the workspace's
 * types that it does not hold yet (by master, or by a template of the same name), by name. The data
 * API leaves the assigned ones out in SQL, so every one can be found, however many there are.
 * Beside it, the ticks the URL carries are asked again (one search of those ids): one assigned
 * meanwhile, made Draft or Archived, or deleted would have the whole assign refused, so it leaves the
 * ticks, named in `leftOut` when it is one of the company's masters; another id just goes. Those left are
 * named in `named`, for the page to say which are ticked on other pages.
 */
export async function assignableTemplates(
  context: Readonly<RouterContextProvider>,
  owner: Extract<TemplateOwner, { kind: "workspace" }>,
  search: AssignableSearch,
) {
  const api = workspaceTemplates(context, owner);
  const [templates, ticked] = await Promise.all([
    api.assignable({ name: search.name || undefined, page: search.page, pageSize: search.pageSize }),
    search.selected.length ? api.assignable({ id: search.selected, page: 1, pageSize: MAX_TEMPLATES_ASSIGNED_AT_ONCE }) : null,
  ]);
  if (!ticked) return { search, templates };
  const stillGood = new Set(ticked.items.map((t) => t.id));
  const named = ticked.items.map((t) => ({ id: t.id, name: t.name }));
  return { search: { ...search, selected: search.selected.filter((id) => stillGood.has(id)), leftOut: ticked.leftOut.map((t) => t.name), named }, templates };
}

/**
 * The "Assign templates" post (assigned/add and the wizard's last step): the master templates ticked
 * on every page (`selected`) are copied into the workspace, all or none. Answers null when done, else
 * the refusal to show above the form with its status (none chosen or too many: 400; a template no
 * longer Available or already assigned: 409; one not of the company, a forged id: 404), with the ticks posted.
 * Its form's search and pages post too, without an intent (ticksNavigation): the redirect to the page asked for.
 */
export async function assignFromForm(context: Readonly<RouterContextProvider>, request: Request, owner: Extract<TemplateOwner, { kind: "workspace" }>) {
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  const ticked = tickedIds(formData.getAll("selected"));
  // The page's ticks as posted, for the page shown again with the refusal (without JavaScript it is drawn from them).
  const refuse = (errors: string[], status: number) => data({ errors, selected: ticked }, { status });
  if (intent === null) {
    const to = ticksNavigation(request, formData, { ticks: [{ name: "selected", max: MAX_TEMPLATES_ASSIGNED_AT_ONCE, noun: "templates" }] });
    return to.refusal === undefined ? redirect(to.to) : refuse([to.refusal], 400);
  }
  if (intent !== "assign") unknownIntent(intent);
  if (ticked.length > MAX_TEMPLATES_ASSIGNED_AT_ONCE) return refuse([`Assign at most ${MAX_TEMPLATES_ASSIGNED_AT_ONCE} templates at once: untick some.`], 400);
  const parsed = assignTemplatesSchema.safeParse({ templateIds: ticked });
  if (!parsed.success) return refuse(["Choose at least one template to assign."], 400);
  try {
    await workspaceTemplates(context, owner).assign(parsed.data.templateIds);
  } catch (err) {
    const failure = serviceFailure(err);
    if (!failure || failure.status >= 500) throw err;
    return refuse(failure.body.errors, failure.status);
  }
  return null;
}
