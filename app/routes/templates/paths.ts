/**
 * The URLs of the template and script pages (spec §2), in one place: routes.ts registers the same
 * modules under /migration, /translations and /onboarding master-templates (and, with the project
 * templates, under each project), and every loader, redirect and link builds its path here from the
 * page it is on (always through companyHref).
 */
import { useLocation } from "react-router";
import type { TemplateArea } from "../../../contracts/values/templates";
import { areaOfPath } from "~/lib/menu";

/** Whose templates a page shows: an area's master templates. */
export type TemplateOwner = { kind: "master"; area: TemplateArea; base: string };

export function templateOwnerOf(pathname: string): TemplateOwner {
  const area = areaOfPath(pathname)?.area;
  const templateArea: TemplateArea = area === "translations" || area === "onboarding" ? area : "migration";
  return { kind: "master", area: templateArea, base: `/${templateArea}/master-templates` };
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
    list: base,
    create: `${base}/create`,
    edit,
    scriptCreate: (templateId: string, levelId: string) => `${level(templateId, levelId)}/script/create`,
    script: (templateId: string, levelId: string, scriptId: string, tab: ScriptTab = "") =>
      `${level(templateId, levelId)}/script/edit/${enc(scriptId)}${tab ? `/${tab}` : ""}`,
    version: (templateId: string, levelId: string, scriptId: string, version: number) => `${level(templateId, levelId)}/script/edit/${enc(scriptId)}/version/${version}`,
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
