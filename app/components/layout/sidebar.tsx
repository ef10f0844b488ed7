import { Icon } from "~/components/ui/icon";
import { NavLink, useFetcher, useLocation } from "react-router";
import type { Company } from "../../../contracts/data-api";
import { useCompanyHref } from "~/lib/company-href";
import type { MenuSection } from "~/lib/menu";
import { CompanyPicker } from "./company-picker";
import { MenuIcon } from "./menu-icon";

export type SidebarState = "auto" | "expanded" | "collapsed";

type SidebarProps = {
  state: SidebarState;
  sections: MenuSection[];
  companies: Company[];
  company: Company | null;
  dashboardUrl: string;
};

export function Sidebar({ state, sections, companies, company, dashboardUrl }: SidebarProps) {
  const href = useCompanyHref();
  const fetcher = useFetcher();
  const location = useLocation();
  // With JavaScript the toggle answers at once; the cookie write follows in the background.
  const pending = fetcher.formData?.get("state");
  const shown: SidebarState = pending === "expanded" || pending === "collapsed" ? pending : state;
  const here = location.pathname + location.search;

  return (
    <aside className="sidebar flex shrink-0 flex-col border-r border-border bg-white transition-[width]" data-state={shown}>
      <div className="border-b border-border p-3">
        <CompanyPicker companies={companies} company={company} />
      </div>
      <nav aria-label="Main menu" className="flex-1 overflow-y-auto p-2">
        <ul className="space-y-1">
          <li>
            <a href={dashboardUrl} className="menu-link">
              <MenuIcon name="grid" />
              <span className="sidebar-label">All Products</span>
            </a>
          </li>
          {sections.map((section) => (
            <li key={section.area} className="pt-3">
              <span id={`menu-${section.area}`} className="menu-heading">
                <MenuIcon name={section.icon} />
                <span className="sidebar-label">{section.label}</span>
              </span>
              <ul aria-labelledby={`menu-${section.area}`} className="space-y-1">
                {section.items.map((item) => (
                  <li key={item.path}>
                    {/* .menu-link (app.css) marks the current page by its aria-current. */}
                    {/* No route discovery to mark for (routeDiscovery "initial"): discover="none" spares the attribute. */}
                    <NavLink to={href(item.path)} className="menu-link" title={item.label} discover="none">
                      <MenuIcon name={item.icon} />
                      <span className="sidebar-label">{item.label}</span>
                    </NavLink>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </nav>
      <div className="sidebar-toggle border-t border-border p-2">
        <ToggleForm fetcher={fetcher} className="sidebar-collapse" next="collapsed" here={here} expanded />
        <ToggleForm fetcher={fetcher} className="sidebar-expand" next="expanded" here={here} expanded={false} />
      </div>
    </aside>
  );
}

function ToggleForm({
  fetcher,
  className,
  next,
  here,
  expanded,
}: {
  fetcher: ReturnType<typeof useFetcher>;
  className: string;
  next: "expanded" | "collapsed";
  here: string;
  expanded: boolean;
}) {
  const icon = expanded ? "panel-left-close" : "panel-left-open";
  return (
    <fetcher.Form method="post" action="/sidebar" className={className}>
      <input type="hidden" name="state" value={next} />
      <input type="hidden" name="redirectTo" value={here} />
      <button
        type="submit"
        aria-label="Toggle sidebar"
        aria-expanded={expanded}
        className="flex w-full items-center gap-3 rounded-md px-3 py-2 text-sm text-muted-foreground hover:bg-muted"
      >
        <Icon name={icon} className="size-4 shrink-0" />
        <span className="sidebar-label">{expanded ? "Collapse" : "Expand"}</span>
      </button>
    </fetcher.Form>
  );
}
