import { Outlet } from "react-router";

/** /migration/projects and everything below it: the "Projects" breadcrumb. */
export const handle = { breadcrumb: "Projects" };

export default function ProjectsLayout() {
  return <Outlet />;
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
