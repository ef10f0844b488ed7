/**
 * The Node flags each server process is started with, the same wherever it starts: `npm start`
 * (scripts/start-all.ts), the container (scripts/container-start.sh) and package.json's `start:*`
 * scripts (node-flags.test.ts holds the three together).
 */

/**
 * The data API keeps its memory flat under uploads with a young generation of 4 MB per semi-space
 * (decision 014).
 */
export const DATA_API_NODE_FLAGS = ["--max-semi-space-size=4"];

/**
 * The portal's old generation is not collected in full below 96 MB (decision 028). Every chunk of an
 * upload passing through is a new ArrayBuffer, and V8 counts those allocated since the last full
 * collection against the old generation's limit: once the limit had been lowered to what the portal
 * keeps alive (some 30 MB) while it sat idle, a 1 GB load's pass-through set off a full collection
 * every 150–400 ms, each holding the event loop, and /healthz answered in up to 129–152 ms.
 */
export const PORTAL_NODE_FLAGS = ["--initial-old-space-size=96"];
