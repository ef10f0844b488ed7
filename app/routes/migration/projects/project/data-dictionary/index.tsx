import { redirect } from "react-router";
import { projectDictionaryPaths } from "~/components/projects/next-step";
import { companyHref } from "~/lib/company-href";
import { projectScope } from "../../project.server";
import type { Route } from "./+types/index";

/** /migration/projects/{id}/data-dictionary (the breadcrumb's link) opens the tables. */
export async function loader({ context }: Route.LoaderArgs) {
  const { project, companyId } = projectScope(context);
  throw redirect(companyHref(projectDictionaryPaths.tables(project.id), companyId));
}
