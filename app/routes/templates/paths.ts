/**
 * The URLs of the template and script pages (spec §2), in one place: routes.ts registers the same
 * modules under /migration, /translations and /onboarding master-templates (and, with the project
 * templates, under each project), and every loader, redirect and link builds its path here from the
 * page it is on (always through companyHref).
 */
import { useLocation } from "react-router";
import { WORKSPACE_KINDS, WORKSPACES, type WorkspaceKind } from "../../../contracts/workspaces";
import { TEMPLATE_TYPES, type TemplateArea, type TemplateType } from "../../../contracts/values/templates";
import { areaOfPath } from "~/lib/menu";

/**
 * Whose templates a page shows: an area's master templates, or a workspace's own (a migration
 * project's, an onboarding configuration's), below `{routeBase}/{id}/templates`.
 */
export type TemplateOwner =
  { kind: "master"; area: TemplateArea; base: string } | { kind: "workspace"; area: TemplateArea; base: string; workspace: WorkspaceKind; workspaceId: string };

/** A path's segment decoded; one that does not decode (…/%E0%A4%A/…, refused by the root with a 400 page) as it is. */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function templateOwnerOf(pathname: string): TemplateOwner {
  for (const kind of WORKSPACE_KINDS) {
    const { routeBase, area } = WORKSPACES[kind];
    const match = new RegExp(`^${routeBase}/(?!create/)([^/]+)/templates(?:/|$)`).exec(pathname);
    if (match)
      return {
        kind: "workspace",
        area: area as TemplateArea,
        base: `${routeBase}/${match[1]}/templates`,
        workspace: kind,
        workspaceId: decodedSegment(match[1]!),
      };
  }
  const area = areaOfPath(pathname)?.area;
  const templateArea: TemplateArea = area === "translations" || area === "onboarding" ? area : "migration";
  return { kind: "master", area: templateArea, base: `/${templateArea}/master-templates` };
}

/**
 * The types a template of `owner` may have, the one a new template starts with first: a workspace's
 * own are of the types it takes (a mapping project's: Mapping only, as the data API checks). Fusion PSI
 * Configuration's master templates start as Mapping, the only ones its mapping projects can be assigned.
 */
export function templateTypesOf(owner: TemplateOwner): readonly TemplateType[] {
  if (owner.kind === "workspace") return WORKSPACES[owner.workspace].templateTypes;
  return owner.area === "translations" ? [...TEMPLATE_TYPES].reverse() : TEMPLATE_TYPES;
}

const enc = encodeURIComponent;

/** The script pages' tabs, each its own URL under script/edit/{scriptId}. */
export const SCRIPT_TABS = [
  { tab: "", label: "Edit" },
  { tab: "details", label: "Details" },
  { tab: "history", label: "History" },
  { tab: "lock-audit", label: "Lock audit" },
  { tab: "info", label: "Info" },
] as const;
export type ScriptTab = (typeof SCRIPT_TABS)[number]["tab"];

export function templatePaths(owner: TemplateOwner) {
  const { base } = owner;
  const edit = (templateId: string) => `${base}/${enc(templateId)}/edit`;
  const level = (templateId: string, levelId: string) => `${edit(templateId)}/level/${enc(levelId)}`;
  return {
    owner,
    /** The list: an area's master templates, or a workspace's assigned ones in run order. */
    list: owner.kind === "master" ? base : `${base}/assigned`,
    assign: `${base}/assigned/add`,
    /** Runs need databases: null for a workspace without (a mapping project) and for master templates. */
    runs: owner.kind === "workspace" && WORKSPACES[owner.workspace].features.databases ? { run: `${base}/run`, history: `${base}/run-history` } : null,
    create: `${base}/create`,
    compareMaster: (templateId: string) => `${edit(templateId)}/compare-master`,
    edit,
    scriptCreate: (templateId: string, levelId: string) => `${level(templateId, levelId)}/script/create`,
    script: (templateId: string, levelId: string, scriptId: string, tab: ScriptTab = "") =>
      `${level(templateId, levelId)}/script/edit/${enc(scriptId)}${tab ? `/${tab}` : ""}`,
    version: (templateId: string, levelId: string, scriptId: string, version: number) =>
      `${level(templateId, levelId)}/script/edit/${enc(scriptId)}/version/${version}`,
    scriptView: (templateId: string, levelId: string, scriptId: string) => `${level(templateId, levelId)}/script/view/${enc(scriptId)}`,
  };
}
export type TemplatePaths = ReturnType<typeof templatePaths>;

export const templatePathsOf = (pathname: string): TemplatePaths => templatePaths(templateOwnerOf(pathname));

/** In components: the paths of the current page's owner. */
export function useTemplatePaths(): TemplatePaths {
  return templatePathsOf(useLocation().pathname);
}

/** Set by the create page's redirect: the list highlights the template just created. */
export const CREATED_PARAM = "created";
