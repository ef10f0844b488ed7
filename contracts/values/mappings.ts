import type { ProjectStatus } from "./projects";

/** The statuses a translation mapping project goes through (its wizard, then as a project's). */
export const MAPPING_PROJECT_STATUSES = [
  "SetupAddColumnsIncomplete",
  "SetupAssignTemplatesIncomplete",
  "Active",
  "Inactive",
  "Completed",
] as const satisfies readonly ProjectStatus[];
