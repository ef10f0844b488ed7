import { useEffect, useRef } from "react";
import { useLocation, useNavigation } from "react-router";
import { MAIN_ID } from "./skip-link";

type Before = { focused: Element | null; headings: string[] };

/** The headings of the page's main content, in document order. */
function headingsOf(main: HTMLElement | null): HTMLElement[] {
  return main ? [...main.querySelectorAll<HTMLElement>("h1, h2, h3, h4, h5, h6")] : [];
}

/**
 * Each heading of `main` as compared: its level, its text and the start of what follows it up to the
 * next heading. A heading alone would not do: a load's table page is headed "Orders.csv into Orders"
 * as the load's page is, over other content.
 */
function keysOf(main: HTMLElement | null): string[] {
  const headings = headingsOf(main);
  return headings.map((heading, i) => {
    const range = document.createRange();
    range.setStartAfter(heading);
    const next = headings[i + 1];
    if (next) range.setEndBefore(next);
    else if (main) range.setEnd(main, main.childNodes.length);
    const following = range.toString().replace(/\s+/g, " ").trim().slice(0, 300);
    return `${heading.tagName} ${heading.textContent?.trim() ?? ""}\n${following}`;
  });
}

let pageShown = false;

/** Whether the page's first render is on the screen and hydrated (a widget mounted later is shown by a navigation: decision 029). */
export function isHydrated(): boolean {
  return pageShown;
}

/**
 * Where focus goes after a navigation inside the app, with JavaScript (docs/decisions/027): a page
 * load starts a screen reader at the new page's top, and React Router changes the page without one,
 * so focus stayed where it was (on <body> once the link or button was gone) and nothing was read out.
 *
 * Once the new page is shown, unless the page itself has put the focus somewhere (a refusal's message,
 * a field with an error, a confirmation's heading), focus goes to the first heading of the main content
 * that the navigation changed: the page's h1 from the menu or a list, a tab's own heading from the tab
 * bar (the h1 above it names the same project). A change of the query alone (a page of a list, a sort,
 * a filter) leaves focus on the control that made it, unless that control went with the old page.
 */
export function useFocusOnNavigation() {
  const location = useLocation();
  const navigation = useNavigation();
  const before = useRef<Before | null>(null);
  const shown = useRef<{ key: string; pathname: string; headings: string[] } | null>(null);

  // The old page, read as the navigation starts (the DOM still shows it).
  useEffect(() => {
    if (navigation.state !== "idle" && !before.current) {
      before.current = { focused: document.activeElement, headings: keysOf(document.getElementById(MAIN_ID)) };
    }
  }, [navigation.state]);

  useEffect(() => {
    const main = document.getElementById(MAIN_ID);
    const previous = shown.current;
    const started = before.current;
    before.current = null;
    const keys = keysOf(main);
    shown.current = { key: location.key, pathname: location.pathname, headings: keys };
    pageShown = true;
    // The first render (a page load) and a render of the same location: the browser's own focus stands.
    if (!previous || previous.key === location.key || !main) return;

    const active = document.activeElement;
    const lost = !active || active === document.body || !active.isConnected;
    // What the user pressed is still focused (a menu's link, a tab, a search button), or nothing is.
    const movedByPage = !lost && started !== null && active !== started.focused;
    if (movedByPage) return;
    if (!lost && previous.pathname === location.pathname) return;

    const old = started?.headings ?? previous.headings;
    const headings = headingsOf(main);
    const target = headings.find((_, i) => old[i] !== keys[i]) ?? headings[0] ?? main;
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus();
  }, [location.key, location.pathname]);
}
