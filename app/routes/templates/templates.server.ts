import { createContext, data, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import type { Script, Template } from "../../../contracts/templates";
import { mayEnterArea } from "~/lib/access";
import { masterTemplateApi, templateApi, type TemplateApi } from "~/lib/api/templates.server";
import { accessSettings, afterGuard, beside, callerOf, requireWrite, shellOf, type Shell } from "~/lib/guards.server";
import { templatePathsOf, type TemplatePaths } from "./paths";

export const TEMPLATE_NOT_FOUND = "Template not found.";
export const SCRIPT_NOT_FOUND = "Script not found.";

/**
 * Master templates belong to the company's area: whoever may work in the area may change them (the
 * data API checks the same rule, and refuses writes to an Archived template).
 */
export function templateAccess(shell: Shell, paths: TemplatePaths): { canWrite: boolean } {
  return { canWrite: shell.company !== null && mayEnterArea(paths.owner.area, shell.roles, accessSettings) };
}

/** The pages' scope: the shell, the paths of the page's owner, what the user may do, and the API of a template. */
export async function templateScope(context: Readonly<RouterContextProvider>) {
  const shell = await shellOf(context);
  const paths = templatePathsOf(new URL(shell.request.url).pathname);
  const access = templateAccess(shell, paths);
  const api = (templateId: string) => templateApi(callerOf(context), masterTemplateApi(templateId));
  return { shell, paths, access, api, companyId: shell.company?.id ?? null };
}

/** For actions that write: the scope once write access is checked (else a redirect to `parent`). */
export async function requireTemplateWrite(context: Readonly<RouterContextProvider>, parent: (paths: TemplatePaths) => string) {
  const scope = await templateScope(context);
  requireWrite(scope.access, parent(scope.paths), scope.companyId);
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
  const api = templateApi(callerOf(context), masterTemplateApi(id));
  const loaded = afterGuard(shellOf(context), api.get()).then(([shell, template]) => {
    if (template.companyId !== shell.company?.id || template.area !== templatePathsOf(new URL(request.url).pathname).owner.area) throw notFound(TEMPLATE_NOT_FOUND);
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
