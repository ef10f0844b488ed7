// The image's HEALTHCHECK: asks the running process's /healthz (the entrypoint wrote its URL).
import fs from "node:fs";

const url = fs.readFileSync("/tmp/healthz-url", "utf8").trim();
const res = await fetch(url, { signal: AbortSignal.timeout(4000) }).catch(() => null);
process.exit(res?.ok ? 0 : 1);
