import { Card, CardDescription, CardTitle } from "~/components/ui/card";
import { COMPANY_PARAM, companyHref } from "~/lib/company-href";
import { env } from "~/lib/env.server";
import type { Route } from "./+types/permission-denied";

export async function loader({ request }: Route.LoaderArgs) {
  return {
    home: companyHref("/", new URL(request.url).searchParams.get(COMPANY_PARAM)),
    dashboardUrl: `${env.CLIENT_PORTAL_URL}/dashboard`,
  };
}

/** Switching company here goes to the main page of the new company. */
export const handle = { companySwitchTo: "/" };

export default function PermissionDenied({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto w-full max-w-lg">
      <Card>
        <CardTitle as="h1">Permission Denied</CardTitle>
        <CardDescription>Your role does not give access to this page in the selected company.</CardDescription>
        <ul className="mt-4 flex flex-wrap gap-4 text-sm">
          <li>
            <a className="text-brand underline" href={loaderData.home}>
              Go to main page
            </a>
          </li>
          <li>
            <a className="text-brand underline" href={loaderData.dashboardUrl}>
              Go to client portal dashboard
            </a>
          </li>
        </ul>
      </Card>
    </div>
  );
}

export function meta() {
  return [{ title: "Permission Denied · Data Transformation" }];
}
