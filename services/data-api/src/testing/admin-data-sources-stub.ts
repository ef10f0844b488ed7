/**
 * A stand-in for the client portal's `GET /api/v1/companies/{companyId}/admin-data-sources`, served
 * over the `fetch` the data API's admin-data-sources source uses, with Base A's rule (admins any
 * company, others a company they hold a permission entry for, else 403) and the demo schemes of
 * scripts/demo-data.ts. `setMode("down")` makes the client portal unreachable.
 */
import { Hono } from "hono";
import type { AdminDataSource } from "../../../../contracts/client-portal.ts";
import { isAdmin } from "../../../../contracts/roles.ts";
import { DEMO_ADMIN_DATA_SOURCES, type DemoUser } from "../../../../scripts/demo-data.ts";
import { bearerAuth, type BearerOptions, type BearerVariables } from "../../../shared/bearer.ts";
import type { Fetch } from "../permissions.ts";
import { CLIENT_PORTAL_TEST_URL } from "./client-portal-stub.ts";

export function createAdminDataSourcesStub(bearer: BearerOptions, users: readonly DemoUser[]) {
  let mode: "up" | "down" = "up";
  const sources: AdminDataSource[] = DEMO_ADMIN_DATA_SOURCES.map((s) => ({ ...s }));
  const app = new Hono<{ Variables: BearerVariables }>();
  app.get("/api/v1/companies/:companyId/admin-data-sources", bearerAuth(bearer), (c) => {
    const companyId = c.req.param("companyId");
    const caller = c.var.caller;
    const own = users.find((u) => u.id === caller.userId)?.permissions ?? [];
    if (!isAdmin(caller.roles) && !own.some((p) => p.companyId === companyId)) return c.body(null, 403);
    return c.json(sources.filter((s) => s.companyId === companyId).sort((a, b) => a.name.localeCompare(b.name)));
  });
  const fetch: Fetch = async (url, init) => {
    if (!url.startsWith(CLIENT_PORTAL_TEST_URL)) throw new TypeError(`unexpected URL ${url}`);
    if (mode === "down") throw new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED") });
    return app.request(url, init);
  };
  return {
    fetch,
    setMode(next: "up" | "down") {
      mode = next;
    },
  };
}
