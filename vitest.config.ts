import { defineConfig } from "vitest/config";
import path from "node:path";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    // Playwright specs live in tests/e2e and are run by Playwright, never by Vitest.
    include: ["app/**/*.test.{ts,tsx}", "services/**/*.test.ts", "contracts/**/*.test.ts", "scripts/**/*.test.ts", "server/**/*.test.ts"],
    globalSetup: ["tests/setup/postgres.ts"],
    setupFiles: ["app/test/widgets-loaded.ts"],
    env: { LOG_LEVEL: "silent" },
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
