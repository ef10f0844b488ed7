import { redirect } from "react-router";
import { nextStepPath } from "~/components/projects/next-step";
import { companyHref } from "~/lib/company-href";
import { projectScope } from "../project.server";
import type { Route } from "./+types/resume";

/** /migration/projects/create/{id} (the breadcrumb's link): resume at the first incomplete step. */
export async function loader({ context }: Route.LoaderArgs) {
  const { project, companyId } = projectScope(context);
  throw redirect(companyHref(nextStepPath(project), companyId));
}
