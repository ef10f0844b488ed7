/** /migration/data-dictionary, /onboarding/data-dictionary and every page below them: the "Data Dictionary" breadcrumb. */
export const handle = { breadcrumb: "Data Dictionary" };

// No component: React Router renders the page below in its place (issue 8's initial JS bar).
export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
