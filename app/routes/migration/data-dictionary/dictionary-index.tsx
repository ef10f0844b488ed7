import { redirect } from "react-router";
import { COMPANY_PARAM, companyHref } from "~/lib/company-href";
import { dictionaryOf, dictionaryPathsOfRequest } from "./dictionary.server";
import { dictionaryModeOf } from "./paths";
import type { Route } from "./+types/dictionary-index";

/** create/{id}, edit/{id} and view/{id} themselves (a breadcrumb's link) open their first page. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { id } = await dictionaryOf(context);
  const url = new URL(request.url);
  const mode = dictionaryModeOf(url.pathname);
  const paths = dictionaryPathsOfRequest(request);
  const to = mode === "create" ? paths.upload("create", id) : paths.definition(mode, id);
  throw redirect(companyHref(to, url.searchParams.get(COMPANY_PARAM)));
}

export { default } from "~/components/layout/redirect-only";
