import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { NavLink, useFetcher, useLocation } from "react-router";
import { Icon } from "~/components/ui/icon";
import type { Company } from "../../../contracts/data-api";
import { useCompanyHref } from "~/lib/company-href";
import type { MenuSection } from "~/lib/menu";
import { CompanyPicker } from "./company-picker";
import { MenuIcon } from "./menu-icon";
import { MAIN_ID } from "./skip-link";

export type SidebarState = "auto" | "expanded" | "collapsed";

/**
 * The sidebar's id, the fragment that opens it as the menu on a phone's width without JavaScript
 * (`.sidebar:target`, app.css). Not the remembered state: the menu opened on a phone is open for that
 * page only, and the next page, reached from it, starts with the menu closed.
 */
export const SIDEBAR_ID = "menu";

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
  const menu = usePhoneMenu();

  return (
    <aside
      id={SIDEBAR_ID}
      className="sidebar flex shrink-0 flex-col border-r border-border bg-white transition-[width]"
      data-state={shown}
      data-enhanced={menu.enhanced || undefined}
      data-menu={menu.open ? "open" : undefined}
      onKeyDown={menu.onKeyDown}
    >
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
        <PhoneMenuToggles menu={menu} />
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
      {/* Named by what it does, its visible word first (WCAG 2.5.3: a voice user says what they see); the word is hidden when collapsed. */}
      <button
        type="submit"
        aria-label={expanded ? "Collapse sidebar" : "Expand sidebar"}
        aria-expanded={expanded}
        className="flex w-full items-center gap-3 rounded-md px-3 py-2 text-sm text-muted-foreground hover:bg-muted"
      >
        <Icon name={icon} className="size-4 shrink-0" />
        <span className="sidebar-label">{expanded ? "Collapse" : "Expand"}</span>
      </button>
    </fetcher.Form>
  );
}

/**
 * The menu of a phone's width (app.css: below 48rem the sidebar is a bar with this button, the menu
 * lying over the page when open). Without JavaScript the button is a GET form to this page's URL with
 * the sidebar's fragment: the browser opens it by `:target`, and the next page, without the fragment,
 * starts closed. With JavaScript it is state of this page, closed when the page changes or on Escape.
 */
function usePhoneMenu() {
  const location = useLocation();
  const [enhanced, setEnhanced] = useState(false);
  // Open on the page (the navigation, by its key) where it was opened: any navigation closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === location.key;
  const toggle = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    setEnhanced(true);
    // Opened by its fragment before JavaScript took over: it stays open, now as state.
    if (window.location.hash === `#${SIDEBAR_ID}`) setOpenOn(location.key);
    // Only once, at hydration: later, the menu is this page's state, not the URL's.
  }, []);
  return {
    enhanced,
    open,
    toggle,
    here: location,
    onToggle(event: FormEvent) {
      event.preventDefault();
      setOpenOn(open ? null : location.key);
    },
    onKeyDown(event: KeyboardEvent) {
      if (event.key !== "Escape" || !open) return;
      setOpenOn(null);
      toggle.current?.focus();
    },
  };
}

function PhoneMenuToggles({ menu }: { menu: ReturnType<typeof usePhoneMenu> }) {
  // With JavaScript, one button that keeps the focus as it flips; without, both, app.css showing the one
  // that flips what the user sees (the menu is open while the URL's fragment is the sidebar's).
  if (menu.enhanced) return <PhoneMenuToggle menu={menu} opens={!menu.open} className="phone-menu-toggle" />;
  return (
    <>
      <PhoneMenuToggle menu={menu} opens className="phone-menu-open" />
      <PhoneMenuToggle menu={menu} opens={false} className="phone-menu-close" />
    </>
  );
}

function PhoneMenuToggle({ menu, opens, className }: { menu: ReturnType<typeof usePhoneMenu>; opens: boolean; className: string }) {
  // This page again (its query as hidden fields: a GET form's action loses its own), with the fragment
  // that opens the menu, or the main content's, which closes it and takes the reader there.
  const fragment = opens ? SIDEBAR_ID : MAIN_ID;
  return (
    <form method="get" action={`${menu.here.pathname}#${fragment}`} className={className} onSubmit={menu.onToggle}>
      {[...new URLSearchParams(menu.here.search)].map(([name, value], index) => (
        <input key={`${name}-${index}`} type="hidden" name={name} value={value} />
      ))}
      <button
        ref={menu.enhanced ? menu.toggle : undefined}
        type="submit"
        aria-expanded={!opens}
        aria-controls={SIDEBAR_ID}
        className="flex w-full items-center gap-3 rounded-md px-3 py-2 text-sm text-muted-foreground hover:bg-muted"
      >
        <Icon name={opens ? "menu" : "x"} className="size-4 shrink-0" />
        {/* Its name is the word shown. */}
        <span>{opens ? "Menu" : "Close menu"}</span>
      </button>
    </form>
  );
}
