/**
 * `node --import tsx scripts/stop-embedded-postgres.ts <DATA_DIR>`: stops the embedded PostgreSQL a
 * killed data API left running in that data folder, before the folder is removed (the browser tests
 * start each run from an empty one). Does nothing when none runs there.
 */
import { stopEmbeddedPostgres } from "../services/data-api/src/data-plane/embedded-postgres.ts";

const dataDir = process.argv[2];
if (!dataDir) {
  console.error("usage: stop-embedded-postgres.ts <DATA_DIR>");
  process.exit(2);
}
if (await stopEmbeddedPostgres(dataDir)) console.error(`stopped the embedded PostgreSQL left running in ${dataDir}`);
