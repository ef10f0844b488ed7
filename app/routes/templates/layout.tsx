import { Outlet } from "react-router";

/** The master templates of an area: its breadcrumb, and the pages below. */
export const handle = { breadcrumb: "Master templates" };

export default function MasterTemplatesLayout() {
  return <Outlet />;
}
