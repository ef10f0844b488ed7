import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { pageQuerySchema, versionInPath, versionSchema } from "../../../../../contracts/common.ts";
import {
  changeTemplateStatusSchema,
  createScriptSchema,
  forceUnlockSchema,
  levelInputSchema,
  lockEventPageSchema,
  moveSchema,
  renameScriptSchema,
  saveScriptSchema,
  scriptDiffQuerySchema,
  scriptDiffSchema,
  scriptSchema,
  scriptVersionPageSchema,
  scriptVersionSchema,
  templateSchema,
  updateTemplateSchema,
} from "../../../../../contracts/templates.ts";
import { isAdmin } from "../../../../../contracts/roles.ts";
import { SCRIPT_LOCK_TTL_MINUTES_DEFAULT, type TemplateType } from "../../../../../contracts/values/templates.ts";
import { FORBIDDEN_MESSAGE } from "../../access.ts";
import { ApiProblem, NotFoundError, validationProblem } from "../../api-problem.ts";
import { createRouter, errorResponses, jsonBody, jsonContent } from "../../openapi.ts";
import * as scripts from "../../repositories/scripts.ts";
import * as templates from "../../repositories/templates.ts";
import { lineDiff } from "../../templates/line-diff.ts";
import { checkSql, sqlProblemMessage } from "../../templates/sql-check.ts";
import type { AnyContext } from "../dictionaries/shared.ts";

/**
 * Finds the template a route works on and checks the caller may read (`write: false`) or write it;
 * throws 404/403 otherwise. Master templates resolve `/master-templates/{id}`; a project's templates
 * resolve `/projects/{id}/templates/{templateId}` (a later mount of the same routes).
 */
export type TemplateResolver = (c: AnyContext, params: Record<string, unknown>, access: TemplateAccess) => Promise<templates.TemplateRef>;

/**
 * What a route asks of the caller: to read or to write; `whileLocked`, a write of a script's text or
 * its editing lock, which a workspace's job does not stop (workspace-access.ts: a run keeps the
 * versions it started with). A master template has no workspace lock.
 */
export type TemplateAccess = { write: boolean; whileLocked?: boolean };

export type TemplateRoutesOptions = {
  /** The template's path under /api/v1, with its parameters, e.g. "/master-templates/{id}". */
  basePath: string;
  /** The base path's parameters. */
  params: z.ZodObject<Record<string, z.ZodString>>;
  tag: string;
  resolve: TemplateResolver;
  /** Whether the template's status may be changed here (master templates). */
  statusMoves: boolean;
  /** Refuses a type the owner does not take (a workspace's own template); none: every type. */
  requireType?: (type: TemplateType) => void;
};

const apiErrorComponent = errorResponses[404].content["application/json"].schema;
const errorBody = (description: string) => jsonContent(apiErrorComponent, description);
export const templateErrorResponses = {
  ...errorResponses,
  403: errorBody("The caller's role does not allow this."),
  409: errorBody(
    "The template changed since it was read (`conflict`: reload), a name is taken (`duplicate_name`), the template is Archived (`read_only`), " +
      "a script save was based on an older version (`stale_version`), the caller does not hold the script's lock (`lock_required`, `locked_by_other`), " +
      "or the move is not allowed (`status_move_refused`, `template_empty`, `level_not_empty`, `not_locked`); nothing was changed.",
  ),
} as const;
const { 400: e400, 401: e401, 403: e403, 404: e404, 409: e409, 503: e503 } = templateErrorResponses;
const readErrors = { 401: e401, 403: e403, 404: e404, 503: e503 } as const;
const writeErrors = { 400: e400, ...readErrors, 409: e409 } as const;

/** The validated path parameters: the owner's (for `resolve`) and the level's, script's and version's. */
type Ids = Record<string, unknown> & { levelId: string; scriptId: string; version: number | null };
const ids = (params: object) => params as Ids;

/** A syntax error refuses the write with the line and column next to the SQL field. */
async function requireParsableSql(sql: string) {
  const problem = await checkSql(sql);
  if (problem) throw validationProblem({ sql: [sqlProblemMessage(problem)] });
}

/**
 * A template's routes: read, details, status, levels (add, rename, move, delete) and scripts (create,
 * read, save, rename, move, delete, versions, diff, lock, unlock, force unlock, lock audit). Written
 * once, mounted for each owner with its own `resolve`.
 */
export function createTemplateRoutes(options: TemplateRoutesOptions) {
  const { basePath, tag, resolve } = options;
  const params = options.params;
  const levelParams = params.extend({ levelId: z.string().min(1) });
  const scriptParams = params.extend({ scriptId: z.string().min(1) });
  // A path naming no version (0, a fraction, past INTEGER_MAX, not a number) is a version not found (404), as in the portal.
  const versionParams = scriptParams.extend({
    version: z.string().describe("The version's number, from 1; any other answers 404.").transform(versionInPath),
  });
  const versionQuery = z.object({ version: versionSchema });
  const templateAnswer = { 200: jsonContent(templateSchema, "The template with its new version."), ...writeErrors };
  const scriptAnswer = { 200: jsonContent(scriptSchema, "The script."), ...writeErrors };

  const path = (rest = "") => `${basePath}${rest}`;
  const route = <R extends Parameters<typeof createRoute>[0]>(r: R) => createRoute({ ...r, tags: [tag] });

  const read = route({
    method: "get",
    path: path(),
    summary: "The template with its levels and scripts in order",
    request: { params },
    responses: { 200: jsonContent(templateSchema, "The template."), ...readErrors },
  });
  const update = route({
    method: "patch",
    path: path(),
    summary: "Rename, re-describe or re-type the template",
    request: { params, body: jsonBody(updateTemplateSchema) },
    responses: templateAnswer,
  });
  const status = route({
    method: "post",
    path: path("/status"),
    summary: "Draft → Available → Archived (and Archived → Available)",
    request: { params, body: jsonBody(changeTemplateStatusSchema) },
    responses: templateAnswer,
  });
  const addLevel = route({
    method: "post",
    path: path("/levels"),
    summary: "Add a level at the end",
    request: { params, body: jsonBody(levelInputSchema) },
    responses: templateAnswer,
  });
  const renameLevel = route({
    method: "patch",
    path: path("/levels/{levelId}"),
    summary: "Rename a level",
    request: { params: levelParams, body: jsonBody(levelInputSchema) },
    responses: templateAnswer,
  });
  const deleteLevel = route({
    method: "delete",
    path: path("/levels/{levelId}"),
    summary: "Delete an empty level",
    request: { params: levelParams, query: versionQuery },
    responses: templateAnswer,
  });
  const moveLevel = route({
    method: "post",
    path: path("/levels/{levelId}/move"),
    summary: "Move a level one place up or down",
    request: { params: levelParams, body: jsonBody(moveSchema) },
    responses: templateAnswer,
  });
  const createScript = route({
    method: "post",
    path: path("/levels/{levelId}/scripts"),
    summary: "Add a script at the end of a level: version 1 (its SQL must parse)",
    request: { params: levelParams, body: jsonBody(createScriptSchema) },
    responses: { 201: jsonContent(scriptSchema, "The new script."), ...writeErrors },
  });
  const readScript = route({
    method: "get",
    path: path("/scripts/{scriptId}"),
    summary: "A script with its newest SQL and its lock",
    request: { params: scriptParams },
    responses: { 200: jsonContent(scriptSchema, "The script."), ...readErrors },
  });
  const saveScript = route({
    method: "put",
    path: path("/scripts/{scriptId}"),
    summary: "Save a new version (the lock's holder; based on the newest version; the SQL must parse)",
    request: { params: scriptParams, body: jsonBody(saveScriptSchema) },
    responses: scriptAnswer,
  });
  const renameScript = route({
    method: "patch",
    path: path("/scripts/{scriptId}"),
    summary: "Rename a script",
    request: { params: scriptParams, body: jsonBody(renameScriptSchema) },
    responses: templateAnswer,
  });
  const deleteScript = route({
    method: "delete",
    path: path("/scripts/{scriptId}"),
    summary: "Delete a script with its versions",
    request: { params: scriptParams, query: versionQuery },
    responses: templateAnswer,
  });
  const moveScript = route({
    method: "post",
    path: path("/scripts/{scriptId}/move"),
    summary: "Move a script one place up or down in its level",
    request: { params: scriptParams, body: jsonBody(moveSchema) },
    responses: templateAnswer,
  });
  const versions = route({
    method: "get",
    path: path("/scripts/{scriptId}/versions"),
    summary: "The script's versions, newest first",
    request: { params: scriptParams, query: pageQuerySchema },
    responses: { 200: jsonContent(scriptVersionPageSchema, "A page of versions."), 400: e400, ...readErrors },
  });
  const version = route({
    method: "get",
    path: path("/scripts/{scriptId}/versions/{version}"),
    summary: "One version with its SQL",
    request: { params: versionParams },
    responses: { 200: jsonContent(scriptVersionSchema, "The version."), ...readErrors },
  });
  const restoreVersion = route({
    method: "post",
    path: path("/scripts/{scriptId}/versions/{version}/restore"),
    summary: "Make an earlier version the newest (a new version with its SQL; the lock's holder)",
    request: { params: versionParams, body: jsonBody(z.object({ baseVersion: versionSchema })) },
    responses: scriptAnswer,
  });
  const diff = route({
    method: "get",
    path: path("/scripts/{scriptId}/diff"),
    summary: "The line diff between two versions",
    request: { params: scriptParams, query: scriptDiffQuerySchema },
    responses: { 200: jsonContent(scriptDiffSchema, "Every line of both versions, marked."), 400: e400, ...readErrors },
  });
  const lock = route({
    method: "post",
    path: path("/scripts/{scriptId}/lock"),
    summary: "Lock for editing",
    request: { params: scriptParams },
    responses: scriptAnswer,
  });
  const unlock = route({
    method: "post",
    path: path("/scripts/{scriptId}/unlock"),
    summary: "Unlock (the holder)",
    request: { params: scriptParams },
    responses: scriptAnswer,
  });
  const forceUnlock = route({
    method: "post",
    path: path("/scripts/{scriptId}/force-unlock"),
    summary: "Force unlock with a reason (SuperAdmin, Support)",
    request: { params: scriptParams, body: jsonBody(forceUnlockSchema) },
    responses: scriptAnswer,
  });
  const lockEvents = route({
    method: "get",
    path: path("/scripts/{scriptId}/lock-events"),
    summary: "The script's lock audit, newest first",
    request: { params: scriptParams, query: pageQuerySchema },
    responses: { 200: jsonContent(lockEventPageSchema, "A page of lock changes."), 400: e400, ...readErrors },
  });

  const writer = (c: AnyContext) => ({ userId: c.var.caller.userId, userName: c.var.caller.name });
  /** A script's text (a new version, a restored one) and its editing lock: written while a workspace's job runs too. */
  const scriptText = { whileLocked: true };
  const clock = (c: AnyContext) => ({ ttlMs: (c.var.deps.scriptLockTtlMinutes ?? SCRIPT_LOCK_TTL_MINUTES_DEFAULT) * 60_000 });
  /** The template, guarded for writing: the caller may write it and it is not Archived. */
  const writable = async (c: AnyContext, p: Record<string, unknown>, access: Omit<TemplateAccess, "write"> = {}) => {
    const ref = await resolve(c, p, { ...access, write: true });
    templates.requireWritable(ref);
    return ref;
  };
  const answerTemplate = async (c: AnyContext, id: string) => {
    const template = await templates.getTemplate(c.var.deps.db, id);
    if (!template) throw new NotFoundError(templates.TEMPLATE_NOT_FOUND_MESSAGE);
    return template;
  };
  /** The script as the routes answer it: its newest SQL and its lock (held, or lapsed by the lock's time to live). */
  const answerScript = (c: AnyContext, templateId: string, scriptId: string) => scripts.getScript(c.var.deps.db, templateId, scriptId, clock(c));

  return createRouter()
    .openapi(read, async (c) => {
      const ref = await resolve(c, c.req.valid("param"), { write: false });
      return c.json(await answerTemplate(c, ref.id), 200);
    })
    .openapi(update, async (c) => {
      const ref = await writable(c, c.req.valid("param"));
      const { version: expectedVersion, ...details } = c.req.valid("json");
      options.requireType?.(details.type);
      await templates.updateTemplate(c.var.deps.db, ref.id, { ...writer(c), expectedVersion, ...details });
      return c.json(await answerTemplate(c, ref.id), 200);
    })
    .openapi(status, async (c) => {
      // Not `writable`: an Archived template may be made available again. The guard first: another
      // company's template is not found, whatever the route would refuse after.
      const ref = await resolve(c, c.req.valid("param"), { write: true });
      if (!options.statusMoves) throw new ApiProblem(409, "status_move_refused", "A project's own template has no status to change.");
      const body = c.req.valid("json");
      await templates.changeTemplateStatus(c.var.deps.db, ref.id, { ...writer(c), expectedVersion: body.version, status: body.status });
      return c.json(await answerTemplate(c, ref.id), 200);
    })
    .openapi(addLevel, async (c) => {
      const ref = await writable(c, c.req.valid("param"));
      const body = c.req.valid("json");
      await templates.addLevel(c.var.deps.db, ref.id, { ...writer(c), expectedVersion: body.version, name: body.name });
      return c.json(await answerTemplate(c, ref.id), 200);
    })
    .openapi(renameLevel, async (c) => {
      const p = ids(c.req.valid("param"));
      const ref = await writable(c, p);
      const body = c.req.valid("json");
      await templates.renameLevel(c.var.deps.db, ref.id, p.levelId, { ...writer(c), expectedVersion: body.version, name: body.name });
      return c.json(await answerTemplate(c, ref.id), 200);
    })
    .openapi(deleteLevel, async (c) => {
      const p = ids(c.req.valid("param"));
      const ref = await writable(c, p);
      await templates.deleteLevel(c.var.deps.db, ref.id, p.levelId, { ...writer(c), expectedVersion: c.req.valid("query").version });
      return c.json(await answerTemplate(c, ref.id), 200);
    })
    .openapi(moveLevel, async (c) => {
      const p = ids(c.req.valid("param"));
      const ref = await writable(c, p);
      const body = c.req.valid("json");
      await templates.moveLevel(c.var.deps.db, ref.id, p.levelId, { ...writer(c), expectedVersion: body.version, direction: body.direction });
      return c.json(await answerTemplate(c, ref.id), 200);
    })
    .openapi(createScript, async (c) => {
      const p = ids(c.req.valid("param"));
      const ref = await writable(c, p);
      const body = c.req.valid("json");
      await requireParsableSql(body.sql);
      const id = await scripts.createScript(c.var.deps.db, ref.id, p.levelId, {
        ...writer(c),
        expectedVersion: body.version,
        name: body.name,
        sql: body.sql,
        comment: body.comment,
      });
      return c.json(await answerScript(c, ref.id, id), 201);
    })
    .openapi(readScript, async (c) => {
      const p = ids(c.req.valid("param"));
      const ref = await resolve(c, p, { write: false });
      return c.json(await answerScript(c, ref.id, p.scriptId), 200);
    })
    .openapi(saveScript, async (c) => {
      const p = ids(c.req.valid("param"));
      const ref = await writable(c, p, scriptText);
      const body = c.req.valid("json");
      await requireParsableSql(body.sql);
      await scripts.saveScript(c.var.deps.db, ref.id, p.scriptId, { ...writer(c), ...body }, clock(c));
      return c.json(await answerScript(c, ref.id, p.scriptId), 200);
    })
    .openapi(renameScript, async (c) => {
      const p = ids(c.req.valid("param"));
      const ref = await writable(c, p);
      const body = c.req.valid("json");
      await scripts.renameScript(c.var.deps.db, ref.id, p.scriptId, { ...writer(c), expectedVersion: body.version, name: body.name });
      return c.json(await answerTemplate(c, ref.id), 200);
    })
    .openapi(deleteScript, async (c) => {
      const p = ids(c.req.valid("param"));
      const ref = await writable(c, p);
      await scripts.deleteScript(c.var.deps.db, ref.id, p.scriptId, { ...writer(c), expectedVersion: c.req.valid("query").version }, clock(c));
      return c.json(await answerTemplate(c, ref.id), 200);
    })
    .openapi(moveScript, async (c) => {
      const p = ids(c.req.valid("param"));
      const ref = await writable(c, p);
      const body = c.req.valid("json");
      await scripts.moveScript(c.var.deps.db, ref.id, p.scriptId, { ...writer(c), expectedVersion: body.version, direction: body.direction });
      return c.json(await answerTemplate(c, ref.id), 200);
    })
    .openapi(versions, async (c) => {
      const p = ids(c.req.valid("param"));
      const ref = await resolve(c, p, { write: false });
      return c.json(await scripts.listVersions(c.var.deps.db, ref.id, p.scriptId, c.req.valid("query")), 200);
    })
    .openapi(version, async (c) => {
      const p = ids(c.req.valid("param"));
      const ref = await resolve(c, p, { write: false });
      return c.json(await scripts.getVersion(c.var.deps.db, ref.id, p.scriptId, p.version), 200);
    })
    .openapi(restoreVersion, async (c) => {
      const p = ids(c.req.valid("param"));
      const ref = await writable(c, p, scriptText);
      const earlier = await scripts.getVersion(c.var.deps.db, ref.id, p.scriptId, p.version);
      const { baseVersion } = c.req.valid("json");
      await scripts.saveScript(
        c.var.deps.db,
        ref.id,
        p.scriptId,
        { ...writer(c), baseVersion, sql: earlier.sql, comment: `Restored version ${earlier.version}`, restored: earlier.version },
        clock(c),
      );
      return c.json(await answerScript(c, ref.id, p.scriptId), 200);
    })
    .openapi(diff, async (c) => {
      const p = ids(c.req.valid("param"));
      const ref = await resolve(c, p, { write: false });
      const q = c.req.valid("query");
      const [from, to] = await Promise.all([
        scripts.getVersion(c.var.deps.db, ref.id, p.scriptId, q.from),
        scripts.getVersion(c.var.deps.db, ref.id, p.scriptId, q.to),
      ]);
      return c.json(lineDiff(from, to), 200);
    })
    .openapi(lock, async (c) => {
      const p = ids(c.req.valid("param"));
      const ref = await writable(c, p, scriptText);
      await scripts.lockScript(c.var.deps.db, ref.id, p.scriptId, writer(c), clock(c));
      return c.json(await answerScript(c, ref.id, p.scriptId), 200);
    })
    .openapi(unlock, async (c) => {
      const p = ids(c.req.valid("param"));
      // Not `writable`: a lock taken before the template was archived can still be given back.
      const ref = await resolve(c, p, { write: true, ...scriptText });
      await scripts.unlockScript(c.var.deps.db, ref.id, p.scriptId, writer(c));
      return c.json(await answerScript(c, ref.id, p.scriptId), 200);
    })
    .openapi(forceUnlock, async (c) => {
      const p = ids(c.req.valid("param"));
      const ref = await resolve(c, p, { write: true, ...scriptText });
      if (!isAdmin(c.var.caller.roles)) throw new ApiProblem(403, "forbidden", FORBIDDEN_MESSAGE);
      await scripts.forceUnlockScript(c.var.deps.db, ref.id, p.scriptId, { ...writer(c), reason: c.req.valid("json").reason });
      return c.json(await answerScript(c, ref.id, p.scriptId), 200);
    })
    .openapi(lockEvents, async (c) => {
      const p = ids(c.req.valid("param"));
      const ref = await resolve(c, p, { write: false });
      return c.json(await scripts.listLockEvents(c.var.deps.db, ref.id, p.scriptId, c.req.valid("query")), 200);
    });
}
