import { sql } from "kysely";
import { portalDb } from "./db.server";
import { withSecurityHeaders } from "./security-headers.server";

/**
 * The portal's health: it can reach its own database (the sessions every signed-in page reads). Answered
 * by the route /healthz (the development server, and tests that call the build's request handler) and,
 * in production, by the portal's server entry before anything else (`healthz` in entry.server.tsx,
 * decision 031): the same check and the same headers either way.
 */
export async function portalHealth(): Promise<Response> {
  try {
    await sql`select 1`.execute(await portalDb());
    return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
  } catch {
    return Response.json({ status: "unavailable" }, { status: 503, headers: { "Cache-Control": "no-store" } });
  }
}

/** `portalHealth` with the headers the root middleware gives every answer that goes through React Router. */
export async function healthAnswer(request: Request): Promise<Response> {
  return withSecurityHeaders(await portalHealth(), request);
}
