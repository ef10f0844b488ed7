import { z } from "zod";
import { descriptionSchema, nameSchema, pageOf, pageQuerySchema, timestampSchema } from "./common";
import { APPLICATION_SORTS } from "./values/applications";

export * from "./values/applications";

/** A legacy application a company migrates from (name unique per company, case-insensitive). */
export const applicationSchema = z.object({
  id: z.string(),
  companyId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  dictionaryCount: z.number().int(),
  /** Its migration projects (not configurations or mapping projects, which also name an application). */
  projectCount: z.number().int(),
  createdAt: timestampSchema,
});
export type Application = z.infer<typeof applicationSchema>;

/** GET /api/v1/applications: a page of the company's applications, filtered, sorted and counted in SQL. */
export const applicationSearchQuerySchema = pageQuerySchema.extend({
  companyId: z.string().min(1),
  /** Name contains, any case; `%` and `_` match themselves. */
  name: z.string().trim().max(100).optional(),
  sort: z.enum(APPLICATION_SORTS).default("name"),
});
export const applicationSearchResponseSchema = pageOf(applicationSchema);

/** POST /api/v1/applications; also the portal's create form. */
export const createApplicationSchema = z.object({
  companyId: z.string().min(1),
  name: nameSchema,
  description: descriptionSchema,
});
export type CreateApplication = z.infer<typeof createApplicationSchema>;
