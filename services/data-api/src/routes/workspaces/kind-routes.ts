import { createRoute } from "@hono/zod-openapi";
import type { Kysely } from "kysely";
import type { z } from "zod";
import { projectSchema, projectSearchQuerySchema, projectSearchResponseSchema, updateProjectSchema, type Project } from "../../../../../contracts/projects.ts";
import type { WorkspaceDescriptor } from "../../../../../contracts/workspaces.ts";
import { requireAreaRole } from "../../access.ts";
import { ApiProblem } from "../../api-problem.ts";
import type { Database } from "../../db/schema.ts";
import { createRouter, errorResponses, jsonBody, jsonContent } from "../../openapi.ts";
import type { VersionedWrite } from "../../repositories/dictionary-version.ts";
import { createOnce, type WorkspaceChanges, type WorkspaceRow } from "../../repositories/workspaces.ts";
import { requireWorkspace } from "../../workspace-access.ts";
import type { AnyContext } from "../dictionaries/shared.ts";
import { assertStatusChange, assertVersion, checkedMappingProject, requireApplicationOfCompany } from "./rules.ts";
import { collectionPath, readErrorsOf, workspaceIdParams, writeErrorsOf } from "./shared.ts";

/** How a kind that reads as the projects contract finds, searches and changes its rows. */
export type KindStore = {
  get: (db: Kysely<Database>, id: string) => Promise<Project | undefined>;
  search: (db: Kysely<Database>, query: z.output<typeof projectSearchQuerySchema>, caller: { userId: string; roles: readonly string[] }) => Promise<unknown>;
  update: (
    db: Kysely<Database>,
    row: WorkspaceRow,
    write: VersionedWrite,
    changes: Pick<WorkspaceChanges, "name" | "description" | "status" | "mappingProjectId">,
  ) => Promise<number>;
};

/**
 * Search, read and update of a kind whose rows read as the projects contract (migration projects,
 * mapping projects): one implementation, each kind adding its create route (on `created`) and its own routes.
 */
export function createKindRoutes(descriptor: WorkspaceDescriptor, tags: string[], store: KindStore) {
  const base = collectionPath(descriptor);
  const noun = descriptor.noun;
  const readErrors = readErrorsOf(descriptor);
  const search = createRoute({
    method: "get",
    path: `${base}/search`,
    tags,
    summary: `A page of the company's ${descriptor.nounPlural} the caller may read`,
    description: "Filters: name contains (any case), status (repeat the key), application. Sorted and paginated in SQL.",
    request: { query: projectSearchQuerySchema },
    responses: { 200: jsonContent(projectSearchResponseSchema, "One page, with the total."), 400: errorResponses[400], ...readErrors },
  });
  const get = createRoute({
    method: "get",
    path: `${base}/{id}`,
    tags,
    summary: `One ${noun}`,
    request: { params: workspaceIdParams },
    responses: { 200: jsonContent(projectSchema, `The ${noun}.`), ...readErrors },
  });
  const patch = createRoute({
    method: "patch",
    path: `${base}/{id}`,
    tags,
    summary: `Change a ${noun}'s name, description or status`,
    description:
      "Based on `version`: a stale one answers 409 and changes nothing. The status moves only Active ⇄ Inactive and Active → Completed. " +
      "`mappingProjectId` names a translation mapping project of the same company (400 otherwise; null: none): its value maps become schema `maps` of the databases at each run.",
    request: { params: workspaceIdParams, body: jsonBody(updateProjectSchema) },
    responses: { 200: jsonContent(projectSchema, `The changed ${noun}.`), ...writeErrorsOf(descriptor) },
  });

  const mustGet = async (db: Kysely<Database>, id: string) => {
    const found = await store.get(db, id);
    if (!found) throw new ApiProblem(404, "not_found", descriptor.notFoundMessage);
    return found;
  };

  /**
   * A new row of the kind from a create's body: refused unless the caller may write the kind's area for the
   * body's company and the application is that company's; made by `insert` as the caller, once per form
   * (createOnce), and read back.
   */
  const created = async <I extends { id?: string | undefined; companyId: string; applicationId: string; name: string; description: string | null }>(
    c: AnyContext,
    input: I,
    insert: (db: Kysely<Database>, row: I & { userId: string }) => Promise<string>,
  ) => {
    await requireAreaRole(c, descriptor.area, input.companyId, { write: true });
    const { db } = c.var.deps;
    await requireApplicationOfCompany(db, input.applicationId, input.companyId);
    const row = { ...input, userId: c.var.caller.userId };
    return mustGet(db, await createOnce(db, descriptor.kind, row, (trx) => insert(trx, row)));
  };

  const router = createRouter()
    // Before /{id}, so "search" is never taken for an id.
    .openapi(search, async (c) => {
      const query = c.req.valid("query");
      await requireAreaRole(c, descriptor.area, query.companyId, { write: false });
      return c.json((await store.search(c.var.deps.db, query, c.var.caller)) as z.output<typeof projectSearchResponseSchema>, 200);
    })
    .openapi(get, async (c) => {
      const { workspace } = await requireWorkspace(c, descriptor.kind, c.req.valid("param").id, { write: false });
      return c.json(await mustGet(c.var.deps.db, workspace.id), 200);
    })
    .openapi(patch, async (c) => {
      const { workspace } = await requireWorkspace(c, descriptor.kind, c.req.valid("param").id, { write: true });
      const body = c.req.valid("json");
      const { db } = c.var.deps;
      const write = { expectedVersion: body.version, userId: c.var.caller.userId };
      await assertVersion(db, descriptor, workspace, write);
      assertStatusChange(descriptor, workspace, body.status);
      const mappingProjectId = await checkedMappingProject(db, descriptor, workspace, body.mappingProjectId);
      await store.update(db, workspace, write, { name: body.name, description: body.description, status: body.status, mappingProjectId });
      return c.json(await mustGet(db, workspace.id), 200);
    });
  return { router, mustGet, created };
}
