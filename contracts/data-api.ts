import { z } from "zod";

/** GET /api/v1/productInfo */
export const productInfoSchema = z.object({ version: z.string() });
export type ProductInfo = z.infer<typeof productInfoSchema>;

/** GET /api/v1/companies/all */
export const companySchema = z.object({ id: z.string(), name: z.string() });
export const companiesResponseSchema = z.array(companySchema);
export type Company = z.infer<typeof companySchema>;

/** GET /api/v1/companies/{id}/admin-data-sources: where a company's project databases live. */
export const adminDataSourceSchema = z.object({
  id: z.string(),
  companyId: z.string(),
  name: z.string(),
  engine: z.enum(["sqlite", "postgres"]),
  description: z.string().nullable(),
});
export const adminDataSourcesResponseSchema = z.array(adminDataSourceSchema);
export type AdminDataSource = z.infer<typeof adminDataSourceSchema>;
