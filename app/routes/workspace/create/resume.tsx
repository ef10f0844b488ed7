import { redirect } from "react-router";
import { companyHref } from "~/lib/company-href";
import { projectScope } from "../workspace.server";
import type { Route } from "./+types/resume";

/** {routeBase}/create/{id} (the breadcrumb's link): resume at the first incomplete step. */
export async function loader({ context }: Route.LoaderArgs) {
  const { project, companyId, paths } = await projectScope(context);
  throw redirect(companyHref(paths.nextStep(project), companyId));
}

export { default } from "~/components/layout/redirect-only";
