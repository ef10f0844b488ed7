import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { versionSchema } from "../../../../../contracts/common.ts";
import {
  assignablePageSchema,
  assignableTemplatesQuerySchema,
  assignTemplatesSchema,
  createProjectTemplateSchema,
  masterComparisonSchema,
  moveSchema,
  projectTemplatesQuerySchema,
  runChoicesPageSchema,
  runChoicesQuerySchema,
  templatePageSchema,
  templateSchema,
  type MasterComparison,
} from "../../../../../contracts/templates.ts";
import type { WorkspaceDescriptor } from "../../../../../contracts/workspaces.ts";
import type { TemplateArea, TemplateType } from "../../../../../contracts/values/templates.ts";
import { ApiProblem, NotFoundError, validationProblem } from "../../api-problem.ts";
import { createRouter, jsonBody, jsonContent } from "../../openapi.ts";
import * as templates from "../../repositories/templates.ts";
import { lineDiff } from "../../templates/line-diff.ts";
import { requireWorkspace } from "../../workspace-access.ts";
import { inTransaction } from "../../repositories/db-helpers.ts";
import { lockWorkspaceRow } from "../../repositories/workspaces.ts";
import { finishTemplateSetup } from "../../project-setup.ts";
import { createTemplateRoutes, type TemplateResolver } from "../templates/template-routes.ts";
import { capitalised, collectionPath, createdOnceRule, readErrorsOf, workspaceIdParams, writeErrorsOf } from "./shared.ts";

/**
 * A workspace's own templates (issue 11), for projects and configurations alike: the list in run
 * order, assigning master templates (copies), a template made in the workspace, the run order,
 * removing one, and "Compare with master". Each template then has the same routes as a master one
 * (template-routes.ts), guarded by the workspace's rule: read or write access, and no write while a
 * job holds the workspace's lock.
 */
export function createWorkspaceTemplatesRouter(descriptor: WorkspaceDescriptor) {
  const { kind, noun } = descriptor;
  const base = `${collectionPath(descriptor)}/{id}/templates`;
  const tag = `${capitalised(noun)} templates`;
  const readErrors = readErrorsOf(descriptor);
  const writeErrors = writeErrorsOf(descriptor);
  const templateParams = workspaceIdParams.extend({ templateId: z.string().min(1) });
  const area = descriptor.area as TemplateArea;

  /** The workspace's template: another workspace's (or a master's) id answers 404 like an unknown one. */
  const resolve: TemplateResolver = async (c, params, access) => {
    const { workspace } = await requireWorkspace(c, kind, String(params.id), access);
    const ref = await templates.findTemplateRef(c.var.deps.db, String(params.templateId));
    if (!ref || ref.projectId !== workspace.id) throw new NotFoundError(templates.TEMPLATE_NOT_FOUND_MESSAGE);
    return ref;
  };
  const writer = (c: { var: { caller: { userId: string; name: string | null } } }) => ({ userId: c.var.caller.userId, userName: c.var.caller.name });
  /** A template made or re-typed here is of the workspace's types, as an assigned one must be (a mapping project: Mapping only). */
  const requireType = (type: TemplateType) => {
    if (!descriptor.templateTypes.includes(type))
      throw validationProblem({ type: [`A ${noun} takes ${descriptor.templateTypes.join(" or ")} templates only.`] });
  };

  const list = createRoute({
    method: "get",
    path: base,
    tags: [tag],
    summary: `The ${noun}'s templates in run order`,
    request: { params: workspaceIdParams, query: projectTemplatesQuerySchema },
    responses: { 200: jsonContent(templatePageSchema, "A page of templates."), ...readErrors },
  });
  const assignable = createRoute({
    method: "get",
    path: `${base}/assignable`,
    tags: [tag],
    summary: `The Available master templates of the ${noun}'s types not yet assigned to it (by master or by name), by name, a page at a time`,
    request: { params: workspaceIdParams, query: assignableTemplatesQuerySchema },
    responses: { 200: jsonContent(assignablePageSchema, "A page of master templates, and the ids asked that cannot be assigned."), ...readErrors },
  });
  const runChoices = createRoute({
    method: "get",
    path: `${base}/run-choices`,
    tags: [tag],
    summary: `What a run of the ${noun} may be narrowed to: its templates in run order, by name, a page at a time, each with its levels and their scripts (ids and names, no SQL)`,
    request: { params: workspaceIdParams, query: runChoicesQuerySchema },
    responses: { 200: jsonContent(runChoicesPageSchema, "A page of templates with their levels and scripts."), ...readErrors },
  });
  const assign = createRoute({
    method: "post",
    path: `${base}/assign`,
    tags: [tag],
    summary: "Assign Available master templates (each copied with its levels and scripts)",
    request: { params: workspaceIdParams, body: jsonBody(assignTemplatesSchema) },
    responses: { 200: jsonContent(templatePageSchema, `The ${noun}'s templates after.`), ...writeErrors },
  });
  const create = createRoute({
    method: "post",
    path: base,
    tags: [tag],
    summary: `A template that exists only in this ${noun}`,
    description: createdOnceRule("template"),
    request: { params: workspaceIdParams, body: jsonBody(createProjectTemplateSchema) },
    responses: { 201: jsonContent(templateSchema, "The new template."), ...writeErrors },
  });
  const move = createRoute({
    method: "post",
    path: `${base}/{templateId}/move`,
    tags: [tag],
    summary: "Move a template one place in the run order",
    request: { params: templateParams, body: jsonBody(moveSchema) },
    responses: { 200: jsonContent(templatePageSchema, `The ${noun}'s templates after.`), ...writeErrors },
  });
  const remove = createRoute({
    method: "delete",
    path: `${base}/{templateId}`,
    tags: [tag],
    summary: `Remove a template from the ${noun} (its scripts and versions go with it; the master stays)`,
    request: { params: templateParams, query: z.object({ version: versionSchema }) },
    responses: { 200: jsonContent(templatePageSchema, `The ${noun}'s templates after.`), ...writeErrors },
  });
  const compare = createRoute({
    method: "get",
    path: `${base}/{templateId}/compare-master`,
    tags: [tag],
    summary: "The copy beside its master: each script the same, changed (with its line diff), or in one only",
    request: { params: templateParams },
    responses: { 200: jsonContent(masterComparisonSchema, "The comparison."), ...readErrors, 409: writeErrors[409] },
  });

  const page = (
    c: Parameters<TemplateResolver>[0],
    workspace: { id: string; company_id: string },
    query: { page: number; pageSize: number } = { page: 1, pageSize: 100 },
  ) =>
    templates.searchTemplates(c.var.deps.db, { companyId: workspace.company_id, area, projectId: workspace.id, status: [], type: [], sort: "name", ...query });

  const router = createRouter()
    .openapi(list, async (c) => {
      const { workspace } = await requireWorkspace(c, kind, c.req.valid("param").id, { write: false });
      const query = c.req.valid("query");
      return c.json(await page(c, workspace, query), 200);
    })
    .openapi(assignable, async (c) => {
      const { workspace } = await requireWorkspace(c, kind, c.req.valid("param").id, { write: false });
      // Left out in SQL: a workspace may hold thousands of copies, the company thousands of masters.
      const { id: ids, ...query } = c.req.valid("query");
      const search = { ...query, ids, status: ["Available" as const], type: [...descriptor.templateTypes], sort: "name" as const };
      const to = { companyId: workspace.company_id, area, projectId: workspace.id, types: descriptor.templateTypes };
      const [found, leftOut] = await Promise.all([
        templates.searchTemplates(c.var.deps.db, { ...search, companyId: to.companyId, area, projectId: null, notAssignedTo: to.projectId }),
        templates.unassignableMasters(c.var.deps.db, to, ids),
      ]);
      return c.json({ ...found, leftOut }, 200);
    })
    .openapi(runChoices, async (c) => {
      const { workspace } = await requireWorkspace(c, kind, c.req.valid("param").id, { write: false });
      return c.json(
        await templates.runChoices(c.var.deps.db, { companyId: workspace.company_id, area, projectId: workspace.id, ...c.req.valid("query") }),
        200,
      );
    })
    .openapi(assign, async (c) => {
      const { workspace } = await requireWorkspace(c, kind, c.req.valid("param").id, { write: true });
      const { templateIds } = c.req.valid("json");
      // One transaction for all: a refused one assigns none.
      await inTransaction(c.var.deps.db, async (trx) => {
        // Before or after a move into the templates step, never beside it (finishTemplateSetup).
        await lockWorkspaceRow(trx, workspace.id);
        for (const id of new Set(templateIds))
          await templates.assignMasterTemplate(
            trx,
            id,
            { id: workspace.id, companyId: workspace.company_id, area, types: descriptor.templateTypes, noun },
            writer(c),
          );
        await finishTemplateSetup(trx, workspace.id, c.var.caller.userId);
      });
      return c.json(await page(c, workspace), 200);
    })
    .openapi(create, async (c) => {
      const { workspace } = await requireWorkspace(c, kind, c.req.valid("param").id, { write: true });
      const input = c.req.valid("json");
      requireType(input.type);
      // A template made here serves the workspace as an assigned one does, so it finishes setup too.
      const template = { ...writer(c), ...input, companyId: workspace.company_id, area, projectId: workspace.id, status: "Available" } as const;
      const id = await templates.createTemplateOnce(c.var.deps.db, template, async (trx) => {
        await lockWorkspaceRow(trx, workspace.id);
        const made = await templates.createTemplate(trx, template);
        await finishTemplateSetup(trx, workspace.id, c.var.caller.userId);
        return made;
      });
      return c.json((await templates.getTemplate(c.var.deps.db, id))!, 201);
    })
    .openapi(move, async (c) => {
      const params = c.req.valid("param");
      const ref = await resolve(c, params, { write: true });
      const { workspace } = await requireWorkspace(c, kind, params.id, { write: true });
      const body = c.req.valid("json");
      await templates.moveProjectTemplate(c.var.deps.db, workspace.id, ref.id, { ...writer(c), expectedVersion: body.version, direction: body.direction });
      return c.json(await page(c, workspace), 200);
    })
    .openapi(remove, async (c) => {
      const params = c.req.valid("param");
      const ref = await resolve(c, params, { write: true });
      const { workspace } = await requireWorkspace(c, kind, params.id, { write: true });
      await templates.removeProjectTemplate(c.var.deps.db, ref.id, { ...writer(c), expectedVersion: c.req.valid("query").version });
      return c.json(await page(c, workspace), 200);
    })
    .openapi(compare, async (c) => {
      const ref = await resolve(c, c.req.valid("param"), { write: false });
      const { db } = c.var.deps;
      const copy = await templates.getTemplate(db, ref.id);
      const master = copy?.masterTemplateId ? await templates.getTemplate(db, copy.masterTemplateId) : undefined;
      if (!copy || !master) throw new ApiProblem(409, "no_master", "This template was made in the project: it has no master to compare with.");
      const [mine, theirs] = await Promise.all([templates.newestScripts(db, copy.id), templates.newestScripts(db, master.id)]);
      const key = (s: { level_key: string; name_key: string }) => `${s.level_key}\u0000${s.name_key}`;
      const masterByKey = new Map(theirs.map((s) => [key(s), s]));
      const scripts: MasterComparison["scripts"] = [];
      for (const s of mine) {
        const m = masterByKey.get(key(s));
        masterByKey.delete(key(s));
        if (!m) scripts.push({ level: s.level, name: s.name, state: "onlyInProject", changedIn: null, diff: null });
        else if (m.sql === s.sql) scripts.push({ level: s.level, name: s.name, state: "same", changedIn: null, diff: null });
        else
          scripts.push({
            level: s.level,
            name: s.name,
            state: "changed",
            changedIn: changedIn(s, m.sql),
            diff: lineDiff({ version: master.version, sql: m.sql }, { version: copy.version, sql: s.sql }),
          });
      }
      for (const m of masterByKey.values()) scripts.push({ level: m.level, name: m.name, state: "onlyInMaster", changedIn: null, diff: null });
      return c.json({ masterTemplateId: master.id, masterName: master.name, copiedVersion: copy.masterVersion, masterVersion: master.version, scripts }, 200);
    });

  router.route("/", createTemplateRoutes({ basePath: `${base}/{templateId}`, params: templateParams, tag, resolve, statusMoves: false, requireType }));
  return router;
}

/** Which side of a copy and its master moved from the master's text the copy started from (its version 1). */
function changedIn(copy: { sql: string; first_sql: string; copied: unknown }, masterSql: string): "here" | "master" | "both" | null {
  // A boolean on PostgreSQL, 0 or 1 on SQLite.
  if (!Number(copy.copied)) return null;
  const here = copy.sql !== copy.first_sql;
  const master = masterSql !== copy.first_sql;
  return here && master ? "both" : here ? "here" : master ? "master" : null;
}
