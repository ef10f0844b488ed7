import { type ComponentType, type JSX, lazy, Suspense, useEffect, useState } from "react";
import { isHydrated } from "~/components/layout/route-focus";

/** On the server: the widgets' modules still loading (entry.server waits for them before it renders). */
const loading = new Set<Promise<unknown>>();

/** Resolves once every widget module the server has met is loaded: at once after the first request. */
export function widgetsLoaded(): Promise<unknown> | null {
  return loading.size ? Promise.all(loading) : null;
}

/**
 * entry.server's options for React: a Suspense boundary complete when the shell is sent goes in the
 * shell, where it stands. By default React sends one of more than 500 bytes, once the page passes
 * 12.8 KB, after the shell in a hidden element that a script moves in: without JavaScript a widget
 * would never show.
 */
export const BOUNDARIES_INLINE = { progressiveChunkSize: Number.POSITIVE_INFINITY } as const;

type Loaded<P> = { default: ComponentType<P> };

/**
 * A widget that shows only after a user's action (a file's preview, a confirmation, a pane that opens
 * on demand) in a chunk of its own, loaded when a page first shows it, not with the page
 * (docs/decisions/029). Never a page's main form, nor anything needed to read the page.
 * A widget's module renders no other widget: the inner one would mount after the page's hydration
 * and render no boundary where the server's HTML has one, failing the hydration (delete-table-card.tsx).
 *
 * The server renders it in the page's HTML like any component, JavaScript or not: its module is
 * imported as this module is evaluated and entry.server waits for it before rendering, so React.lazy's
 * factory returns a thenable that calls back at once and React renders it in the shell, never a
 * fallback (entry.server streams from the shell on, and a boundary still loading would come later, in
 * an inline script; BOUNDARIES_INLINE keeps React from sending a large one that way too). In the browser, a widget the server rendered is hydrated inside its own Suspense boundary:
 * React keeps the server's HTML until the chunk arrives. One mounted after hydration (a navigation, in a
 * transition) has no boundary: React keeps the page as it was until the chunk is there, as it does
 * while a loader runs, rather than showing the page without it.
 */
export function lazyWidget<P extends object>(load: () => Promise<ComponentType<P>>): (props: P) => JSX.Element {
  let Lazy: ComponentType<P>;
  if (import.meta.env.SSR) {
    let loaded: Loaded<P> | undefined;
    const promise = load().then((component) => {
      loaded = { default: component };
    });
    // A module that fails to load fails the render of a page that shows it (its error boundary), not every page.
    const settled: Promise<unknown> = promise.catch(() => undefined).finally(() => loading.delete(settled));
    loading.add(settled);
    Lazy = lazy(() =>
      loaded ? ({ then: (resolve: (module: Loaded<P>) => void) => resolve(loaded!) } as unknown as Promise<Loaded<P>>) : promise.then(() => loaded!),
    );
  } else {
    Lazy = lazy(() => load().then((component) => ({ default: component })));
  }
  return function Widget(props: P) {
    const [boundary] = useState(() => import.meta.env.SSR || !isHydrated());
    return boundary ? (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    ) : (
      <Lazy {...props} />
    );
  };
}

/**
 * What `load` answers (a module's export, by a dynamic import), loaded once the page is interactive, not
 * with the page: for code that only runs in the browser and is not needed at once (the session check, a
 * workspace's lock follower), so that it weighs nothing on the page's first download (issue 8's initial
 * JS bar). Undefined on the server, until it has arrived, and while `load` is null (nothing to load yet);
 * an answer that arrives after the component unmounted or `load` changed is dropped. `load` must keep its
 * identity between renders (a module-level function).
 */
export function useLoadedAfterHydration<T>(load: (() => Promise<T>) | null): T | undefined {
  const [loaded, setLoaded] = useState<{ value: T }>();
  useEffect(() => {
    if (!load) return;
    let gone = false;
    void load().then((value) => {
      if (!gone) setLoaded({ value });
    });
    return () => {
      gone = true;
    };
  }, [load]);
  return loaded?.value;
}
