import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { z } from "zod";
import { projectUsersResponseSchema, setProjectUserSchema } from "../../../../contracts/projects.ts";
import { ApiProblem } from "../api-problem.ts";
import { CompanyUsersUnavailableError } from "../company-users.ts";
import type { AppEnv } from "../context.ts";
import { createRouter, jsonContent } from "../openapi.ts";
import { requireProject } from "../project-access.ts";
import { listProjectUsers, removeProjectUser, setProjectUser } from "../repositories/project-users.ts";
import { projectErrors, projectIdParams, writeErrors } from "./projects-shared.ts";

const TAGS = ["Project access"];
const userParams = projectIdParams.extend({ userId: z.string().min(1) });

export const NOT_A_COMPANY_USER_MESSAGE = "This user has no access to the company";

const list = createRoute({
  method: "get",
  path: "/projects/{id}/users",
  tags: TAGS,
  summary: "Who may read and write the project",
  request: { params: projectIdParams },
  responses: { 200: jsonContent(projectUsersResponseSchema, "The access list."), ...projectErrors },
});

const put = createRoute({
  method: "put",
  path: "/projects/{id}/users/{userId}",
  tags: TAGS,
  summary: "Give a user of the company access to the project, or change it",
  description:
    "Write implies read. The user must hold a permission for the project's company (client portal). The last user with write access cannot lose it (409). Answers the whole list.",
  request: { params: userParams, body: { required: true, content: { "application/json": { schema: setProjectUserSchema } } } },
  responses: { 200: jsonContent(projectUsersResponseSchema, "The access list after the change."), ...writeErrors },
});

const remove = createRoute({
  method: "delete",
  path: "/projects/{id}/users/{userId}",
  tags: TAGS,
  summary: "Take a user off the project's access list",
  description: "The last user with write access cannot be removed (409). Answers the whole list.",
  request: { params: userParams },
  responses: { 200: jsonContent(projectUsersResponseSchema, "The access list after the change."), ...writeErrors },
});

export function createProjectUsersRouter() {
  return createRouter()
    .openapi(list, async (c) => {
      const { project } = await requireProject(c, c.req.valid("param").id, { write: false });
      return c.json(await listProjectUsers(c.var.deps.db, project.id), 200);
    })
    .openapi(put, async (c) => {
      const { id, userId } = c.req.valid("param");
      const { project } = await requireProject(c, id, { write: true });
      await requireCompanyUser(c, project.company_id, userId);
      const grant = c.req.valid("json");
      const { db } = c.var.deps;
      await setProjectUser(db, project.id, userId, { ...grant, grantedBy: c.var.caller.userId });
      return c.json(await listProjectUsers(db, project.id), 200);
    })
    .openapi(remove, async (c) => {
      const { id, userId } = c.req.valid("param");
      const { project } = await requireProject(c, id, { write: true });
      const { db } = c.var.deps;
      await removeProjectUser(db, project.id, userId);
      return c.json(await listProjectUsers(db, project.id), 200);
    });
}

/**
 * A project is shared only with people of its company: the client portal's list of the company's
 * users (anyone with a permission entry) decides.
 */
async function requireCompanyUser(c: Context<AppEnv, any, any>, companyId: string, userId: string) {
  let users;
  try {
    users = await c.var.deps.companyUsers.list(c.var.caller, companyId);
  } catch (err) {
    if (!(err instanceof CompanyUsersUnavailableError)) throw err;
    c.var.deps.logger.warn("company users unavailable", { err, companyId, requestId: c.var.requestId });
    throw new HTTPException(503, { message: "The company's users could not be loaded from the client portal. Try again in a moment." });
  }
  if (!users.some((u) => u.id === userId)) {
    throw new ApiProblem(400, "validation_failed", NOT_A_COMPANY_USER_MESSAGE, { userId: [NOT_A_COMPANY_USER_MESSAGE] });
  }
}
