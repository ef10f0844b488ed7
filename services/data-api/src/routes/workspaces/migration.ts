import { createRoute } from "@hono/zod-openapi";
import { isAdmin } from "../../../../../contracts/roles.ts";
import { createProjectSchema, projectSchema, uploadTypeBodySchema, uploadTypeResponseSchema } from "../../../../../contracts/projects.ts";
import { WORKSPACES } from "../../../../../contracts/workspaces.ts";
import { jsonBody, jsonContent } from "../../openapi.ts";
import { createProject, getProject, searchProjects, updateProject } from "../../repositories/projects.ts";
import { requireWorkspace } from "../../workspace-access.ts";
import { createKindRoutes } from "./kind-routes.ts";
import { assertVersion } from "./rules.ts";
import { collectionPath, createdOnceRule, readErrorsOf, workspaceIdParams, writeErrorsOf } from "./shared.ts";

/**
 * What only migration projects have: their create, search, read and update bodies
 * (contracts/projects.ts) and the upload type. Everything else a project
 * does is the workspace routers' (router.ts), shared with onboarding configurations.
 */

const descriptor = WORKSPACES.migration;
const BASE = collectionPath(descriptor);
const TAGS = ["Projects"];
const projectIdParams = workspaceIdParams;
const projectErrors = readErrorsOf(descriptor);
const writeErrors = writeErrorsOf(descriptor);

const create = createRoute({
  method: "post",
  path: `${BASE}`,
  tags: TAGS,
  summary: "Create a migration project (wizard step 1)",
  description:
    "The application must be one of the company's; the name is unique per company (any case). The project starts at SetupDataDictionaryIncomplete with an empty data dictionary of its own, and its creator may read and write it. " +
    createdOnceRule(descriptor.noun),
  request: { body: jsonBody(createProjectSchema) },
  responses: { 201: jsonContent(projectSchema, "The new project."), ...writeErrors },
});

const getUploadType = createRoute({
  method: "get",
  path: `${BASE}/{id}/upload-type`,
  tags: TAGS,
  summary: "The project's upload type",
  request: { params: projectIdParams },
  responses: { 200: jsonContent(uploadTypeResponseSchema, "The upload type, null until chosen."), ...projectErrors },
});

const setUploadType = createRoute({
  method: "post",
  path: `${BASE}/{id}/upload-type`,
  tags: TAGS,
  summary: "Choose the upload type (wizard step 3)",
  description: "Based on `version`: a stale one answers 409 and changes nothing.",
  request: { params: projectIdParams, body: jsonBody(uploadTypeBodySchema) },
  responses: { 200: jsonContent(projectSchema, "The changed project."), ...writeErrors },
});

export function createMigrationRoutes() {
  const { router, mustGet, created } = createKindRoutes(descriptor, TAGS, {
    get: getProject,
    search: (db, query, caller) => searchProjects(db, query, { userId: caller.userId, seesAll: isAdmin(caller.roles) }),
    update: updateProject,
  });
  return router
    .openapi(create, async (c) => c.json(await created(c, c.req.valid("json"), createProject), 201))
    .openapi(getUploadType, async (c) => {
      const { workspace } = await requireWorkspace(c, "migration", c.req.valid("param").id, { write: false });
      return c.json(uploadTypeResponseSchema.parse({ uploadType: workspace.upload_type }), 200);
    })
    .openapi(setUploadType, async (c) => {
      const { workspace } = await requireWorkspace(c, "migration", c.req.valid("param").id, { write: true });
      const { db } = c.var.deps;
      const { uploadType, version } = c.req.valid("json");
      const write = { expectedVersion: version, userId: c.var.caller.userId };
      // A stale tab's choice is refused with the words of every stale save, not written over another's.
      await assertVersion(db, descriptor, workspace, write);
      await updateProject(db, workspace, write, { uploadType });
      return c.json(await mustGet(db, workspace.id), 200);
    });
}
