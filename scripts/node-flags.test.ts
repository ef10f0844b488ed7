import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DATA_API_NODE_FLAGS, PORTAL_NODE_FLAGS } from "./node-flags.ts";

const root = path.resolve(import.meta.dirname, "..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");
const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts;

describe("each server process is started with its Node flags wherever it starts", () => {
  it("the portal: npm start, the container and npm run start:portal", () => {
    const command = `node ${PORTAL_NODE_FLAGS.join(" ")} build/services/portal.mjs`;
    expect(read("scripts/container-start.sh")).toContain(`exec ${command}`);
    expect(scripts["start:portal"]).toBe(command);
    expect(read("scripts/start-all.ts")).toContain('args: [...PORTAL_NODE_FLAGS, "build/services/portal.mjs"]');
  });

  it("the data API: npm start, the container and npm run start:data-api", () => {
    const command = `node ${DATA_API_NODE_FLAGS.join(" ")} build/services/data-api.mjs`;
    expect(read("scripts/container-start.sh")).toContain(`exec ${command}`);
    expect(scripts["start:data-api"]).toBe(`MALLOC_ARENA_MAX=2 ${command}`);
    expect(read("scripts/start-all.ts")).toContain('args: [...DATA_API_NODE_FLAGS, "build/services/data-api.mjs"]');
  });

  it("this Node takes the flags (an unknown one would stop the process before it serves)", () => {
    for (const flags of [PORTAL_NODE_FLAGS, DATA_API_NODE_FLAGS]) {
      const run = spawnSync(process.execPath, [...flags, "-e", "process.stdout.write('ok')"], { encoding: "utf8" });
      expect(run.stderr).toBe("");
      expect(run.stdout).toBe("ok");
    }
  });
});
