import { Outlet } from "react-router";

/** /migration/data-dictionary and every page below it: the "Data Dictionary" breadcrumb. */
export const handle = { breadcrumb: "Data Dictionary" };

export default function DataDictionaryLayout() {
  return <Outlet />;
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
