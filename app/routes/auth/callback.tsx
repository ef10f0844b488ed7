import { data } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Card, CardTitle } from "~/components/ui/card";
import { finishLogin, SignInError } from "~/lib/auth.server";
import { createLogger } from "../../../services/shared/logger";
import type { Route } from "./+types/callback";
import { MAIN_ID } from "~/components/layout/skip-link";

const log = createLogger("portal.callback");

/** The provider sends the browser here with the code; a tampered or replayed one gets a 400 and a way back. */
export async function loader({ request }: Route.LoaderArgs) {
  try {
    return await finishLogin(request);
  } catch (err) {
    if (err instanceof Response) throw err;
    if (err instanceof SignInError) return data({ message: err.message }, { status: 400 });
    log.error("sign-in callback failed", { err });
    return data({ message: "The sign-in service is not reachable right now. Please try again in a moment." }, { status: 503 });
  }
}

export default function Callback({ loaderData }: Route.ComponentProps) {
  return (
    <main id={MAIN_ID} tabIndex={-1} className="mx-auto w-full max-w-md p-6">
      <Card>
        <CardTitle as="h1">Sign-in failed</CardTitle>
        <Alert className="mt-4">{loaderData.message}</Alert>
        <p className="mt-4 text-sm">
          <a className="text-brand underline" href="/login">
            Sign in again
          </a>
        </p>
      </Card>
    </main>
  );
}
