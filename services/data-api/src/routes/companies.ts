import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { adminDataSourcesResponseSchema, companiesResponseSchema } from "../../../../contracts/data-api.ts";
import { companyScope, requireCompany } from "../access.ts";
import { createRouter, errorResponses, jsonContent } from "../openapi.ts";
import { listAdminDataSources, listCompanies } from "../repositories/companies.ts";

const listAll = createRoute({
  method: "get",
  path: "/companies/all",
  tags: ["Companies"],
  summary: "The companies the caller may work in, sorted by name",
  description:
    "SuperAdmin and Support: every company. Everybody else: the companies named by their client-portal permissions, whatever the product role.",
  responses: {
    200: jsonContent(companiesResponseSchema, "The visible companies, sorted by name."),
    401: errorResponses[401],
    503: errorResponses[503],
  },
});

const companyIdParams = z.object({ id: z.string().min(1) });

const listDataSources = createRoute({
  method: "get",
  path: "/companies/{id}/admin-data-sources",
  tags: ["Companies"],
  summary: "Where a company's project databases live",
  request: { params: companyIdParams },
  responses: {
    200: jsonContent(adminDataSourcesResponseSchema, "The company's data sources."),
    401: errorResponses[401],
    404: errorResponses[404],
    503: errorResponses[503],
  },
});

export function createCompaniesRouter() {
  return createRouter()
    .openapi(listAll, async (c) => {
      const scope = await companyScope(c);
      return c.json(await listCompanies(c.var.deps.db, scope), 200);
    })
    .openapi(listDataSources, async (c) => {
      const company = await requireCompany(c, c.req.valid("param").id);
      return c.json(await listAdminDataSources(c.var.deps.db, company.id), 200);
    });
}
