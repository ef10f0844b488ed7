/**
 * The URLs of the master data dictionary pages (spec §2), in one place: routes.ts registers the same
 * modules under /migration/data-dictionary and /onboarding/data-dictionary, and every loader, redirect
 * and link builds its path here from the area of the page it is on (always through companyHref).
 */
import { useLocation } from "react-router";
import { areaOfPath } from "~/lib/menu";

/** The areas that list the company's master dictionaries, with their route bases. */
export const MASTER_DICTIONARY_BASES = {
  migration: "/migration/data-dictionary",
  onboarding: "/onboarding/data-dictionary",
} as const;
export type MasterDictionaryArea = keyof typeof MASTER_DICTIONARY_BASES;

/** The area a portal path belongs to (the menu's answer): Onboarding below /onboarding/, else Migration. */
export function dictionaryAreaOf(pathname: string): MasterDictionaryArea {
  return areaOfPath(pathname)?.area === "onboarding" ? "onboarding" : "migration";
}

/** create: the draft's wizard; edit: a dictionary being changed; view: read-only. */
export type DictionaryMode = "create" | "edit" | "view";

const enc = encodeURIComponent;

export function masterDictionaryPaths(area: MasterDictionaryArea) {
  const list = MASTER_DICTIONARY_BASES[area];
  const base = (mode: DictionaryMode, id: string) => `${list}/${mode}/${enc(id)}`;
  return {
    area,
    list,
    createNew: `${list}/create/new/application`,
    application: (mode: DictionaryMode, id: string) => `${base(mode, id)}/application`,
    definition: (mode: Exclude<DictionaryMode, "create">, id: string) => `${base(mode, id)}/data-definition`,
    newTable: (id: string) => `${base("edit", id)}/data-definition/tables/new`,
    table: (id: string, tableId: string) => `${base("edit", id)}/data-definition/tables/${enc(tableId)}`,
    /** The upload step of the create wizard, or the bulk update of an existing dictionary. */
    upload: (mode: Exclude<DictionaryMode, "view">, id: string) =>
      mode === "create" ? `${base(mode, id)}/upload-data` : `${base(mode, id)}/bulk-update`,
    review: (mode: Exclude<DictionaryMode, "view">, id: string) =>
      mode === "create" ? `${base(mode, id)}/review/tables` : `${base(mode, id)}/bulk-update/review/tables`,
  };
}
export type MasterDictionaryPaths = ReturnType<typeof masterDictionaryPaths>;

/** The paths of the area `pathname` is in (on the server: dictionaryPathsOfRequest). */
export const dictionaryPathsOf = (pathname: string): MasterDictionaryPaths => masterDictionaryPaths(dictionaryAreaOf(pathname));

/** In components: the paths of the current page's area. */
export function useDictionaryPaths(): MasterDictionaryPaths {
  return dictionaryPathsOf(useLocation().pathname);
}

/** The mode of a dictionary page, from its URL (the same module serves create and edit). */
export function dictionaryModeOf(pathname: string): DictionaryMode {
  const mode = /\/data-dictionary\/(create|edit|view)\//.exec(pathname)?.[1];
  return mode === "create" || mode === "edit" ? mode : "view";
}

