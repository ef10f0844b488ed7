import { z } from "zod";

/** GET /api/v1/productInfo */
export const productInfoSchema = z.object({ version: z.string() });
export type ProductInfo = z.infer<typeof productInfoSchema>;

/** What a process says of itself (services/shared/product-facts.ts), with its control plane's database. */
export const processFactsSchema = z.object({
  version: z.string(),
  build: z.object({ commit: z.string().nullable(), builtAt: z.string() }).nullable(),
  startedAt: z.string(),
  uptimeSeconds: z.number(),
  controlPlane: z.enum(["SQLite", "PostgreSQL"]),
});
export type ProcessFacts = z.infer<typeof processFactsSchema>;

/** GET /api/v1/productInfo/details (SuperAdmin, Support): the data API's facts and each project database server's PostgreSQL version. */
export const productDetailsSchema = processFactsSchema.extend({
  cloudTarget: z.string(),
  databaseServers: z.array(z.object({ id: z.string(), version: z.string().nullable(), error: z.string().nullable() })),
});

/** GET /api/v1/companies/all */
export const companySchema = z.object({ id: z.string(), name: z.string() });
export const companiesResponseSchema = z.array(companySchema);
export type Company = z.infer<typeof companySchema>;

/**
 * GET /api/v1/companies/{id}/admin-data-sources: the company's schemes ("Defined Benefit Scheme", …),
 * which onboarding configurations serve. The client portal keeps them; the data API answers them
 * through its client of the client portal API, after its own company rule.
 */
export { adminDataSourceSchema, adminDataSourcesResponseSchema, type AdminDataSource } from "./client-portal";
