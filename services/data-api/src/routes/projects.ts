import { createRoute } from "@hono/zod-openapi";
import { isAdmin } from "../../../../contracts/roles.ts";
import {
  STATUS_CHANGES,
  createProjectSchema,
  flatFileParametersSchema,
  projectAccessSchema,
  projectSchema,
  projectSearchQuerySchema,
  projectSearchResponseSchema,
  updateProjectSchema,
  uploadTypeBodySchema,
  uploadTypeResponseSchema,
  type ProjectStatus,
} from "../../../../contracts/projects.ts";
import { requireMigrationRole } from "../access.ts";
import { ApiProblem, ConflictError, answerApiProblems } from "../api-problem.ts";
import { createRouter, errorResponses, jsonContent } from "../openapi.ts";
import { requireProject } from "../project-access.ts";
import { findApplication } from "../repositories/applications.ts";
import { PROJECT_NOT_FOUND_MESSAGE, STALE_PROJECT_MESSAGE, createProject, getProject, searchProjects, updateProject } from "../repositories/projects.ts";
import { createProjectDictionaryRouter } from "./projects-dictionary.ts";
import { createProjectJobsRouter } from "./projects-jobs.ts";
import { projectErrors, projectIdParams, writeErrors } from "./projects-shared.ts";
import { createProjectUsersRouter } from "./projects-users.ts";

const TAGS = ["Projects"];
const json = <T>(schema: T) => ({ required: true, content: { "application/json": { schema } } });

const create = createRoute({
  method: "post",
  path: "/projects",
  tags: TAGS,
  summary: "Create a migration project (wizard step 1)",
  description:
    "The application must be one of the company's; the name is unique per company (any case). The project starts at SetupDataDictionaryIncomplete with an empty data dictionary of its own, and its creator may read and write it.",
  request: { body: json(createProjectSchema) },
  responses: { 201: jsonContent(projectSchema, "The new project."), ...writeErrors },
});

const search = createRoute({
  method: "get",
  path: "/projects/search",
  tags: TAGS,
  summary: "A page of the company's projects the caller may read",
  description: "Filters: name contains (any case), status (repeat the key), application. Sorted and paginated in SQL.",
  request: { query: projectSearchQuerySchema },
  responses: { 200: jsonContent(projectSearchResponseSchema, "One page, with the total."), 400: errorResponses[400], ...projectErrors },
});

const get = createRoute({
  method: "get",
  path: "/projects/{id}",
  tags: TAGS,
  summary: "One project",
  request: { params: projectIdParams },
  responses: { 200: jsonContent(projectSchema, "The project."), ...projectErrors },
});

const patch = createRoute({
  method: "patch",
  path: "/projects/{id}",
  tags: TAGS,
  summary: "Change a project's name, description or status",
  description:
    "Based on `version`: a stale one answers 409 and changes nothing. The status moves only Active ⇄ Inactive and Active → Completed.",
  request: { params: projectIdParams, body: json(updateProjectSchema) },
  responses: { 200: jsonContent(projectSchema, "The changed project."), ...writeErrors },
});

const access = createRoute({
  method: "get",
  path: "/projects/{id}/access",
  tags: TAGS,
  summary: "What the caller may do with the project",
  description: "SuperAdmin and Support: read and write. Others: as the project's access list says (404 when they may not read it).",
  request: { params: projectIdParams },
  responses: { 200: jsonContent(projectAccessSchema, "The caller's access."), ...projectErrors },
});

const getUploadType = createRoute({
  method: "get",
  path: "/projects/{id}/upload-type",
  tags: TAGS,
  summary: "The project's upload type",
  request: { params: projectIdParams },
  responses: { 200: jsonContent(uploadTypeResponseSchema, "The upload type, null until chosen."), ...projectErrors },
});

const setUploadType = createRoute({
  method: "post",
  path: "/projects/{id}/upload-type",
  tags: TAGS,
  summary: "Choose the upload type (wizard step 3)",
  request: { params: projectIdParams, body: json(uploadTypeBodySchema) },
  responses: { 200: jsonContent(projectSchema, "The changed project."), ...writeErrors },
});

const setFlatFileParameters = createRoute({
  method: "post",
  path: "/projects/{id}/updateFlatFileParameters",
  tags: TAGS,
  summary: "Set how the project's flat files are read (FlatFile projects only)",
  request: { params: projectIdParams, body: json(flatFileParametersSchema) },
  responses: { 200: jsonContent(projectSchema, "The changed project."), ...writeErrors },
});

export function createProjectsRouter() {
  const router = createRouter()
    .openapi(create, async (c) => {
      const input = c.req.valid("json");
      await requireMigrationRole(c, input.companyId, { write: true });
      const { db } = c.var.deps;
      const application = await findApplication(db, input.applicationId);
      if (!application || application.companyId !== input.companyId) {
        const message = "Choose an application of this company.";
        throw new ApiProblem(400, "validation_failed", message, { applicationId: [message] });
      }
      const id = await createProject(db, { ...input, userId: c.var.caller.userId });
      return c.json(await mustGet(db, id), 201);
    })
    // Before /projects/{id}, so "search" is never taken for an id.
    .openapi(search, async (c) => {
      const query = c.req.valid("query");
      await requireMigrationRole(c, query.companyId, { write: false });
      const caller = c.var.caller;
      const page = await searchProjects(c.var.deps.db, query, { userId: caller.userId, seesAll: isAdmin(caller.roles) });
      return c.json(page, 200);
    })
    .openapi(get, async (c) => {
      const { project } = await requireProject(c, c.req.valid("param").id, { write: false });
      return c.json(await mustGet(c.var.deps.db, project.id), 200);
    })
    .openapi(patch, async (c) => {
      const { project } = await requireProject(c, c.req.valid("param").id, { write: true });
      const body = c.req.valid("json");
      // Checked before the rules so a stale client hears "reload", not a rule about a state it never saw.
      if (body.version !== Number(project.version)) throw new ConflictError(STALE_PROJECT_MESSAGE);
      if (body.status !== undefined && body.status !== project.status) {
        const allowed = STATUS_CHANGES[project.status as ProjectStatus] ?? [];
        if (!allowed.includes(body.status)) {
          const message = allowed.length
            ? `A ${project.status} project can only become ${allowed.join(" or ")}.`
            : `The status of a project in ${project.status} cannot be changed by hand.`;
          throw new ApiProblem(400, "validation_failed", message, { status: [message] });
        }
      }
      const { db } = c.var.deps;
      await updateProject(db, project, body.version, { name: body.name, description: body.description, status: body.status });
      return c.json(await mustGet(db, project.id), 200);
    })
    .openapi(access, async (c) => {
      const { access } = await requireProject(c, c.req.valid("param").id, { write: false });
      return c.json(access, 200);
    })
    .openapi(getUploadType, async (c) => {
      const { project } = await requireProject(c, c.req.valid("param").id, { write: false });
      return c.json(uploadTypeResponseSchema.parse({ uploadType: project.upload_type }), 200);
    })
    .openapi(setUploadType, async (c) => {
      const { project } = await requireProject(c, c.req.valid("param").id, { write: true });
      const { db } = c.var.deps;
      // No version in the body (the contract's): the last choice wins, which is all a choice can mean.
      await updateProject(db, project, Number(project.version), { uploadType: c.req.valid("json").uploadType });
      return c.json(await mustGet(db, project.id), 200);
    })
    .openapi(setFlatFileParameters, async (c) => {
      const { project } = await requireProject(c, c.req.valid("param").id, { write: true });
      if (project.source_type !== "FlatFile") {
        throw new ApiProblem(400, "not_flat_file", "Flat file parameters are only for projects whose source type is Flat file.");
      }
      const { db } = c.var.deps;
      await updateProject(db, project, Number(project.version), { flatFileParameters: c.req.valid("json") });
      return c.json(await mustGet(db, project.id), 200);
    });

  router.route("/", createProjectUsersRouter());
  router.route("/", createProjectJobsRouter());
  router.route("/", createProjectDictionaryRouter());
  router.onError(answerApiProblems);
  return router;
}

async function mustGet(db: Parameters<typeof getProject>[0], id: string) {
  const project = await getProject(db, id);
  if (!project) throw new ApiProblem(404, "not_found", PROJECT_NOT_FOUND_MESSAGE);
  return project;
}
