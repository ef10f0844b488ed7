import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

/** The product under test runs on its own ports and a fresh data folder, never the developer's. */
export const E2E = {
  portal: "http://localhost:4100",
  clientPortal: "http://localhost:4101",
  dataApi: "http://localhost:4102",
  dataDir: path.resolve(import.meta.dirname, "test-results/e2e-data"),
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
  webServer: {
    command: `rm -rf "${E2E.dataDir}" && node --import tsx scripts/start-all.ts`,
    url: `${E2E.portal}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      DATA_DIR: E2E.dataDir,
      PORTAL_PORT: "4100",
      CLIENT_PORTAL_PORT: "4101",
      DATA_API_PORT: "4102",
      LOG_LEVEL: "warn",
    },
  },
});
