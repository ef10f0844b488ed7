import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { adminDataSourcesResponseSchema, companiesResponseSchema } from "../../../../../contracts/data-api.ts";
import { HTTPException } from "hono/http-exception";
import { companyScope, requireAreaRole } from "../../access.ts";
import { ADMIN_DATA_SOURCES_UNAVAILABLE_MESSAGE, AdminDataSourcesUnavailableError } from "../../admin-data-sources.ts";
import { apiErrorSchema } from "../../../../../contracts/errors.ts";
import { createRouter, errorResponses, jsonContent } from "../../openapi.ts";
import { listCompanies } from "../../repositories/companies.ts";

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
  summary: "The company's admin data sources: its schemes, sorted by name",
  description:
    "The schemes onboarding configurations serve. The client portal keeps them; this answers its list (asked with the caller's token) for a company the caller may see, to the Data Onboarding area's roles in it (as the configurations' own routes): another role there (a Viewer, a Manager, a ClientAdmin) is refused with 403, and on a cloud target without Data Onboarding (AZURE) the answer is 404.",
  request: { params: companyIdParams },
  responses: {
    200: jsonContent(adminDataSourcesResponseSchema, "The company's schemes."),
    401: errorResponses[401],
    403: jsonContent(apiErrorSchema, "The caller's role for the company is not one of the Data Onboarding area's roles."),
    404: errorResponses[404],
    503: jsonContent(errorResponses[503].content["application/json"].schema, "The caller's permissions or the company's schemes could not be loaded from the client portal."),
  },
});

export function createCompaniesRouter() {
  return createRouter()
    .openapi(listAll, async (c) => {
      const scope = await companyScope(c);
      return c.json(await listCompanies(c.var.deps.db, scope), 200);
    })
    .openapi(listDataSources, async (c) => {
      // Only onboarding configurations serve schemes: their area's rule, as checkdefaultproject's and the configurations' own.
      const company = await requireAreaRole(c, "onboarding", c.req.valid("param").id, { write: false });
      try {
        return c.json(await c.var.deps.adminDataSources.list(c.var.caller, company.id), 200);
      } catch (err) {
        if (!(err instanceof AdminDataSourcesUnavailableError)) throw err;
        c.var.deps.logger.warn("admin data sources unavailable", { err, companyId: company.id, requestId: c.var.requestId });
        throw new HTTPException(503, { message: ADMIN_DATA_SOURCES_UNAVAILABLE_MESSAGE });
      }
    });
}
