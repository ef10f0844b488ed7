import { data, redirect } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Card, CardTitle } from "~/components/ui/card";
import { getAuth, startLogin } from "~/lib/auth.server";
import { loginPath, safeRedirect } from "~/lib/safe-redirect";
import { createLogger } from "../../../services/shared/logger";
import type { Route } from "./+types/login";

const log = createLogger("portal.login");

/** Spec §2: /login sends the browser to the external sign-in page, keeping where the user came from. */
export async function loader({ request }: Route.LoaderArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"));
  if (await getAuth(request)) throw redirect(redirectTo);
  try {
    return await startLogin(request, redirectTo);
  } catch (err) {
    if (err instanceof Response) throw err;
    log.error("identity provider unreachable", { err });
    return data({ retry: loginPath(redirectTo) }, { status: 503 });
  }
}

export default function Login({ loaderData }: Route.ComponentProps) {
  return (
    <main className="mx-auto w-full max-w-md p-6">
      <Card>
        <CardTitle as="h1">Sign-in is unavailable</CardTitle>
        <Alert className="mt-4">The sign-in service is not reachable right now. Please try again in a moment.</Alert>
        <p className="mt-4 text-sm">
          <a className="text-brand underline" href={loaderData.retry}>
            Try again
          </a>
        </p>
      </Card>
    </main>
  );
}
