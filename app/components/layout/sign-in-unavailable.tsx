import { Alert } from "~/components/ui/alert";
import { Card, CardTitle } from "~/components/ui/card";
import { MAIN_ID } from "./skip-link";

/**
 * The identity provider cannot be reached (503): at /login, and on any signed-in page whose access
 * token needed a refresh meanwhile. The session is kept; "Try again" retries the same page.
 */
export function SignInUnavailable({ retry, message }: { retry: string; message?: string }) {
  return (
    <main id={MAIN_ID} tabIndex={-1} className="mx-auto w-full max-w-md p-6">
      <Card>
        <CardTitle as="h1">Sign-in is unavailable</CardTitle>
        <Alert className="mt-4">{message ?? "The sign-in service is not reachable right now. Please try again in a moment."}</Alert>
        <p className="mt-4 text-sm">
          <a className="text-brand underline" href={retry}>
            Try again
          </a>
        </p>
      </Card>
    </main>
  );
}
