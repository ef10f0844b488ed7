/*
 * Templates, levels and scripts (issue 11; spec §4): Zod-free, so the browser imports the labels,
 * options and limits without Zod.
 */

/** Spec §4 "Template status". Only Available templates can be assigned; Archived ones are read-only. */
export const TEMPLATE_STATUSES = ["Draft", "Available", "Archived"] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

/** Spec §4 "Core/Mapping". */
export const TEMPLATE_TYPES = ["Core", "Mapping"] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];

/** The areas with master templates (spec §2): each serves its own list with its product type. */
export const TEMPLATE_AREAS = ["migration", "translations", "onboarding"] as const;
export type TemplateArea = (typeof TEMPLATE_AREAS)[number];

/** The status moves a user may make, and the button that makes each. */
export const TEMPLATE_STATUS_MOVES: Record<TemplateStatus, readonly { to: TemplateStatus; label: string }[]> = {
  Draft: [{ to: "Available", label: "Make available" }],
  Available: [{ to: "Archived", label: "Archive" }],
  Archived: [{ to: "Available", label: "Make available again" }],
};

/** A Draft master template made by mistake may be deleted; once made available it may have been assigned, so it is archived instead. */
export const ONLY_DRAFT_DELETED_MESSAGE = "Only a Draft master template can be deleted: one made available may have been assigned. Archive it instead.";

export const TEMPLATE_SORTS = ["name", "-name", "status", "-status", "updatedAt", "-updatedAt"] as const;
export type TemplateSort = (typeof TEMPLATE_SORTS)[number];

/**
 * The most master templates assigned at once: "Assign templates" carries its ticks from page to page
 * in its URL (`selected`, repeated), and the data API copies them all in one transaction.
 */
export const MAX_TEMPLATES_ASSIGNED_AT_ONCE = 100;

/** A script's lock expires this long after it was taken when its holder went away (env SCRIPT_LOCK_TTL_MINUTES). */
export const SCRIPT_LOCK_TTL_MINUTES_DEFAULT = 120;

/** The longest script the editor saves (bytes of UTF-8). */
export const SCRIPT_SQL_MAX_BYTES = 1_000_000;
export const VERSION_COMMENT_MAX = 500;
export const LOCK_REASON_MAX = 500;

/** A level or script moved one place: the buttons of a list that works without JavaScript. */
export const MOVE_DIRECTIONS = ["up", "down"] as const;
export type MoveDirection = (typeof MOVE_DIRECTIONS)[number];
