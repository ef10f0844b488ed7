import { createRoute } from "@hono/zod-openapi";
import { PostgresAdapter } from "kysely";
import { productDetailsSchema, productInfoSchema } from "../../../../../contracts/data-api.ts";
import { apiErrorSchema } from "../../../../../contracts/errors.ts";
import { processFacts } from "../../../../shared/product-facts.ts";
import { accessSettings, requireAdmin } from "../../access.ts";
import { createRouter, errorResponses, jsonContent } from "../../openapi.ts";

const getProductInfo = createRoute({
  method: "get",
  path: "/productInfo",
  tags: ["Product info"],
  summary: "The product version, shown in the portal's footer",
  responses: {
    200: jsonContent(productInfoSchema, "The product version."),
    401: errorResponses[401],
  },
});

const getDetails = createRoute({
  method: "get",
  path: "/productInfo/details",
  tags: ["Product info"],
  summary: "The data API's version, build, uptime, control plane and each project database server's PostgreSQL version (SuperAdmin, Support)",
  responses: {
    200: jsonContent(productDetailsSchema, "The details."),
    401: errorResponses[401],
    403: jsonContent(apiErrorSchema, "Not SuperAdmin or Support."),
  },
});

export function createProductInfoRouter() {
  return createRouter()
    .openapi(getProductInfo, (c) => c.json({ version: c.var.deps.version }, 200))
    .openapi(getDetails, async (c) => {
      requireAdmin(c);
      const { db, dataPlane } = c.var.deps;
      // A server that does not answer is listed with its error: the page is how an admin finds out.
      const databaseServers = await Promise.all(
        dataPlane.servers.map((server) =>
          dataPlane
            .withAdmin(server.id, null, (admin) => admin.query<{ server_version: string }>("show server_version"))
            .then(
              (r) => ({ id: server.id, version: r.rows[0]!.server_version, error: null }),
              (err: unknown) => ({ id: server.id, version: null, error: err instanceof Error ? err.message : String(err) }),
            ),
        ),
      );
      const controlPlane = db.getExecutor().adapter instanceof PostgresAdapter ? ("PostgreSQL" as const) : ("SQLite" as const);
      return c.json({ ...processFacts(), version: c.var.deps.version, controlPlane, cloudTarget: accessSettings(c).cloudTarget, databaseServers }, 200);
    });
}
