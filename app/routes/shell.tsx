import { Outlet } from "react-router";
import { Breadcrumbs } from "~/components/layout/breadcrumbs";
import { FlashRegion } from "~/components/layout/flash-region";
import { Sidebar } from "~/components/layout/sidebar";
import { mayEnterArea } from "~/lib/access";
import { env } from "~/lib/env.server";
import { flashMiddleware, takeFlash } from "~/lib/flash.server";
import { accessSettings, shellOf, shellMiddleware } from "~/lib/guards.server";
import { MENU } from "~/lib/menu";
import { hasRole } from "../../contracts/roles";
import { readSidebarState } from "~/lib/sidebar-cookie.server";
import type { Route } from "./+types/shell";
import { MAIN_ID } from "~/components/layout/skip-link";

/**
 * Every signed-in page with the sidebar: the guards of the whole subtree start here; the flash
 * message of the last write is read here and cleared on the response of the page that shows it.
 */
export const middleware: Route.MiddlewareFunction[] = [shellMiddleware, flashMiddleware];

export async function loader({ request, context }: Route.LoaderArgs) {
  const shell = await shellOf(context);
  return {
    companies: shell.companies,
    company: shell.company,
    roles: shell.roles,
    // The names of the areas this user may enter, not their menus: the menus are in the page's code
    // already, and the loader's data is serialized into every page.
    areas: MENU.filter((section) => mayEnterArea(section.area, shell.roles, accessSettings)).map((section) => section.area),
    sidebar: await readSidebarState(request),
    dashboardUrl: `${env.CLIENT_PORTAL_URL}/dashboard`,
    flash: takeFlash(context),
  };
}

export default function Shell({ loaderData }: Route.ComponentProps) {
  return (
    // Stacked on a phone's width: the sidebar is then a bar above the page, or lies over it (app.css).
    <div className="relative flex flex-1 flex-col md:flex-row">
      <Sidebar
        state={loaderData.sidebar}
        sections={MENU.filter((section) => loaderData.areas.includes(section.area)).map((section) => ({
          ...section,
          items: section.items.filter((item) => !item.roles || item.roles.some((role) => hasRole(loaderData.roles, role))),
        }))}
        companies={loaderData.companies}
        company={loaderData.company}
        dashboardUrl={loaderData.dashboardUrl}
      />
      <main id={MAIN_ID} tabIndex={-1} className="flex min-w-0 flex-1 flex-col">
        <Breadcrumbs />
        <div className="flex-1 p-6">
          <FlashRegion flash={loaderData.flash} />
          <Outlet />
        </div>
      </main>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
