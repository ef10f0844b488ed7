import { z } from "zod";
import { descriptionSchema, nameSchema, timestampSchema } from "./common";

/** A legacy application a company migrates from (name unique per company, case-insensitive). */
export const applicationSchema = z.object({
  id: z.string(),
  companyId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  dictionaryCount: z.number().int(),
  projectCount: z.number().int(),
  createdAt: timestampSchema,
});
export type Application = z.infer<typeof applicationSchema>;
export const applicationsResponseSchema = z.array(applicationSchema);

/** POST /api/v1/applications; also the portal's create form. */
export const createApplicationSchema = z.object({
  companyId: z.string().min(1),
  name: nameSchema,
  description: descriptionSchema,
});
export type CreateApplication = z.infer<typeof createApplicationSchema>;
