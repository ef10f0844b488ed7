import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { z } from "zod";
import {
  DEFAULT_KEPT_MESSAGE,
  checkDefaultResponseSchema,
  configurationSchema,
  configurationSearchQuerySchema,
  configurationSearchResponseSchema,
  createConfigurationSchema,
  defaultTakenMessage,
  NOT_A_SCHEME_MESSAGE,
  updateConfigurationSchema,
} from "../../../../../contracts/configurations.ts";
import { isAdmin } from "../../../../../contracts/roles.ts";
import { SERVICE_WORKSPACES } from "../../../../../contracts/workspaces.server.ts";
import { requireAreaRole } from "../../access.ts";
import { ADMIN_DATA_SOURCES_UNAVAILABLE_MESSAGE, AdminDataSourcesUnavailableError } from "../../admin-data-sources.ts";
import { ApiProblem } from "../../api-problem.ts";
import type { AppEnv } from "../../context.ts";
import { createRouter, errorResponses, jsonBody, jsonContent } from "../../openapi.ts";
import {
  DefaultTakenError,
  createConfiguration,
  findDefaultConfiguration,
  getConfiguration,
  searchConfigurations,
  updateConfiguration,
  type SchemeChoice,
} from "../../repositories/configurations.ts";
import { createOnce } from "../../repositories/workspaces.ts";
import { requireWorkspace } from "../../workspace-access.ts";
import { assertStatusChange, assertVersion, checkedMappingProject, requireApplicationOfCompany } from "./rules.ts";
import { collectionPath, createdOnceRule, readErrorsOf, workspaceIdParams, writeErrorsOf } from "./shared.ts";

/**
 * What only onboarding configurations (the data API's "audit projects", spec §7) have: their create,
 * search, read and update bodies with schemes and the company's default (contracts/configurations.ts),
 * checkdefaultproject, and the databases listing. Everything else a configuration does (access,
 * users, jobs, try-create-databases, data dictionary) is the workspace routers' (router.ts).
 */

const descriptor = SERVICE_WORKSPACES.onboarding;
const BASE = collectionPath(descriptor);
const TAGS = ["Configurations"];
const readErrors = readErrorsOf(descriptor);
const writeErrors = writeErrorsOf(descriptor);
const SCHEME_RULE =
  "Every scheme id must be one of the company's admin data sources (GET /companies/{id}/admin-data-sources, from the client portal); 400 at `schemeIds` otherwise, 503 when the client portal cannot say.";

const create = createRoute({
  method: "post",
  path: BASE,
  tags: TAGS,
  summary: "Create an onboarding configuration (wizard step 1)",
  description: [
    "The application must be one of the company's; the name is unique among the company's configurations (any case; a project may share it), else 409 at `name`.",
    `At least one scheme (400 at \`schemeIds\`). ${SCHEME_RULE}`,
    "The company's first configuration becomes its default whatever `isDefault` says; `isDefault: true` when the company has its default already is a 409 at `isDefault` naming it.",
    `The configuration starts at ${descriptor.initialStatus} with an empty data dictionary of its own, and its creator may read and write it.`,
    createdOnceRule(descriptor.noun),
  ].join(" "),
  request: { body: jsonBody(createConfigurationSchema) },
  responses: { 201: jsonContent(configurationSchema, "The new configuration, with its schemes in the order chosen."), ...writeErrors },
});

const search = createRoute({
  method: "get",
  path: `${BASE}/search`,
  tags: TAGS,
  summary: "A page of the company's configurations the caller may read",
  description: "Filters: name contains (any case), status (repeat the key), application. Sorted and paginated in SQL.",
  request: { query: configurationSearchQuerySchema },
  responses: { 200: jsonContent(configurationSearchResponseSchema, "One page, with the total."), 400: errorResponses[400], ...readErrors },
});

const checkDefault = createRoute({
  method: "get",
  path: `${BASE}/checkdefaultproject/{id}`,
  tags: TAGS,
  summary: "Whether a company has its default configuration yet, and which",
  description:
    "`id` is the company's id. Needs an Onboarding role for the company (404 for a company the caller cannot see, 403 for another role). Names the default even to a caller who is not on its access list: creating a configuration needs to know.",
  request: { params: z.object({ id: z.string().min(1) }) },
  responses: { 200: jsonContent(checkDefaultResponseSchema, "The company's default configuration, or null."), ...readErrors },
});

const get = createRoute({
  method: "get",
  path: `${BASE}/{id}`,
  tags: TAGS,
  summary: "One configuration",
  request: { params: workspaceIdParams },
  responses: { 200: jsonContent(configurationSchema, "The configuration."), ...readErrors },
});

const patch = createRoute({
  method: "patch",
  path: `${BASE}/{id}`,
  tags: TAGS,
  summary: "Change a configuration's name, description, schemes, default or status",
  description: [
    "Based on `version`: a stale one answers 409 and changes nothing. The status moves only Active ⇄ Inactive and Active → Completed.",
    `\`schemeIds\` replaces the set, in the order given; an empty list is a 400 (a configuration serves at least one scheme). ${SCHEME_RULE}`,
    "`isDefault: true` makes this the company's default and the previous default stops being it, in one transaction (a company with configurations always has exactly one default).",
    "`isDefault: false` on the default is a 400 at `isDefault`: mark another one instead.",
  ].join(" "),
  request: { params: workspaceIdParams, body: jsonBody(updateConfigurationSchema) },
  responses: { 200: jsonContent(configurationSchema, "The changed configuration."), ...writeErrors },
});

export function createOnboardingRoutes() {
  return createRouter()
    .openapi(create, async (c) => {
      const input = c.req.valid("json");
      const company = await requireAreaRole(c, descriptor.area, input.companyId, { write: true });
      const { db } = c.var.deps;
      await requireApplicationOfCompany(db, input.applicationId, company.id);
      const schemes = await requireSchemesOfCompany(c, company.id, input.schemeIds);
      const row = {
        id: input.id,
        companyId: company.id,
        applicationId: input.applicationId,
        name: input.name,
        description: input.description,
        schemes,
        isDefault: input.isDefault,
        userId: c.var.caller.userId,
      };
      let id: string;
      try {
        id = await createOnce(db, "onboarding", row, (trx) => createConfiguration(trx, row));
      } catch (err) {
        if (!(err instanceof DefaultTakenError)) throw err;
        const message = defaultTakenMessage(company.name, err.current.name);
        throw new ApiProblem(409, "default_taken", message, { isDefault: [message] });
      }
      return c.json(await mustGet(db, id), 201);
    })
    // Before /audit-projects/{id}, so "search" is never taken for an id.
    .openapi(search, async (c) => {
      const query = c.req.valid("query");
      await requireAreaRole(c, descriptor.area, query.companyId, { write: false });
      const caller = c.var.caller;
      return c.json(await searchConfigurations(c.var.deps.db, query, { userId: caller.userId, seesAll: isAdmin(caller.roles) }), 200);
    })
    .openapi(checkDefault, async (c) => {
      const company = await requireAreaRole(c, descriptor.area, c.req.valid("param").id, { write: false });
      const current = await findDefaultConfiguration(c.var.deps.db, company.id);
      return c.json({ hasDefault: current !== undefined, defaultConfiguration: current ?? null }, 200);
    })
    .openapi(get, async (c) => {
      const { workspace } = await requireWorkspace(c, "onboarding", c.req.valid("param").id, { write: false });
      return c.json(await mustGet(c.var.deps.db, workspace.id), 200);
    })
    .openapi(patch, async (c) => {
      const { workspace } = await requireWorkspace(c, "onboarding", c.req.valid("param").id, { write: true });
      const body = c.req.valid("json");
      const { db } = c.var.deps;
      const write = { expectedVersion: body.version, userId: c.var.caller.userId };
      await assertVersion(db, descriptor, workspace, write);
      assertStatusChange(descriptor, workspace, body.status);
      if (body.isDefault === false && Number(workspace.is_default) === 1) {
        throw new ApiProblem(400, "validation_failed", DEFAULT_KEPT_MESSAGE, { isDefault: [DEFAULT_KEPT_MESSAGE] });
      }
      const schemes = body.schemeIds ? await requireSchemesOfCompany(c, workspace.company_id, body.schemeIds) : undefined;
      const mappingProjectId = await checkedMappingProject(db, descriptor, workspace, body.mappingProjectId);
      await updateConfiguration(db, workspace, write, {
        name: body.name,
        description: body.description,
        status: body.status,
        mappingProjectId,
        schemes,
        makeDefault: body.isDefault === true,
      });
      return c.json(await mustGet(db, workspace.id), 200);
    });
}

/**
 * The chosen schemes, each one of the company's admin data sources (the client portal's list, asked
 * with the caller's token), with the name it has there. Anything else is a 400 at `schemeIds`: another
 * company's scheme reads like one removed meanwhile, or one that never was.
 */
async function requireSchemesOfCompany(c: Context<AppEnv, any, any>, companyId: string, schemeIds: readonly string[]): Promise<SchemeChoice[]> {
  let sources;
  try {
    sources = await c.var.deps.adminDataSources.list(c.var.caller, companyId);
  } catch (err) {
    if (!(err instanceof AdminDataSourcesUnavailableError)) throw err;
    c.var.deps.logger.warn("admin data sources unavailable", { err, companyId, requestId: c.var.requestId });
    throw new HTTPException(503, { message: ADMIN_DATA_SOURCES_UNAVAILABLE_MESSAGE });
  }
  const byId = new Map(sources.filter((s) => s.companyId === companyId).map((s) => [s.id, s]));
  if (schemeIds.some((id) => !byId.has(id))) {
    throw new ApiProblem(400, "validation_failed", NOT_A_SCHEME_MESSAGE, { schemeIds: [NOT_A_SCHEME_MESSAGE] });
  }
  return schemeIds.map((id) => ({ id, name: byId.get(id)!.name }));
}

async function mustGet(db: Parameters<typeof getConfiguration>[0], id: string) {
  const configuration = await getConfiguration(db, id);
  if (!configuration) throw new ApiProblem(404, "not_found", descriptor.notFoundMessage);
  return configuration;
}
