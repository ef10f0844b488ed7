import { getAuth, stillSignedInAtProvider } from "~/lib/auth.server";
import type { Route } from "./+types/session";

/**
 * The browser's session check (every 5 s with JavaScript on): 200 while the session exists, 401 once
 * it is gone: logged out in another tab, expired, or ended at the provider (asked every 30 s).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const authenticated = await getAuth(request);
  const active = Boolean(authenticated) && (await stillSignedInAtProvider(authenticated!));
  return Response.json({ active }, { status: active ? 200 : 401, headers: { "Cache-Control": "no-store" } });
}
