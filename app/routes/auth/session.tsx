import { getAuth, ProviderUnavailableError, stillSignedInAtProvider } from "~/lib/auth.server";
import type { Route } from "./+types/session";

/**
 * The browser's session check (every 5 s with JavaScript on): 200 while the session exists, 401 once
 * it is gone: logged out in another tab, expired, or ended at the provider (asked every 30 s). 503
 * while the provider cannot be reached to refresh the token: the session still exists, the page stays.
 */
export async function loader({ request }: Route.LoaderArgs) {
  let authenticated;
  try {
    authenticated = await getAuth(request);
  } catch (err) {
    if (!(err instanceof ProviderUnavailableError)) throw err;
    return Response.json({ active: true, providerUnavailable: true }, { status: 503, headers: { "Cache-Control": "no-store" } });
  }
  const active = Boolean(authenticated) && (await stillSignedInAtProvider(authenticated!));
  return Response.json({ active }, { status: active ? 200 : 401, headers: { "Cache-Control": "no-store" } });
}
