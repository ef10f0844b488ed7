import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  appDirectory: "app",
  // Tests that exercise the real server build (entry.server.test.ts) build into their own folder.
  buildDirectory: process.env.REACT_ROUTER_BUILD_DIR ?? "build",
  // Opt in to React Router 8 behaviour now, so the upgrade is a version bump. Not
  // v8_passThroughRequests: guards build redirectTo from request.url, which must stay the page URL.
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_trailingSlashAwareDataRequests: true,
    v8_viteEnvironmentApi: true,
  },
} satisfies Config;
