/** /migration/application and its pages: the "Applications" breadcrumb. */
export const handle = { breadcrumb: "Applications" };

// No component: React Router renders the page below in its place (issue 8's initial JS bar).
export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
