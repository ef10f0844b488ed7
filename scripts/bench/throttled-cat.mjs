/**
 * A file written to standard output at a given rate, as it would come over a link of that speed:
 * `node scripts/bench/throttled-cat.mjs <file> <bytes per second>`. The bench's "as the file arrives"
 * load sends its upload through it, and psql's anchor reads the same file through it
 * (`\copy … FROM PROGRAM`), so both get their bytes at the same pace. Plain JavaScript: psql starts it
 * for each run, and tsx would add its own start-up to the anchor's time.
 */
import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

const [file, rate] = process.argv.slice(2);
const bytesPerSecond = Number(rate);
if (!file || !(bytesPerSecond > 0)) {
  console.error("usage: throttled-cat.mjs <file> <bytes per second>");
  process.exit(2);
}
const started = performance.now();
let sent = 0;
for await (const chunk of fs.createReadStream(file, { highWaterMark: 256 * 1024 })) {
  // Each chunk leaves when the link would have carried everything before it.
  const due = (sent / bytesPerSecond) * 1000 - (performance.now() - started);
  if (due > 0) await sleep(due);
  if (!process.stdout.write(chunk)) await new Promise((resolve) => process.stdout.once("drain", resolve));
  sent += chunk.length;
}
