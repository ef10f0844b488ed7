import { Outlet } from "react-router";

/** /migration/application and its pages: the "Applications" breadcrumb. */
export const handle = { breadcrumb: "Applications" };

export default function ApplicationsLayout() {
  return <Outlet />;
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
