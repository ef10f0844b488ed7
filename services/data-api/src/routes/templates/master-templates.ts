import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { versionSchema } from "../../../../../contracts/common.ts";
import { createTemplateSchema, templatePageSchema, templateSchema, templateSearchQuerySchema } from "../../../../../contracts/templates.ts";
import { requireAreaRole } from "../../access.ts";
import { NotFoundError } from "../../api-problem.ts";
import { createRouter, jsonBody, jsonContent } from "../../openapi.ts";
import {
  createTemplate,
  createTemplateOnce,
  deleteDraftMasterTemplate,
  findTemplateRef,
  getTemplate,
  searchTemplates,
  TEMPLATE_NOT_FOUND_MESSAGE,
} from "../../repositories/templates.ts";
import { createTemplateRoutes, templateErrorResponses, type TemplateResolver } from "./template-routes.ts";
import { createdOnceRule } from "../workspaces/shared.ts";

const TAG = "Master templates";
const { 400: e400, 401: e401, 403: e403, 404: e404, 409: e409, 503: e503 } = templateErrorResponses;
const readErrors = { 401: e401, 403: e403, 404: e404, 503: e503 } as const;

/**
 * A master template by id: never a project's copy, and another company's (or an area the caller may
 * not enter) answers 404 exactly like an unknown id. The caller needs a role of the template's area
 * in its company (spec §6): Migration, Translations and Onboarding each guard their own.
 */
export const resolveMasterTemplate: TemplateResolver = async (c, params, access) => {
  const ref = await findTemplateRef(c.var.deps.db, String(params.id));
  if (!ref || ref.projectId !== null) throw new NotFoundError(TEMPLATE_NOT_FOUND_MESSAGE);
  await requireAreaRole(c, ref.area, ref.companyId, { ...access, notFoundMessage: TEMPLATE_NOT_FOUND_MESSAGE });
  return ref;
};

const list = createRoute({
  method: "get",
  path: "/master-templates",
  tags: [TAG],
  summary: "A page of an area's master templates",
  description: "Filters: name contains (any case), status and type (each may repeat). Sorted by name (default), status or last update; paginated in SQL.",
  request: { query: templateSearchQuerySchema },
  responses: { 200: jsonContent(templatePageSchema, "One page, with the total."), 400: e400, ...readErrors },
});

const create = createRoute({
  method: "post",
  path: "/master-templates",
  tags: [TAG],
  summary: "Create a master template (Draft, no levels)",
  description: createdOnceRule("template"),
  request: { body: jsonBody(createTemplateSchema) },
  responses: { 201: jsonContent(templateSchema, "The new template."), 400: e400, ...readErrors, 409: e409 },
});

const templateIdParams = z.object({ id: z.string().min(1) });

const remove = createRoute({
  method: "delete",
  path: "/master-templates/{id}",
  tags: [TAG],
  summary: "Delete a Draft master template, with its levels and scripts",
  description:
    "Only a Draft one (never made available, so never assigned): any other status is a 409 `not_draft` (archive it instead), a stale `version` a 409, and nothing is deleted.",
  request: { params: templateIdParams, query: z.object({ version: versionSchema }) },
  responses: { 204: { description: "Deleted." }, 400: e400, ...readErrors, 409: e409 },
});

export function createMasterTemplatesRouter() {
  const router = createRouter()
    .openapi(list, async (c) => {
      const query = c.req.valid("query");
      const company = await requireAreaRole(c, query.area, query.companyId, { write: false });
      return c.json(await searchTemplates(c.var.deps.db, { ...query, companyId: company.id, projectId: null }), 200);
    })
    .openapi(create, async (c) => {
      const input = c.req.valid("json");
      const company = await requireAreaRole(c, input.area, input.companyId, { write: true });
      const template = {
        id: input.id,
        companyId: company.id,
        area: input.area,
        projectId: null,
        name: input.name,
        description: input.description,
        type: input.type,
        status: "Draft",
        userId: c.var.caller.userId,
        userName: c.var.caller.name,
      } as const;
      const id = await createTemplateOnce(c.var.deps.db, template, (trx) => createTemplate(trx, template));
      return c.json((await getTemplate(c.var.deps.db, id))!, 201);
    })
    .openapi(remove, async (c) => {
      const ref = await resolveMasterTemplate(c, c.req.valid("param"), { write: true });
      const write = { userId: c.var.caller.userId, userName: c.var.caller.name, expectedVersion: c.req.valid("query").version };
      await deleteDraftMasterTemplate(c.var.deps.db, ref.id, write);
      return c.body(null, 204);
    });
  router.route(
    "/",
    createTemplateRoutes({
      basePath: "/master-templates/{id}",
      params: templateIdParams,
      tag: TAG,
      resolve: resolveMasterTemplate,
      statusMoves: true,
    }),
  );
  return router;
}
