/**
 * A stand-in for the client portal's `GET /api/v1/companies/{companyId}/users/page` (its `id`
 * filter and paging), served over the `fetch` the data API's company-users source uses, with Base
 * A's rule: admins may ask for any company, others only for a company they hold a permission entry
 * for (else 403). The company's whole list is not served: the data API never needs it.
 */
import { Hono } from "hono";
import { companyUsersPageQuerySchema, type CompanyUser } from "../../../../contracts/client-portal.ts";
import { isAdmin } from "../../../../contracts/roles.ts";
import type { DemoUser } from "../../../../scripts/demo-data.ts";
import { bearerAuth, type BearerOptions, type BearerVariables } from "../../../shared/bearer.ts";
import type { Fetch } from "../permissions.ts";
import { CLIENT_PORTAL_TEST_URL } from "./client-portal-stub.ts";

export function createCompanyUsersStub(bearer: BearerOptions, users: readonly DemoUser[]): Fetch {
  const app = new Hono<{ Variables: BearerVariables }>();
  app.get("/api/v1/companies/:companyId/users/page", bearerAuth(bearer), (c) => {
    const companyId = c.req.param("companyId");
    const caller = c.var.caller;
    const own = users.find((u) => u.id === caller.userId)?.permissions ?? [];
    if (!isAdmin(caller.roles) && !own.some((p) => p.companyId === companyId)) return c.body(null, 403);
    const query = companyUsersPageQuerySchema.safeParse({ ...c.req.query(), id: c.req.queries("id") });
    if (!query.success) return c.body(null, 400);
    const { id, page, pageSize } = query.data;
    const members: CompanyUser[] = users
      .filter((u) => u.permissions.some((p) => p.companyId === companyId) && (id.length === 0 || id.includes(u.id)))
      .map((u) => ({ id: u.id, name: u.name, email: u.email }))
      .sort((a, b) => a.name.localeCompare(b.name));
    return c.json({ items: members.slice((page - 1) * pageSize, page * pageSize), total: members.length, page, pageSize });
  });
  return async (url, init) => {
    if (!url.startsWith(CLIENT_PORTAL_TEST_URL)) throw new TypeError(`unexpected URL ${url}`);
    return app.request(url, init);
  };
}
