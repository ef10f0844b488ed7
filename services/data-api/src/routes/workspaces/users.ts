import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { z } from "zod";
import {
  projectAccessSchema,
  projectUserSchema,
  projectUsersPageSchema,
  projectUsersQuerySchema,
  setProjectUserSchema,
} from "../../../../../contracts/projects.ts";
import type { WorkspaceDescriptor } from "../../../../../contracts/workspaces.ts";
import { ApiProblem } from "../../api-problem.ts";
import type { CompanyUser } from "../../../../../contracts/client-portal.ts";
import { CompanyUsersUnavailableError } from "../../company-users.ts";
import type { AppEnv } from "../../context.ts";
import { createRouter, jsonBody, jsonContent } from "../../openapi.ts";
import { AccessChangedError, AlreadyGrantedError, findProjectUser, pageProjectUsers, removeProjectUser, setProjectUser } from "../../repositories/project-users.ts";
import { requireWorkspace } from "../../workspace-access.ts";
import { capitalised, collectionPath, readErrorsOf, workspaceIdParams, writeErrorsOf } from "./shared.ts";

export const NOT_A_COMPANY_USER_MESSAGE = "This user has no access to the company";

/**
 * The refusal of an add (`adding: true`) of a user who has access already: the page that offered them
 * showed them without it, so it was given meanwhile (another tab, someone else), and is kept as it is.
 */
export function alreadyGrantedMessage(name: string, noun: string, current: { canWrite: boolean }) {
  return (
    `${name} was given access to this ${noun} meanwhile (${current.canWrite ? "read and write" : "read only"}), in another tab or by someone else: ` +
    "nothing was changed. Change it in the list of users with access."
  );
}

/** The refusal of a change based on an access (`was`) changed meanwhile: the access now is kept. */
export function accessChangedMessage(name: string, noun: string, current: { canWrite: boolean }) {
  return (
    `${name}'s access to this ${noun} was changed meanwhile, in another tab or by someone else: it is ${current.canWrite ? "read and write" : "read only"} now. ` +
    "Nothing was changed: look at it again, then save."
  );
}

/**
 * Who may do what with a workspace: the caller's own access (`/access`) and the access list
 * (project-access page), the same for projects and configurations.
 */
export function createWorkspaceUsersRouter(descriptor: WorkspaceDescriptor) {
  const { kind, noun } = descriptor;
  const base = `${collectionPath(descriptor)}/{id}`;
  const tags = [`${capitalised(noun)} access`];
  const userParams = workspaceIdParams.extend({ userId: z.string().min(1) });
  const readErrors = readErrorsOf(descriptor);
  const writeErrors = writeErrorsOf(descriptor);

  const access = createRoute({
    method: "get",
    path: `${base}/access`,
    tags,
    summary: `What the caller may do with the ${noun}`,
    description: `SuperAdmin and Support: read and write. Others: as the ${noun}'s access list says (404 when they may not read it).`,
    request: { params: workspaceIdParams },
    responses: { 200: jsonContent(projectAccessSchema, "The caller's access."), ...readErrors },
  });

  const list = createRoute({
    method: "get",
    path: `${base}/users`,
    tags,
    summary: `Who may read and write the ${noun}`,
    description: "A page of the access list, the latest grant first (a change of access keeps its grant's time).",
    request: { params: workspaceIdParams, query: projectUsersQuerySchema },
    responses: { 200: jsonContent(projectUsersPageSchema, "A page of the access list."), ...readErrors },
  });

  const put = createRoute({
    method: "put",
    path: `${base}/users/{userId}`,
    tags,
    summary: `Give a user of the company access to the ${noun}, or change it`,
    description: `Write implies read. The user must hold a permission for the ${noun}'s company (client portal). The last user with write access cannot lose it (409). With \`existing: true\`, only a user on the list is changed: one removed meanwhile is 404, nothing granted. With \`adding: true\`, only a user not on the list is added: one given access meanwhile is 409, their access unchanged. With \`was\` (the access the page showed), an access changed meanwhile to neither it nor the one asked for is 409, nothing changed. Answers the user's entry.`,
    request: { params: userParams, body: jsonBody(setProjectUserSchema) },
    responses: { 200: jsonContent(projectUserSchema, "The user's entry after the change."), ...writeErrors },
  });

  const remove = createRoute({
    method: "delete",
    path: `${base}/users/{userId}`,
    tags,
    summary: `Take a user off the ${noun}'s access list`,
    description: "The last user with write access cannot be removed (409).",
    request: { params: userParams },
    responses: { 204: { description: "Removed." }, ...writeErrors },
  });

  const router = createRouter().openapi(access, async (c) => {
    const { access } = await requireWorkspace(c, kind, c.req.valid("param").id, { write: false });
    return c.json(access, 200);
  });
  // A kind without an access list (mapping projects: the area's role decides) has no users to manage.
  if (!descriptor.features.accessList) return router;
  return router
    .openapi(list, async (c) => {
      const { workspace } = await requireWorkspace(c, kind, c.req.valid("param").id, { write: false });
      return c.json(await pageProjectUsers(c.var.deps.db, workspace.id, c.req.valid("query")), 200);
    })
    .openapi(put, async (c) => {
      const { id, userId } = c.req.valid("param");
      const { workspace } = await requireWorkspace(c, kind, id, { write: true });
      const user = await requireCompanyUser(c, workspace.company_id, userId);
      const grant = c.req.valid("json");
      const { db } = c.var.deps;
      try {
        await setProjectUser(db, workspace.id, userId, { ...grant, grantedBy: c.var.caller.userId });
      } catch (err) {
        if (err instanceof AlreadyGrantedError) throw new ApiProblem(409, "already_granted", alreadyGrantedMessage(user.name, noun, err.current));
        if (err instanceof AccessChangedError) throw new ApiProblem(409, "conflict", accessChangedMessage(user.name, noun, err.current));
        throw err;
      }
      const entry = await findProjectUser(db, workspace.id, userId);
      if (!entry) throw new Error(`the grant of ${userId} on ${workspace.id} was not saved`);
      return c.json(entry, 200);
    })
    .openapi(remove, async (c) => {
      const { id, userId } = c.req.valid("param");
      const { workspace } = await requireWorkspace(c, kind, id, { write: true });
      const { db } = c.var.deps;
      await removeProjectUser(db, workspace.id, userId);
      return c.body(null, 204);
    });
}

/**
 * A workspace is shared only with people of its company: the client portal, asked for the one user
 * (anyone with a permission entry for the company), decides.
 */
export async function requireCompanyUser(c: Context<AppEnv, any, any>, companyId: string, userId: string): Promise<CompanyUser> {
  let user;
  try {
    user = await c.var.deps.companyUsers.find(c.var.caller, companyId, userId);
  } catch (err) {
    if (!(err instanceof CompanyUsersUnavailableError)) throw err;
    c.var.deps.logger.warn("company users unavailable", { err, companyId, requestId: c.var.requestId });
    throw new HTTPException(503, { message: "The company's users could not be loaded from the client portal. Try again in a moment." });
  }
  if (!user) throw new ApiProblem(400, "validation_failed", NOT_A_COMPANY_USER_MESSAGE, { userId: [NOT_A_COMPANY_USER_MESSAGE] });
  return user;
}
