import { z } from "zod";
import { descriptionSchema, nameSchema, requiredString, versionSchema } from "./common";

/**
 * Fusion PSI Configuration (issue 12): translation mapping projects. A mapping project is a workspace
 * of kind "translation" (contracts/workspaces.ts): the data API answers it in the projects contract
 * (projectSchema), its file data structure is its own data dictionary, and the pages and calls below
 * are what only it has.
 */

/** POST /api/v1/mapping-projects: the wizard's basic settings. */
export const createMappingProjectSchema = z.object({
  companyId: z.string().min(1),
  name: nameSchema,
  applicationId: requiredString("Choose the application the files come from"),
  description: descriptionSchema,
});

/** POST /api/v1/mapping-projects/{id}/file-data-structure/complete: the wizard's second step is done. */
export const completeStructureSchema = z.object({ version: versionSchema });
