import { redirect } from "react-router";
import { COMPANY_PARAM, companyHref } from "~/lib/company-href";
import { areaOfPath } from "~/lib/menu";
import type { Route } from "./+types/index";

/** An area's own URL opens its first page (a breadcrumb link to "Migrations" lands on Projects). */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const first = areaOfPath(url.pathname)?.items[0];
  throw redirect(companyHref(first?.path ?? "/", url.searchParams.get(COMPANY_PARAM)));
}
