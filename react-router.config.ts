import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  appDirectory: "app",
  // Tests that exercise the real server build (entry.server.test.ts) build into their own folder.
  buildDirectory: process.env.REACT_ROUTER_BUILD_DIR ?? "build",
  // The whole route manifest as one cached file (build/client/assets/manifest-*.js) instead of a partial
  // manifest computed and inlined into every page ("lazy", the default): that cost ~6 % of the portal's
  // CPU per page and 4 KB of its HTML. The bench's initial JS per page already counts the manifest file.
  routeDiscovery: { mode: "initial" },
  // Opt in to React Router 8 behaviour now, so the upgrade is a version bump. Not
  // v8_passThroughRequests: guards build redirectTo from request.url, which must stay the page URL.
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_trailingSlashAwareDataRequests: true,
    v8_viteEnvironmentApi: true,
  },
} satisfies Config;
