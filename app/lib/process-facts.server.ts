import { databaseKind } from "../../services/shared/db";
import { processFacts } from "../../services/shared/product-facts";
import { env } from "./env.server";

/** The portal's own facts for the product info page: the shared ones (services/shared/product-facts.ts) and its sessions database. */
export function portalFacts() {
  return { ...processFacts(), controlPlane: databaseKind(env.PORTAL_DATABASE_URL) === "postgres" ? "PostgreSQL" : "SQLite" };
}
