import { Outlet } from "react-router";

/** /migration/data-dictionary, /onboarding/data-dictionary and every page below them: the "Data Dictionary" breadcrumb. */
export const handle = { breadcrumb: "Data Dictionary" };

export default function DataDictionaryLayout() {
  return <Outlet />;
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
