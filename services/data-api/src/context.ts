import type { Kysely } from "kysely";
import type { BearerOptions, BearerVariables } from "../../shared/bearer.ts";
import type { RequestIdVariables } from "../../shared/http.ts";
import type { Logger } from "../../shared/logger.ts";
import type { Database } from "./db/schema.ts";
import type { PermissionsSource } from "./permissions.ts";

/** What createApp needs from the outside: the server wires real ones, tests wire their own. */
export type AppDeps = {
  db: Kysely<Database>;
  logger: Logger;
  bearer: BearerOptions;
  permissions: PermissionsSource;
  /** The product version (root package.json), answered by productInfo. */
  version: string;
};

/**
 * The Hono environment of every router. `deps` is set for every request; `caller` only behind
 * bearerAuth, that is on every /api/v1 route except the OpenAPI document.
 */
export type AppEnv = {
  Variables: RequestIdVariables & BearerVariables & { deps: AppDeps };
};
