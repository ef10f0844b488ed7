import { Outlet, type UIMatch } from "react-router";
import { workspaceOfPath } from "~/lib/workspace-paths";

/** /migration/projects or /onboarding/configurations and everything below: "Projects" or "Configurations". */
export const handle = { breadcrumb: (match: UIMatch<unknown, unknown>) => workspaceOfPath(match.pathname).listTitle };

export default function WorkspacesLayout() {
  return <Outlet />;
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
