import { redirect } from "react-router";
import { COMPANY_PARAM, companyHref } from "~/lib/company-href";
import { templatePathsOf } from "./paths";
import type { Route } from "./+types/workspace-index";

/** …/{id}/templates itself (the breadcrumb's link): the assigned templates. */
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  throw redirect(companyHref(templatePathsOf(url.pathname).list, url.searchParams.get(COMPANY_PARAM)));
}
