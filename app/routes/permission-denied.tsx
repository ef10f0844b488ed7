import { Card, CardDescription, CardTitle } from "~/components/ui/card";
import { COMPANY_PARAM, companyHref, useCompanyHref } from "~/lib/company-href";
import { env } from "~/lib/env.server";
import { MENU } from "~/lib/menu";
import { useOpenAreas } from "~/lib/open-areas";
import type { Route } from "./+types/permission-denied";

export async function loader({ request }: Route.LoaderArgs) {
  return {
    home: companyHref("/", new URL(request.url).searchParams.get(COMPANY_PARAM)),
    dashboardUrl: `${env.CLIENT_PORTAL_URL}/dashboard`,
  };
}

/** Switching company here goes to the main page of the new company. */
export const handle = { companySwitchTo: "/", title: () => "Permission Denied · Data Transformation" };

export default function PermissionDenied({ loaderData }: Route.ComponentProps) {
  // The areas the role does open in this company: the main page is Migrations, which a translator, say, may not open.
  const areas = useOpenAreas();
  const href = useCompanyHref();
  const open = MENU.filter((section) => areas.includes(section.area));
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
        {open.length ? (
          <nav aria-labelledby="open-areas" className="mt-4 text-sm">
            <h2 id="open-areas" className="font-medium">
              Your role opens
            </h2>
            <ul className="mt-1 flex flex-wrap gap-4">
              {open.map((section) => (
                <li key={section.area}>
                  <a className="text-brand underline" href={href(section.items[0]!.path)}>
                    {section.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
      </Card>
    </div>
  );
}
