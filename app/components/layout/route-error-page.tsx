import { isRouteErrorResponse, useRouteError } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Card, CardTitle } from "~/components/ui/card";
import { useCompanyHref } from "~/lib/company-href";
import { useErrorReference } from "~/lib/error-reference";
import { useHeadingTag } from "./heading-level";
import { SignInUnavailable } from "./sign-in-unavailable";

const STATUS_LINES: Record<number, string> = {
  400: "The request could not be read. Go back to the page and try again.",
  404: "There is nothing at this address.",
  405: "This page does not take that request. Go back to the page and use its own buttons.",
};

/**
 * The error catalogue's page (spec §8): a failed load shows the server's error lines joined in an
 * alert; an unexpected error shows a reference id that is also in the server log, never a stack.
 */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const reference = useErrorReference();
  // The main page of the company the user is in (spec §9: links keep companyId), not the first company's.
  const href = useCompanyHref();
  // Caught below a layout with its own h1 (a project's name over its tabs), the page keeps that one h1.
  const Title = useHeadingTag();
  // The provider is down and the session's token needs a refresh (auth.server signInUnavailable): the session is kept.
  if (isRouteErrorResponse(error) && error.status === 503 && (error.data as { signInUnavailable?: unknown } | null)?.signInUnavailable === true) {
    const { retry, errors } = error.data as { retry: string; errors: string[] };
    return <SignInUnavailable retry={retry} message={errors[0]} />;
  }
  let title = "Something went wrong";
  let lines: string[] = ["An unexpected error occurred. Please try again."];
  if (isRouteErrorResponse(error)) {
    title = error.status === 404 ? "Not found" : error.status === 403 ? "Permission denied" : "The page could not be loaded";
    const body = error.data as { errors?: unknown } | string | undefined;
    // The portal's own refusals carry `errors`; a bare string is the router's own text (a POST to a page
    // without an action, a malformed request), written for developers, so the status's sentence is shown.
    if (body && typeof body === "object" && Array.isArray(body.errors)) lines = body.errors.map(String);
    else lines = [STATUS_LINES[error.status] ?? (error.statusText || `Error ${error.status}`)];
  }
  return (
    <div className="mx-auto w-full max-w-2xl p-6">
      <Card>
        <CardTitle as={Title}>{title}</CardTitle>
        <Alert className="mt-4">{lines.join(" ")}</Alert>
        {!isRouteErrorResponse(error) && reference ? (
          <p className="mt-4 text-sm text-muted-foreground">
            Reference: <code>{reference}</code>
          </p>
        ) : null}
        <p className="mt-4 text-sm">
          <a className="text-brand underline" href={href("/")}>
            Go to main page
          </a>
        </p>
      </Card>
    </div>
  );
}
