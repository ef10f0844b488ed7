import { redirect } from "react-router";
import { projectPath } from "~/components/projects/next-step";
import { companyHref } from "~/lib/company-href";
import { projectScope } from "../project.server";
import type { Route } from "./+types/index";

/** /migration/projects/{id} (the breadcrumb's link) opens the project's details. */
export async function loader({ context }: Route.LoaderArgs) {
  const { project, companyId } = projectScope(context);
  throw redirect(companyHref(projectPath(project.id), companyId));
}
