import { redirect } from "react-router";
import { COMPANY_PARAM, companyHref } from "~/lib/company-href";
import type { Route } from "./+types/not-found";

/** Spec §2: unknown paths redirect to / (keeping the company). */
export async function loader({ request }: Route.LoaderArgs) {
  throw redirect(companyHref("/", new URL(request.url).searchParams.get(COMPANY_PARAM)));
}

export async function action({ request }: Route.ActionArgs) {
  throw redirect(companyHref("/", new URL(request.url).searchParams.get(COMPANY_PARAM)));
}
