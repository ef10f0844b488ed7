import { Hono, type Context } from "hono";
import { PostgresAdapter, sql, type Kysely } from "kysely";
import {
  adminDataSourcesResponseSchema,
  brandingSchema,
  companyUsersPageQuerySchema,
  companyUsersPageSchema,
  permissionsResponseSchema,
} from "../../../contracts/client-portal.ts";
import { isAdmin } from "../../../contracts/roles.ts";
import { processFacts } from "../../shared/product-facts.ts";
import { bearerAuth, type BearerOptions, type Caller } from "../../shared/bearer.ts";
import { apiError } from "../../shared/http.ts";
import type { Logger } from "../../shared/logger.ts";
import type { AppEnv } from "./app-env.ts";
import { listAdminDataSources } from "./db/admin-data-sources.ts";
import { getBranding } from "./db/branding.ts";
import type { Database } from "./db/schema.ts";
import { findUserById, listPermissions } from "./db/users.ts";
import type { ClientPortalEnv } from "./env.ts";
import { DEFAULT_LOGO_SVG } from "./views/layout.ts";
import { USERINFO_PATH } from "./oidc.ts";
import { dashboardPage } from "./views/pages.ts";

type Deps = { db: Kysely<Database>; env: ClientPortalEnv; bearer: BearerOptions; logger: Logger };

/** The client portal API ("Base A" of the specification), the dashboard page and the health check. */
export function apiRoutes({ db, env, bearer, logger }: Deps) {
  const app = new Hono<AppEnv>();
  const requireBearer = bearerAuth(bearer, logger);

  /** Spec §7: a user's company-specific product roles. Users read their own; SuperAdmin and Support anyone's. */
  app.get("/api/v1/permissions/:userId", requireBearer, async (c) => {
    const caller = c.get("caller");
    const userId = c.req.param("userId");
    if (caller.userId !== userId && !isAdmin(caller.roles)) {
      return apiError(c, 403, "forbidden", ["You don't have permission to access."]);
    }
    if (!(await findUserById(db, userId))) return apiError(c, 404, "not_found", ["User not found."]);
    return c.json(permissionsResponseSchema.parse(await listPermissions(db, userId)));
  });

  /**
   * A page of the company's people (anyone holding a permission entry for it), sorted by name, searched
   * and counted in SQL: the portal's user pickers (a company of thousands) and the names of the people
   * a page shows, and the data API's check that a user given access is one of them (`id`). There is no
   * whole list: no caller needs one. SuperAdmin and Support may ask for any company; others only for a
   * company they hold an entry for themselves. `include=roles` adds each person's product role in the
   * company (the project-access page says whose role keeps them out of the workspace's area). A bad
   * query answers 400 naming it.
   */
  app.get("/api/v1/companies/:companyId/users/page", requireBearer, async (c) => {
    const companyId = c.req.param("companyId");
    if (!(await mayAskAboutCompany(db, c.get("caller"), companyId))) return companyNotFound(c);
    const query = companyUsersPageQuerySchema.safeParse({ ...c.req.query(), id: c.req.queries("id") });
    if (!query.success)
      return apiError(
        c,
        400,
        "validation_failed",
        query.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`),
      );
    const { page, pageSize, name, id, include } = query.data;
    const contains = name ? `%${name.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%` : null;
    const matching = companyUsersQuery(db, companyId)
      .$if(contains !== null, (q) => q.where(sql<boolean>`(lower(users.name) like ${contains} escape '\\' or lower(users.email) like ${contains} escape '\\')`))
      .$if(id.length > 0, (q) => q.where("users.id", "in", id));
    const { total } = await matching
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as("total"))
      .executeTakeFirstOrThrow();
    const rows = await orderedByName(matching)
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute();
    const items = include === "roles" ? rows : rows.map(({ productRoleName: _, ...u }) => u);
    return c.json(companyUsersPageSchema.parse({ items, total: Number(total), page, pageSize }));
  });

  /**
   * A company's admin data sources (its schemes), sorted by name: the data API serves them to the
   * portal and checks onboarding configurations' schemes against them. The same rule as the
   * company's users: SuperAdmin and Support any company; others a company they hold an entry for.
   */
  app.get("/api/v1/companies/:companyId/admin-data-sources", requireBearer, async (c) => {
    const companyId = c.req.param("companyId");
    if (!(await mayAskAboutCompany(db, c.get("caller"), companyId))) return companyNotFound(c);
    return c.json(adminDataSourcesResponseSchema.parse(await listAdminDataSources(db, companyId)));
  });

  /** OpenID Connect userinfo for the portal's JWT access tokens: the same claims as the ID token. */
  app.on(["GET", "POST"], USERINFO_PATH, requireBearer, async (c) => {
    c.header("Cache-Control", "no-store");
    const user = await findUserById(db, c.get("caller").userId);
    if (!user) {
      c.header("WWW-Authenticate", 'Bearer error="invalid_token"');
      return apiError(c, 401, "unauthorized", ["The access token is not valid."]);
    }
    return c.json({ sub: user.id, name: user.name, [env.ROLES_CLAIM]: user.roles });
  });

  /** Public: the sign-in page shows it before anyone has a token. */
  app.get("/api/v1/branding", async (c) => c.json(brandingSchema.parse(await getBranding(db))));

  app.get("/dashboard", async (c) => c.html(dashboardPage({ branding: await getBranding(db), portalUrl: env.PORTAL_URL })));

  app.get("/assets/default-logo.svg", (c) => {
    c.header("Content-Type", "image/svg+xml");
    c.header("Cache-Control", "public, max-age=86400");
    return c.body(DEFAULT_LOGO_SVG);
  });

  /** The product info page (issue 13): this process's version, build, uptime and database. */
  app.get("/api/v1/productInfo", requireBearer, (c) =>
    c.json({ ...processFacts(), controlPlane: db.getExecutor().adapter instanceof PostgresAdapter ? "PostgreSQL" : "SQLite" }),
  );

  app.get("/healthz", async (c) => {
    try {
      await sql`select 1`.execute(db);
      return c.json({ status: "ok" });
    } catch (err) {
      logger.error("health check failed", { err });
      return c.json({ status: "unavailable" }, 503);
    }
  });

  return app;
}

/** SuperAdmin and Support may ask about any company; others about a company they hold a permission entry for. */
async function mayAskAboutCompany(db: Kysely<Database>, caller: Caller, companyId: string): Promise<boolean> {
  if (isAdmin(caller.roles)) return true;
  const own = await listPermissions(db, caller.userId);
  return own.some((p) => p.companyId === companyId);
}

/**
 * A company the caller holds no entry for is not found, as the data API answers another company's ids
 * (and whether or not it exists): never a 403 that a caller could read as "it is there, but not yours".
 */
const companyNotFound = (c: Context) => apiError(c, 404, "not_found", ["Company not found."]);

/** The company's people: anyone holding a permission entry for it. */
function companyUsersQuery(db: Kysely<Database>, companyId: string) {
  return db
    .selectFrom("users")
    .innerJoin("permissions", "permissions.user_id", "users.id")
    .select(["users.id", "users.name", "users.email", "permissions.product_role_name as productRoleName"])
    .where("permissions.company_id", "=", companyId);
}

/** Case-insensitive name order first so "ann" and "Ann" sit together on both engines; id keeps ties stable. */
function orderedByName<Q extends ReturnType<typeof companyUsersQuery>>(query: Q): Q {
  return query
    .orderBy(sql`lower(users.name)`)
    .orderBy("users.name")
    .orderBy("users.id") as Q;
}
