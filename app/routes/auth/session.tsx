import { getAuth } from "~/lib/auth.server";
import type { Route } from "./+types/session";

/**
 * The browser's session check (every 5 s with JavaScript on): 200 while the session exists, 401 once
 * it is gone. It refreshes the access token like any request, so a session ended at the provider
 * (refresh refused) is noticed too.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const authenticated = await getAuth(request);
  return Response.json({ active: Boolean(authenticated) }, { status: authenticated ? 200 : 401, headers: { "Cache-Control": "no-store" } });
}
