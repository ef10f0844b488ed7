/**
 * The URLs of the master data dictionary pages (spec §2), in one place: routes.ts registers them,
 * loaders redirect to them and components link to them (always through companyHref).
 */
export const DICTIONARIES_PATH = "/migration/data-dictionary";
export const CREATE_DICTIONARY_PATH = `${DICTIONARIES_PATH}/create/new/application`;

/** create: the draft's wizard; edit: a dictionary being changed; view: read-only. */
export type DictionaryMode = "create" | "edit" | "view";

const base = (mode: DictionaryMode, id: string) => `${DICTIONARIES_PATH}/${mode}/${encodeURIComponent(id)}`;

export const dictionaryPaths = {
  application: (mode: DictionaryMode, id: string) => `${base(mode, id)}/application`,
  definition: (mode: Exclude<DictionaryMode, "create">, id: string) => `${base(mode, id)}/data-definition`,
  newTable: (id: string) => `${base("edit", id)}/data-definition/tables/new`,
  table: (id: string, tableId: string) => `${base("edit", id)}/data-definition/tables/${encodeURIComponent(tableId)}`,
  /** The upload step of the create wizard, or the bulk update of an existing dictionary. */
  upload: (mode: Exclude<DictionaryMode, "view">, id: string) =>
    mode === "create" ? `${base(mode, id)}/upload-data` : `${base(mode, id)}/bulk-update`,
  review: (mode: Exclude<DictionaryMode, "view">, id: string) =>
    mode === "create" ? `${base(mode, id)}/review/tables` : `${base(mode, id)}/bulk-update/review/tables`,
};

/** The mode of a dictionary page, from its URL (the same module serves create and edit). */
export function dictionaryModeOf(pathname: string): DictionaryMode {
  const mode = /\/data-dictionary\/(create|edit|view)\//.exec(pathname)?.[1];
  return mode === "create" || mode === "edit" ? mode : "view";
}

/** The search parameter holding the bulk-upload review shown on the review page. */
export const REVIEW_PARAM = "review";
