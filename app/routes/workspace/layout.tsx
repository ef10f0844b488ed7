import type { UIMatch } from "react-router";
import { workspaceOfPath } from "~/lib/workspace-paths";

/** /migration/projects or /onboarding/configurations and everything below: "Projects" or "Configurations". */
export const handle = { breadcrumb: (match: UIMatch<unknown, unknown>) => workspaceOfPath(match.pathname).listTitle };

// No component: React Router renders the page below in its place (issue 8's initial JS bar).
export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
