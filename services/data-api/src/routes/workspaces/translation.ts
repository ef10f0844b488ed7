import { createRoute } from "@hono/zod-openapi";
import { completeStructureSchema, createMappingProjectSchema } from "../../../../../contracts/mappings.ts";
import { projectSchema } from "../../../../../contracts/projects.ts";
import { SERVICE_WORKSPACES } from "../../../../../contracts/workspaces.server.ts";
import { ApiProblem } from "../../api-problem.ts";
import { jsonBody, jsonContent } from "../../openapi.ts";
import { dictionaryBlockers, finishTemplateSetup } from "../../project-setup.ts";
import { dictionaryStats, findProjectDictionaryRef } from "../../repositories/dictionaries.ts";
import { createMappingProject, getMappingProject, searchMappingProjects, updateMappingProject } from "../../repositories/mapping-projects.ts";
import { requireWorkspace } from "../../workspace-access.ts";
import { createKindRoutes } from "./kind-routes.ts";
import { createTranslationFileRoutes } from "./translations.ts";
import { createValueMapRoutes } from "./value-maps.ts";
import { assertVersion } from "./rules.ts";
import { collectionPath, createdOnceRule, workspaceIdParams, writeErrorsOf } from "./shared.ts";

/**
 * What only translation mapping projects have (issue 12): their create, search, read and update, and
 * the end of the wizard's file-data-structure step. Their file data structure is the workspace
 * dictionary's routes, their templates the workspace templates' (router.ts); value maps are mappings.ts's.
 */

const descriptor = SERVICE_WORKSPACES.translation;
const BASE = collectionPath(descriptor);
const TAGS = ["Mapping projects"];
const writeErrors = writeErrorsOf(descriptor);

const create = createRoute({
  method: "post",
  path: BASE,
  tags: TAGS,
  summary: "Create a mapping project (the wizard's basic settings)",
  description:
    "The application (the one the client's files come from) must be one of the company's; the name is unique among the company's mapping projects (any case), else 409 at `name`. " +
    `The mapping project starts at ${descriptor.initialStatus} with an empty file data structure. Whoever holds a Translations role for the company may read and write it. ${createdOnceRule(descriptor.noun)}`,
  request: { body: jsonBody(createMappingProjectSchema) },
  responses: { 201: jsonContent(projectSchema, "The new mapping project."), ...writeErrors },
});

const completeStructure = createRoute({
  method: "post",
  path: `${BASE}/{id}/file-data-structure/complete`,
  tags: TAGS,
  summary: "End the wizard's file-data-structure step",
  description:
    "Needs at least one table, each with at least one column (else 409 `structure_incomplete` saying what is missing). Moves the mapping project from SetupAddColumnsIncomplete to SetupAssignTemplatesIncomplete, or to Active when it has templates already (assigned from its Templates tab); at any later status it changes nothing.",
  request: { params: workspaceIdParams, body: jsonBody(completeStructureSchema) },
  responses: { 200: jsonContent(projectSchema, "The mapping project after."), ...writeErrors },
});

export function createTranslationRoutes() {
  const { router, mustGet, created } = createKindRoutes(descriptor, TAGS, {
    get: getMappingProject,
    // No access list: every search sees all of the company's.
    search: (db, query, caller) => searchMappingProjects(db, query, caller.userId),
    update: updateMappingProject,
  });
  return router
    .openapi(create, async (c) => c.json(await created(c, c.req.valid("json"), createMappingProject), 201))
    .openapi(completeStructure, async (c) => {
      const { workspace } = await requireWorkspace(c, "translation", c.req.valid("param").id, { write: true });
      const { db } = c.var.deps;
      const write = { expectedVersion: c.req.valid("json").version, userId: c.var.caller.userId };
      await assertVersion(db, descriptor, workspace, write);
      if (workspace.status === "SetupAddColumnsIncomplete") {
        const dictionary = await findProjectDictionaryRef(db, workspace.id);
        const stats = dictionary && (await dictionaryStats(db, dictionary.id));
        const problems = dictionaryBlockers(stats ?? { tableCount: 0, emptyTableCount: 0 }).map((p) =>
          p.replace("The data dictionary", "The file data structure"),
        );
        if (problems.length) throw new ApiProblem(409, "structure_incomplete", problems.join(" "));
        // Templates assigned from its Templates tab meanwhile end the templates step too.
        await updateMappingProject(db, workspace, write, { status: "SetupAssignTemplatesIncomplete" }, (trx) =>
          finishTemplateSetup(trx, workspace.id, write.userId),
        );
      }
      return c.json(await mustGet(db, workspace.id), 200);
    })
    .route("/", createValueMapRoutes())
    .route("/", createTranslationFileRoutes());
}
