import { sql } from "kysely";
import { portalDb } from "~/lib/db.server";
import type { Route } from "./+types/healthz";

export async function loader(_: Route.LoaderArgs) {
  try {
    await sql`select 1`.execute(await portalDb());
    return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
  } catch {
    return Response.json({ status: "unavailable" }, { status: 503 });
  }
}
