import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

/** The product under test runs on its own ports and a fresh data folder, never the developer's. */
export const E2E = {
  portal: "http://localhost:4100",
  clientPortal: "http://localhost:4101",
  dataApi: "http://localhost:4102",
  /**
   * A second portal started with CLOUD_TARGET=AZURE against the same services. A different host name
   * (127.0.0.1, not localhost) keeps its cookies apart from the first portal's: cookies ignore ports.
   */
  azurePortal: "http://127.0.0.1:4103",
  // Outside test-results/, which every Playwright start empties.
  dataDir: path.resolve(import.meta.dirname, ".e2e-data"),
};

/** Fixed, non-default secrets for the test run only (production refuses the `dev-only-` defaults). */
const E2E_SECRETS = {
  portalClient: "e2e-portal-client-secret-5c0f9a7e2b114d3c",
  azureSession: "e2e-azure-portal-session-secret-8d21e6b4a9f3",
};

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: E2E.portal,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], viewport: { width: 1366, height: 900 } } }],
  webServer: [
    {
      // An embedded PostgreSQL left running by a run that was killed is stopped before its folder goes.
      command: `node --import tsx scripts/stop-embedded-postgres.ts "${E2E.dataDir}"; rm -rf "${E2E.dataDir}" && node --import tsx scripts/start-all.ts`,
      url: `${E2E.portal}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      // SIGTERM, so the data API stops its embedded PostgreSQL (a SIGKILL would leave it running).
      gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
      stdout: "ignore",
      stderr: "pipe",
      env: {
        DATA_DIR: E2E.dataDir,
        PORTAL_PORT: "4100",
        CLIENT_PORTAL_PORT: "4101",
        DATA_API_PORT: "4102",
        // Project databases: the embedded PostgreSQL, on a port of the suite's own.
        EMBEDDED_POSTGRES_PORT: "4104",
        LOG_LEVEL: "warn",
        // notifications.spec.ts's receiver listens on 127.0.0.1, which production refuses to reach.
        WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: "true",
      // The journeys start from an empty tenant (empty states, first application).
      SEED_DEMO_CONTENT: "false",
        // Both portals are clients of the one client portal: the same client, two sets of redirect URIs.
        PORTAL_CLIENT_SECRET: E2E_SECRETS.portalClient,
        OIDC_CLIENT_SECRET: E2E_SECRETS.portalClient,
        PORTAL_REDIRECT_URIS: `${E2E.portal}/auth/callback,${E2E.azurePortal}/auth/callback`,
        PORTAL_POST_LOGOUT_REDIRECT_URIS: `${E2E.portal}/,${E2E.azurePortal}/`,
      },
    },
    {
      // Started after the first entry is healthy (Playwright starts web servers in order), so the
      // client portal it signs in with is up and the data folder has been recreated.
      command: "node build/services/portal.mjs",
      url: `${E2E.azurePortal}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        NODE_ENV: "production",
        PORT: "4103",
        CLOUD_TARGET: "AZURE",
        PORTAL_URL: E2E.azurePortal,
        OIDC_ISSUER: E2E.clientPortal,
        CLIENT_PORTAL_URL: E2E.clientPortal,
        CLIENT_PORTAL_API_URL: E2E.clientPortal,
        DATA_API_URL: E2E.dataApi,
        DATA_DIR: E2E.dataDir,
        PORTAL_DATABASE_URL: path.join(E2E.dataDir, "portal-azure.sqlite"),
        OIDC_CLIENT_SECRET: E2E_SECRETS.portalClient,
        SESSION_SECRETS: E2E_SECRETS.azureSession,
        LOG_LEVEL: "warn",
      },
    },
  ],
});
