import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { savedSqlPermissionsSchema, setSqlPermissionsSchema, sqlPermissionsSchema, todayUtc, type SqlLevel } from "../../../../../contracts/sql-access.ts";
import { staleSaveMessage } from "../../../../../contracts/values/common.ts";
import type { WorkspaceDescriptor } from "../../../../../contracts/workspaces.ts";
import { ApiProblem, ConflictError, NotFoundError } from "../../api-problem.ts";
import { databaseExists, databaseNameOf } from "../../data-plane/project-databases.ts";
import { grantLevel, LoginMissingError } from "../../data-plane/sql-logins.ts";
import type { AppEnv } from "../../context.ts";
import { createRouter, jsonBody, jsonContent } from "../../openapi.ts";
import type { WorkspaceRow } from "../../repositories/workspaces.ts";
import { describeWrite, nothingToAudit } from "../../audit-writes.ts";
import { inTransaction } from "../../repositories/db-helpers.ts";
import { permissionsOf, setPermission, statusOf } from "../../repositories/sql-credentials.ts";
import { lastChangeOf } from "../../repositories/stale-saves.ts";
import { requireWorkspace } from "../../workspace-access.ts";
import { capitalised, collectionPath, readErrorsOf, workspaceIdParams, writeErrorsOf } from "./shared.ts";

export const NO_DATABASES_MESSAGE = "This workspace has no databases yet: create them before granting SQL access.";
export const SQL_CREDENTIAL_GONE_MESSAGE = "A SQL credential was not found: it may have been revoked meanwhile. Nothing was saved.";

/**
 * A workspace's SQL permissions (issue 13, …/users/sql-permissions): for each SQL credential of its
 * company, None, Read or Write, applied as grants of the workspace's reader or writer role. Read by
 * anyone who may read the workspace; changed only with write access to it.
 */
export function createWorkspaceSqlPermissionsRouter(descriptor: WorkspaceDescriptor) {
  const { kind, noun } = descriptor;
  const path = `${collectionPath(descriptor)}/{id}/sql-permissions`;
  const tags = [`${capitalised(noun)} SQL permissions`];

  const get = createRoute({
    method: "get",
    path,
    tags,
    summary: `Each SQL credential of the company and what it may do in the ${noun}'s databases`,
    request: { params: workspaceIdParams },
    responses: { 200: jsonContent(sqlPermissionsSchema, "The credentials (not revoked) and their levels."), ...readErrorsOf(descriptor) },
  });

  const put = createRoute({
    method: "put",
    path,
    tags,
    summary: `Set credentials' levels in the ${noun}'s databases (write access)`,
    description:
      "Each entry names the level the page showed (`was`): when any of them changed meanwhile to another level than the one asked for, nothing is applied (409); an entry whose level is already the one asked for (the same save sent again) changes nothing. Lowering a level ends the credential's open sessions on the database.",
    request: { params: workspaceIdParams, body: jsonBody(setSqlPermissionsSchema) },
    responses: {
      200: jsonContent(savedSqlPermissionsSchema, "The permissions after the change, and how many entries it changed."),
      ...writeErrorsOf(descriptor),
    },
  });

  async function current(c: Context<AppEnv, any, any>, workspace: WorkspaceRow) {
    const { db, dataPlane } = c.var.deps;
    const exists = workspace.database_server ? await databaseExists(dataPlane, workspace.database_server, workspace.id) : false;
    const today = todayUtc();
    const rows = await permissionsOf(db, workspace.company_id, workspace.id);
    return {
      databasesExist: exists,
      database: exists ? databaseNameOf(workspace.id) : null,
      items: rows.map((r) => ({ credentialId: r.id, login: r.login, name: r.name, status: statusOf(r, today), expiresOn: r.expires_on, level: r.level })),
    };
  }

  return createRouter()
    .openapi(get, async (c) => {
      const { workspace } = await requireWorkspace(c, kind, c.req.valid("param").id, { write: false });
      return c.json(await current(c, workspace), 200);
    })
    .openapi(put, async (c) => {
      const { workspace } = await requireWorkspace(c, kind, c.req.valid("param").id, { write: true });
      const { entries } = c.req.valid("json");
      const { db, dataPlane } = c.var.deps;
      const serverId = workspace.database_server;
      if (!serverId || !(await databaseExists(dataPlane, serverId, workspace.id))) throw new ApiProblem(409, "no_databases", NO_DATABASES_MESSAGE);
      const by = c.var.caller.userId;
      const at = new Date().toISOString();
      const changed = await inTransaction(db, async (trx) => {
        // Read inside the transaction: two writers at once see each other's change and the second is refused.
        const known = new Map((await permissionsOf(trx, workspace.company_id, workspace.id)).map((r) => [r.id, r]));
        // Another company's credential answers exactly like an unknown or revoked one: 404, said at the top
        // of the page (a field error of `entries` named no field the page shows).
        if (entries.some((e) => !known.has(e.credentialId))) throw new NotFoundError(SQL_CREDENTIAL_GONE_MESSAGE);
        // A level already the one asked for is no conflict, whatever the page showed: the same save sent again (a double
        // submit, Back and resend) changes nothing and answers as a success. Only a level that is now neither is stale.
        const levelOf = (e: (typeof entries)[number]) => known.get(e.credentialId)!.level;
        const stale = entries.find((e) => levelOf(e) !== e.was && levelOf(e) !== e.level);
        if (stale) throw staleLevel(known.get(stale.credentialId)!, by);
        const changes = entries.filter((e) => levelOf(e) !== e.level);
        if (!changes.length) nothingToAudit();
        const applied: { login: string; level: SqlLevel }[] = [];
        try {
          for (const change of changes) {
            const credential = known.get(change.credentialId)!;
            await setPermission(trx, credential.id, workspace.id, change.level, by, at);
            describeWrite({
              action: "sql_permission.changed",
              companyId: workspace.company_id,
              workspaceId: workspace.id,
              target: `${capitalised(noun)} ${workspace.name}: SQL credential ${credential.login}`,
              summary: { login: credential.login, for: credential.name, level: { before: change.was, after: change.level } },
            });
            await grantLevel(dataPlane, serverId, workspace.id, credential.login, change.level);
            applied.push({ login: credential.login, level: change.was });
          }
        } catch (err) {
          // The grants already made on the server are put back as they were: the control plane rolls back too.
          for (const undo of applied.reverse()) await grantLevel(dataPlane, serverId, workspace.id, undo.login, undo.level).catch(() => undefined);
          if (err instanceof LoginMissingError)
            throw new ApiProblem(409, "login_missing", `${err.message}: rotate the credential's password to make it there.`);
          throw err;
        }
        return changes.length;
      });
      return c.json({ ...(await current(c, workspace)), changed }, 200);
    });
}

/**
 * The refusal of `userId`'s save based on a level of `credential` that changed meanwhile (the first
 * such entry), naming it as the page does: "You changed the SQL permission of Ana (dtc_ana) in another
 * tab or window at 14:05 UTC. …" when their own save set the level there now (granted_by, granted_at),
 * else someone else's. A level of None has no row, so who set it is not known: someone else.
 */
function staleLevel(credential: Awaited<ReturnType<typeof permissionsOf>>[number], userId: string) {
  const last = credential.granted_at === null ? undefined : { updated_by: credential.granted_by, updated_at: credential.granted_at };
  const what = `the SQL permission of ${credential.name} (${credential.login})`;
  return new ConflictError(staleSaveMessage(what, lastChangeOf(last, userId)));
}
