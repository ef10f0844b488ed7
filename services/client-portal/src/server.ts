/**
 * Starts the client portal reference service: `npm run start:client-portal` (the bundle `npm run build` makes; `tsx services/client-portal/src/server.ts` runs the source).
 * Parses the environment, migrates (and, with SEED_DEMO, seeds) the database, then serves the
 * provider and the API on CLIENT_PORTAL_PORT until SIGINT or SIGTERM.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { EnvError } from "../../../contracts/env.ts";
import { createKysely } from "../../shared/db.ts";
import { createLogger } from "../../shared/logger.ts";
import { stopOnSignals } from "../../shared/stop-on-signals.ts";
import { createClientPortal } from "./app.ts";
import { migrate } from "./db/migrations/index.ts";
import type { Database } from "./db/schema.ts";
import { loadEnv, type ClientPortalEnv } from "./env.ts";
import { seedDemo } from "./seed.ts";

const logger = createLogger("client-portal");

let env: ClientPortalEnv;
try {
  env = loadEnv();
} catch (err) {
  if (!(err instanceof EnvError)) throw err;
  console.error(err.message);
  process.exit(1);
}

const db = createKysely<Database>(env.CLIENT_PORTAL_DATABASE_URL);

try {
  await migrate(db);
  if (env.SEED_DEMO) {
    const { usersCreated } = await seedDemo(db, env.TRANSLATION_ANALYST_ROLE);
    // `npm start` runs in production mode with the demo tenant on purpose; a real deployment must not.
    const log = env.NODE_ENV === "production" ? logger.warn : logger.info;
    log("demo data seeded: demo users share the password \"demo\"", { usersCreated });
  }
} catch (err) {
  logger.error("database set-up failed", { err });
  await db.destroy();
  process.exit(1);
}

const portal = await createClientPortal({ env, db, logger });
const server = http.createServer(portal.listener);

server.on("error", async (err) => {
  logger.error("server failed", { err });
  await portal.close();
  await db.destroy();
  process.exit(1);
});

server.listen(env.CLIENT_PORTAL_PORT, () => {
  const { port } = server.address() as AddressInfo;
  logger.info("client portal listening", { url: env.CLIENT_PORTAL_URL, port });
});

stopOnSignals(server, {
  graceMs: 5_000,
  logger,
  cleanup: async () => {
    await portal.close();
    await db.destroy();
  },
});
