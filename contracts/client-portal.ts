import { z } from "zod";
import { pageOf, pageQuerySchema, repeatedQuery } from "./common";

export * from "./values/client-portal";

/** GET /api/v1/permissions/{userId} (spec §7, Base A). */
export const permissionEntrySchema = z.object({
  companyId: z.string(),
  productRoleName: z.string(),
});
export const permissionsResponseSchema = z.array(permissionEntrySchema);
export type PermissionEntry = z.infer<typeof permissionEntrySchema>;

/** GET /api/v1/branding (our path; spec §3 gives the fields). */
export const brandingSchema = z.object({
  logoUrl: z.string().nullable(),
  name: z.string(),
  termsAndConditions: z.string().nullable(),
});
export type Branding = z.infer<typeof brandingSchema>;

/** A person of a company (anyone holding a permission entry for it), as GET …/users/page answers them. */
export const companyUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  /** With `?include=roles`: the person's product role in the company (spec §7's productRoleName). */
  productRoleName: z.string().optional(),
});
export type CompanyUser = z.infer<typeof companyUserSchema>;

/**
 * GET /api/v1/companies/{companyId}/users/page: a page of the company's people, sorted by name and
 * searched in SQL (`name`: name or e-mail contains, any case), for a picker of a company of thousands;
 * `id` (repeated, at most a page) keeps only those people (the names of a project's grants).
 */
/** The most people `id` may ask for at once: the largest page. */
export const USER_IDS_AT_ONCE = 100;
export const companyUsersPageQuerySchema = pageQuerySchema.extend({
  name: z.string().trim().max(100).optional(),
  id: repeatedQuery(z.string().min(1)).refine((ids) => ids.length <= USER_IDS_AT_ONCE, `At most ${USER_IDS_AT_ONCE} ids`),
  include: z.enum(["roles"]).optional(),
});
export const companyUsersPageSchema = pageOf(companyUserSchema);

/**
 * GET /api/v1/companies/{companyId}/admin-data-sources: the company's admin data sources, that is its
 * schemes (pension or benefit schemes whose deliveries an onboarding configuration takes in), sorted
 * by name. The data API answers the same shape at the same path (contracts/data-api.ts).
 */
export const adminDataSourceSchema = z.object({
  id: z.string(),
  companyId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
});
export const adminDataSourcesResponseSchema = z.array(adminDataSourceSchema);
export type AdminDataSource = z.infer<typeof adminDataSourceSchema>;
