import { z } from "zod";

/** GET /api/v1/productInfo */
export const productInfoSchema = z.object({ version: z.string() });
export type ProductInfo = z.infer<typeof productInfoSchema>;

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
