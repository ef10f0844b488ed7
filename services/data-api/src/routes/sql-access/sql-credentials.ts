import { randomUUID } from "node:crypto";
import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import {
  createSqlCredentialSchema,
  issuedSqlCredentialSchema,
  revokeSqlCredentialSchema,
  rotateSqlCredentialQuerySchema,
  sqlCredentialPageSchema,
  sqlCredentialQuerySchema,
  sqlCredentialSchema,
  todayUtc,
  type IssuedSqlCredential,
  type SqlCredential,
} from "../../../../../contracts/sql-access.ts";
import { alreadyMadeMessage } from "../../../../../contracts/values/common.ts";
import { rotatedMeanwhileMessage } from "../../../../../contracts/values/sql-access.ts";
import { apiErrorSchema } from "../../../../../contracts/errors.ts";
import { workspaceOfProductType } from "../../../../../contracts/workspaces.server.ts";
import { requireAreaRole } from "../../access.ts";
import { ApiProblem, DuplicateNameError } from "../../api-problem.ts";
import type { AppEnv } from "../../context.ts";
import { databaseNameOf } from "../../data-plane/project-databases.ts";
import {
  accessAddress,
  connectionUri,
  createLogin,
  disableLogin,
  loginNameOf,
  loginsConnected,
  newPassword,
  setLoginPassword,
} from "../../data-plane/sql-logins.ts";
import { createRouter, errorResponses, inCompanyQuery, jsonBody, jsonContent, requireInCompany } from "../../openapi.ts";
import { describeWrite } from "../../audit-writes.ts";
import { inTransaction, isUniqueViolation, makeOnce, nameKey, naturalSortKey } from "../../repositories/db-helpers.ts";
import * as credentials from "../../repositories/sql-credentials.ts";
import { requireCompanyUser } from "../workspaces/users.ts";

type AnyContext = Context<AppEnv, any, any>;

export const CREDENTIAL_NOT_FOUND_MESSAGE = "SQL credential not found.";
export const CREDENTIAL_REVOKED_MESSAGE = "This SQL credential was revoked: create a new one instead.";
export const DUPLICATE_SERVICE_NAME_MESSAGE = "The company already has a SQL credential for a service with this name: revoke it first, or choose another name.";

const tags = ["SQL credentials"];
const errors = {
  ...errorResponses,
  403: jsonContent(apiErrorSchema, "Not SuperAdmin or Support (Additional Options)."),
} as const;
const writeErrors = { ...errors, 409: jsonContent(apiErrorSchema, "The credential is revoked.") } as const;
const createErrors = { ...errors, 409: jsonContent(apiErrorSchema, "A credential of this form was made already, or a service's name is taken.") } as const;
const idParams = z.object({ id: z.string().min(1) });

const list = createRoute({
  method: "get",
  path: "/sql-credentials",
  tags,
  summary: "A company's SQL credentials (Additional Options: SuperAdmin, Support)",
  description: "Paged, filtered by status and sorted in SQL. Last use is when a session of the login was last seen (sampled as the list is read).",
  request: { query: sqlCredentialQuerySchema },
  responses: { 200: jsonContent(sqlCredentialPageSchema, "A page of credentials."), ...errors },
});

const one = createRoute({
  method: "get",
  path: "/sql-credentials/{id}",
  tags,
  summary: "One SQL credential of the company, on any page of its list (the revocation's confirmation)",
  description: "Another company's credential (with `companyId` the page's) answers 404 as an unknown id does.",
  request: { params: idParams, query: inCompanyQuery },
  responses: { 200: jsonContent(z.object({ credential: sqlCredentialSchema }), "The credential."), ...errors },
});

const create = createRoute({
  method: "post",
  path: "/sql-credentials",
  tags,
  summary: "Create a SQL credential: a PostgreSQL login for a user of the company or a named service",
  description: "The password is in this answer and never again. The login reaches no database until a workspace grants it Read or Write.",
  request: { body: jsonBody(createSqlCredentialSchema) },
  responses: { 201: jsonContent(issuedSqlCredentialSchema, "The credential, its password and how to connect."), ...createErrors },
});

const rotate = createRoute({
  method: "post",
  path: "/sql-credentials/{id}/rotate",
  tags,
  summary: "A new password for the credential; the old one stops working",
  request: { params: idParams, query: rotateSqlCredentialQuerySchema },
  responses: { 200: jsonContent(issuedSqlCredentialSchema, "The new password (shown once) and how to connect."), ...writeErrors },
});

const revoke = createRoute({
  method: "post",
  path: "/sql-credentials/{id}/revoke",
  tags,
  summary: "Revoke the credential: its login is disabled at once and its sessions are ended",
  request: { params: idParams, query: inCompanyQuery, body: jsonBody(revokeSqlCredentialSchema) },
  responses: { 200: jsonContent(z.object({ credential: sqlCredentialSchema }), "The revoked credential."), ...writeErrors },
});

/**
 * A create form sent again once it made its credential (a reload of the page showing the password): said, nothing more made.
 * Another company's credential (a forged id) answers as an unknown one: neither that it exists nor when it was made.
 */
function alreadyMade(made: credentials.SqlCredentialRow, companyId: string): ApiProblem {
  if (made.company_id !== companyId) return new ApiProblem(404, "not_found", CREDENTIAL_NOT_FOUND_MESSAGE);
  const what = `SQL credential ${made.login} for ${made.name}`;
  return new ApiProblem(409, "already_made", alreadyMadeMessage(what, made.created_at, "its password was shown then: rotate it to get a new one."));
}

/** SQL credentials (issue 13): Additional Options, so SuperAdmin and Support only, one company at a time. */
export function createSqlCredentialsRouter() {
  return createRouter()
    .openapi(list, async (c) => {
      const q = c.req.valid("query");
      await requireAreaRole(c, "additionalOptions", q.companyId, { write: false });
      const { db, dataPlane } = c.var.deps;
      const today = todayUtc();
      const { rows, total } = await credentials.searchCredentials(db, q, today);
      // Who is connected right now is the only "last used" PostgreSQL can tell: it keeps no login history.
      const connected = await loginsConnected(
        dataPlane,
        rows.filter((r) => !r.revoked_at).map((r) => r.login),
      ).catch(() => new Set<string>());
      const now = new Date().toISOString();
      await credentials.markUsed(db, [...connected], now);
      const seen = rows.map((r) => (connected.has(r.login) ? { ...r, last_used_at: now } : r));
      return c.json({ items: await toCredentials(c, seen), total, page: q.page, pageSize: q.pageSize }, 200);
    })
    .openapi(one, async (c) => {
      const row = await requireCredential(c, c.req.valid("param").id, c.req.valid("query").companyId, { write: false });
      const [credential] = await toCredentials(c, [row]);
      return c.json({ credential: credential! }, 200);
    })
    .openapi(create, async (c) => {
      const body = c.req.valid("json");
      await requireAreaRole(c, "additionalOptions", body.companyId, { write: true });
      const user = body.userId ? await requireCompanyUser(c, body.companyId, body.userId) : undefined;
      const { db, dataPlane } = c.var.deps;
      // The form's own id when it chose one (madeIdSchema): sent again, it finds its credential made.
      const id = body.id ?? randomUUID();
      const login = loginNameOf(id);
      const password = newPassword();
      const at = new Date().toISOString();
      const by = c.var.caller.userId;
      const name = user?.name ?? body.serviceName!;
      const row: credentials.SqlCredentialRow = {
        id,
        company_id: body.companyId,
        login,
        user_id: user?.id ?? null,
        name,
        name_key: user ? null : nameKey(name),
        name_sort: naturalSortKey(name),
        note: body.note,
        expires_on: body.expiresOn,
        created_at: at,
        created_by: by,
        password_set_at: at,
        last_used_at: null,
        revoked_at: null,
        revoked_by: null,
      };
      await makeOnce(
        db,
        () => credentials.findCredential(db, id),
        (made) => {
          throw alreadyMade(made, body.companyId);
        },
        async (trx) => {
          if (!user && (await credentials.serviceNameTaken(trx, body.companyId, row.name, id)))
            throw new DuplicateNameError("serviceName", DUPLICATE_SERVICE_NAME_MESSAGE);
          await credentials.insertCredential(trx, row);
          describeWrite({
            action: "sql_credential.created",
            companyId: body.companyId,
            target: `SQL credential ${login}`,
            summary: { login, for: row.name, kind: user ? "user" : "service", expiresOn: row.expires_on, note: row.note },
          });
          // Last: a login made only once its rows are sure to commit (a failure here rolls them back).
          await createLogin(dataPlane, login, password, row.expires_on);
        },
      ).catch((err: unknown) => {
        // Two creates of one service's name at once: both passed the check above; the unique index did not let
        // the second through. (The same form sent twice at once is makeOnce's "already made" before this.)
        if (!user && isUniqueViolation(err)) throw new DuplicateNameError("serviceName", DUPLICATE_SERVICE_NAME_MESSAGE);
        throw err;
      });
      return c.json(await issued(c, row, password), 201);
    })
    .openapi(rotate, async (c) => {
      const query = c.req.valid("query");
      const row = await requireCredential(c, c.req.valid("param").id, query.companyId);
      if (row.revoked_at) throw new ApiProblem(409, "revoked", CREDENTIAL_REVOKED_MESSAGE);
      const { db, dataPlane } = c.var.deps;
      const password = newPassword();
      const at = new Date().toISOString();
      await inTransaction(db, async (trx) => {
        if (!(await credentials.markRotated(trx, row.id, at, query.passwordSetAt))) {
          const now = await credentials.findCredential(trx, row.id);
          throw new ApiProblem(409, "stale_version", rotatedMeanwhileMessage(row.login, now?.password_set_at ?? at));
        }
        describeWrite({
          action: "sql_credential.rotated",
          companyId: row.company_id,
          target: `SQL credential ${row.login}`,
          summary: { login: row.login, for: row.name, passwordSetBefore: row.password_set_at, passwordSetAt: at },
        });
        await setLoginPassword(dataPlane, row.login, password, row.expires_on);
      });
      return c.json(await issued(c, { ...row, password_set_at: at }, password), 200);
    })
    .openapi(revoke, async (c) => {
      const row = await requireCredential(c, c.req.valid("param").id, c.req.valid("query").companyId);
      if (row.revoked_at) throw new ApiProblem(409, "revoked", "This SQL credential is already revoked.");
      const { reason } = c.req.valid("json");
      const { db, dataPlane } = c.var.deps;
      const at = new Date().toISOString();
      const by = c.var.caller.userId;
      await inTransaction(db, async (trx) => {
        await credentials.markRevoked(trx, row.id, at, by);
        describeWrite({
          action: "sql_credential.revoked",
          companyId: row.company_id,
          target: `SQL credential ${row.login}`,
          summary: { login: row.login, for: row.name, status: { before: credentials.statusOf(row, todayUtc()), after: "Revoked" } },
          reason,
        });
        await disableLogin(dataPlane, row.login);
      });
      const [credential] = await toCredentials(c, [{ ...row, revoked_at: at, revoked_by: by }]);
      return c.json({ credential: credential! }, 200);
    });
}

/** The credential if the caller may manage its company's (Additional Options); another company's answers 404 like an unknown id. */
async function requireCredential(c: AnyContext, id: string, companyId: string | undefined, { write } = { write: true }): Promise<credentials.SqlCredentialRow> {
  const row = await credentials.findCredential(c.var.deps.db, id);
  if (!row) throw new ApiProblem(404, "not_found", CREDENTIAL_NOT_FOUND_MESSAGE);
  requireInCompany(row.company_id, companyId, CREDENTIAL_NOT_FOUND_MESSAGE);
  await requireAreaRole(c, "additionalOptions", row.company_id, { write, notFoundMessage: CREDENTIAL_NOT_FOUND_MESSAGE });
  return row;
}

async function toCredentials(c: AnyContext, rows: readonly credentials.SqlCredentialRow[]): Promise<SqlCredential[]> {
  const { db, dataPlane, sqlAccess } = c.var.deps;
  const today = todayUtc();
  const granted = await credentials.grantedDatabases(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    companyId: r.company_id,
    login: r.login,
    userId: r.user_id,
    name: r.name,
    note: r.note,
    expiresOn: r.expires_on,
    createdAt: r.created_at,
    createdBy: r.created_by,
    passwordSetAt: r.password_set_at,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
    status: credentials.statusOf(r, today),
    databases: granted
      .filter((g) => g.credential_id === r.id && g.database_server)
      .map((g) => ({
        workspaceId: g.project_id,
        workspaceName: g.name,
        workspaceKind: workspaceOfProductType(g.product_type)?.kind ?? "migration",
        database: databaseNameOf(g.project_id),
        ...accessAddress(dataPlane, g.database_server!, sqlAccess),
        level: g.level,
      })),
  }));
}

/** The answer that carries the password: the credential, and a URI per database it reaches now. */
async function issued(c: AnyContext, row: credentials.SqlCredentialRow, password: string): Promise<IssuedSqlCredential> {
  const { dataPlane, sqlAccess } = c.var.deps;
  const [credential] = await toCredentials(c, [row]);
  const sslmode = sqlAccess?.sslmode ?? null;
  const address = accessAddress(dataPlane, dataPlane.servers[0]!.id, sqlAccess);
  return {
    credential: credential!,
    password,
    connection: {
      ...address,
      sslmode,
      user: row.login,
      uris: credential!.databases.map((d) => ({
        workspaceName: d.workspaceName,
        database: d.database,
        uri: connectionUri(row.login, password, d, d.database, sslmode ?? undefined),
      })),
    },
  };
}
