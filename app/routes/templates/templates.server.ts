import { createContext, data, redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { assignTemplatesSchema, MAX_TEMPLATES_ASSIGNED_AT_ONCE, type Script, type Template } from "../../../contracts/templates";
import { WORKSPACES } from "../../../contracts/workspaces";
import { mayEnterArea } from "~/lib/access";
import type { AssignableSearch } from "~/components/templates/assign-templates-form";
import { masterTemplateApi, templateApi, workspaceTemplatesApi, type TemplateApi } from "~/lib/api/templates.server";
import { accessSettings, afterGuard, beside, callerOf, requireUnlocked, requireWrite, shellOf, type Shell } from "~/lib/guards.server";
import { readFormData, serviceFailure, unknownIntent } from "~/lib/forms.server";
import type { ListPaging } from "~/lib/list-search";
import { clearedSearchHref, readContains, readPaging } from "~/lib/list-search.server";
import { projectScope } from "../workspace/workspace.server";
import { templateOwnerOf, templatePathsOf, type TemplateOwner, type TemplatePaths } from "./paths";

/** The data API path of a template of `owner`. */
export function templateApiPath(owner: TemplateOwner, templateId: string): string {
  if (owner.kind === "master") return masterTemplateApi(templateId);
  return `${WORKSPACES[owner.workspace].apiBase}/${encodeURIComponent(owner.workspaceId)}/templates/${encodeURIComponent(templateId)}`;
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
 * template. A workspace's templates follow the workspace's access (its access list) and lock.
 */
export async function templateScope(context: Readonly<RouterContextProvider>) {
  const shell = await shellOf(context);
  const paths = templatePathsOf(new URL(shell.request.url).pathname);
  const api = (templateId: string) => templateApi(callerOf(context), templateApiPath(paths.owner, templateId));
  const companyId = shell.company?.id ?? null;
  if (paths.owner.kind === "master") return { shell, paths, access: templateAccess(shell, paths), api, companyId, locked: null };
  const workspace = await projectScope(context);
  const locked = workspace.project.isLocked ? workspace.paths.page(workspace.project.id, "background-process") : null;
  // A locked workspace (a job runs on it) is read-only meanwhile.
  return { shell, paths, access: { canWrite: workspace.access.canWrite && !locked }, api, companyId, locked };
}

/**
 * For actions that write: the scope once write access is checked (else a redirect to `parent`), and
 * for a workspace's templates, once it is not locked (else its background-process page).
 */
export async function requireTemplateWrite(context: Readonly<RouterContextProvider>, parent: (paths: TemplatePaths) => string) {
  const scope = await templateScope(context);
  if (scope.locked) requireUnlocked({ isLocked: true }, scope.locked, scope.companyId);
  await requireWrite(scope.access, parent(scope.paths), scope.companyId);
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
  return workspaceTemplatesApi(callerOf(context), `${WORKSPACES[owner.workspace].apiBase}/${encodeURIComponent(owner.workspaceId)}/templates`);
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

/**
 * "Assign templates"' search (readTickedSearch) and the templates ticked on any page (?selected=, repeated:
 * the search and the page buttons carry them), as its loader reads them from the URL: at most
 * MAX_TEMPLATES_ASSIGNED_AT_ONCE, the page saying when more were dropped.
 */
export function readAssignableSearch(url: URL): AssignableSearch {
  const search = readTickedSearch(url);
  const { ids, capped } = cappedTicks(url.searchParams.getAll("selected"), MAX_TEMPLATES_ASSIGNED_AT_ONCE);
  return { ...search, selected: ids, selectionCapped: capped, leftOut: [] };
}

/**
 * What "Assign templates" offers: a page of the area's Available master templates of the workspace's
 * types that it does not hold yet (by master, or by a template of the same name), by name. The data
 * API leaves the assigned ones out in SQL, so every one can be found, however many there are.
 * Beside it, the ticks the URL carries are asked again (one search of those ids): one assigned
 * meanwhile, made Draft or Archived, or deleted would have the whole assign refused, so it leaves the
 * ticks, named in `leftOut` when it is one of the company's masters; another id just goes.
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
  return { search: { ...search, selected: search.selected.filter((id) => stillGood.has(id)), leftOut: ticked.leftOut.map((t) => t.name) }, templates };
}

/**
 * The "Assign templates" post (assigned/add and the wizard's last step): the master templates ticked
 * on every page (`selected`) are copied into the workspace, all or none. Answers null when done, else
 * the refusal to show above the form with its status (none chosen or too many: 400; a template no
 * longer Available or already assigned: 409; one not of the company, a forged id: 404).
 */
export async function assignFromForm(context: Readonly<RouterContextProvider>, request: Request, owner: Extract<TemplateOwner, { kind: "workspace" }>) {
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  if (intent !== "assign") unknownIntent(intent);
  const ticked = tickedIds(formData.getAll("selected"));
  if (ticked.length > MAX_TEMPLATES_ASSIGNED_AT_ONCE)
    return data({ errors: [`Assign at most ${MAX_TEMPLATES_ASSIGNED_AT_ONCE} templates at once: untick some.`] }, { status: 400 });
  const parsed = assignTemplatesSchema.safeParse({ templateIds: ticked });
  if (!parsed.success) return data({ errors: ["Choose at least one template to assign."] }, { status: 400 });
  try {
    await workspaceTemplates(context, owner).assign(parsed.data.templateIds);
  } catch (err) {
    const failure = serviceFailure(err);
    if (!failure || failure.status >= 500) throw err;
    return data({ errors: failure.body.errors }, { status: failure.status });
  }
  return null;
}
