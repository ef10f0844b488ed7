import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  appDirectory: "app",
  // Tests that exercise the real server build (entry.server.test.ts) build into their own folder.
  buildDirectory: process.env.REACT_ROUTER_BUILD_DIR ?? "build",
  // Route discovery stays "lazy" (the default): each page inlines the part of the route manifest it
  // needs, and navigation asks for more. "initial" (the whole manifest as one cached file) was measured:
  // it saves ~4 KB of HTML and ~6 % of the portal's CPU per page, but adds 3.3 KiB gzip of initial JS
  // to every page, which took the dictionary pages over the bar of 1.15× a bare React Router page.
  // Opt in to React Router 8 behaviour now, so the upgrade is a version bump. Not
  // v8_passThroughRequests: guards build redirectTo from request.url, which must stay the page URL.
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_trailingSlashAwareDataRequests: true,
    v8_viteEnvironmentApi: true,
  },
} satisfies Config;
