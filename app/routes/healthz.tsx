import { portalHealth } from "~/lib/health.server";
import type { Route } from "./+types/healthz";

/**
 * The development server's /healthz, and that of tests calling the build's request handler: in
 * production the portal's server entry answers it before React Router (server/portal.ts, decision 031).
 */
export async function loader(_: Route.LoaderArgs) {
  return portalHealth();
}
