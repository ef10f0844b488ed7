import { createRoute } from "@hono/zod-openapi";
import { applicationSchema, applicationSearchQuerySchema, applicationSearchResponseSchema, createApplicationSchema } from "../../../../../contracts/applications.ts";
import { requireMigrationRole } from "../../access.ts";
import { createRouter, jsonBody, jsonContent } from "../../openapi.ts";
import { createApplication, searchApplications } from "../../repositories/applications.ts";
import { dictionaryErrorResponses } from "../dictionaries/shared.ts";

const { 400: e400, 401: e401, 403: e403, 404: e404, 409: e409, 503: e503 } = dictionaryErrorResponses;

const list = createRoute({
  method: "get",
  path: "/applications",
  tags: ["Applications"],
  summary: "A page of the legacy applications a company migrates from",
  description: "Filter: name contains (any case; `%` and `_` match themselves). Sorted by name (default) or creation time, and paginated in SQL.",
  request: { query: applicationSearchQuerySchema },
  responses: {
    200: jsonContent(applicationSearchResponseSchema, "One page of the company's applications, with the total."),
    400: e400,
    401: e401,
    403: e403,
    404: e404,
    503: e503,
  },
});

const create = createRoute({
  method: "post",
  path: "/applications",
  tags: ["Applications"],
  summary: "Register an application (name unique per company, any case)",
  request: { body: jsonBody(createApplicationSchema) },
  responses: {
    201: jsonContent(applicationSchema, "The new application."),
    400: e400,
    401: e401,
    403: e403,
    404: e404,
    409: e409,
    503: e503,
  },
});

export function createApplicationsRouter() {
  const router = createRouter()
    .openapi(list, async (c) => {
      const query = c.req.valid("query");
      const company = await requireMigrationRole(c, query.companyId, { write: false });
      return c.json(await searchApplications(c.var.deps.db, { ...query, companyId: company.id }), 200);
    })
    .openapi(create, async (c) => {
      const input = c.req.valid("json");
      const company = await requireMigrationRole(c, input.companyId, { write: true });
      const application = await createApplication(c.var.deps.db, { companyId: company.id, name: input.name, description: input.description });
      return c.json(application, 201);
    });
  return router;
}
