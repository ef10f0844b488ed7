import { lazyWidget } from "~/lib/lazy-widget";

/**
 * Every route's error boundary: the error page (route-error-page.tsx), loaded when a page shows one
 * rather than with every page, and rendered by the server like the rest (decision 029). A page that
 * fails on the server comes whole in its HTML, with JavaScript or without; one that fails after a
 * navigation stays as it was until the page's chunk is there, as while a loader runs.
 */
export const RouteErrorBoundary = lazyWidget<object>(() => import("./route-error-page").then((m) => m.RouteErrorBoundary));
