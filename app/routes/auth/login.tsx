import { data, redirect } from "react-router";
import { SignInUnavailable } from "~/components/layout/sign-in-unavailable";
import { getAuth, startLogin } from "~/lib/auth.server";
import { loginPath, safeRedirect } from "~/lib/safe-redirect";
import { createLogger } from "../../../services/shared/logger";
import type { Route } from "./+types/login";

const log = createLogger("portal.login");

/**
 * Spec §2: /login sends the browser to the external sign-in page, keeping where the user came from.
 * While the provider is down (or a signed-in user's token cannot be refreshed because of it) it
 * answers its own "Sign-in is unavailable" page, 503, never a redirect to a dead host.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"));
  try {
    if (await getAuth(request)) throw redirect(redirectTo);
    return await startLogin(request, redirectTo);
  } catch (err) {
    if (err instanceof Response) throw err;
    log.error("identity provider unreachable", { err });
    return data({ retry: loginPath(redirectTo) }, { status: 503 });
  }
}

export default function Login({ loaderData }: Route.ComponentProps) {
  return <SignInUnavailable retry={loaderData.retry} />;
}
