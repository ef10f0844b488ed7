import { redirect } from "react-router";
import { companyHref } from "~/lib/company-href";
import { projectScope } from "../../workspace.server";
import type { Route } from "./+types/index";

/** /migration/projects/{id}/data-dictionary (the breadcrumb's link) opens the tables. */
export async function loader({ context }: Route.LoaderArgs) {
  const { project, companyId, paths } = await projectScope(context);
  throw redirect(companyHref(paths.dictionary.tables(project.id), companyId));
}

export { default } from "~/components/layout/redirect-only";
