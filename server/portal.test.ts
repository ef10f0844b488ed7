import { createHook } from "node:async_hooks";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PORTAL_BUILD_TIMEOUT_MS, buildPortal } from "../app/test/server-build.ts";
import { createLogger } from "../services/shared/logger.ts";
import { createPortalListener } from "./portal.ts";

// The built portal reads its environment when it is imported: its own database, and services nobody answers at.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dt-portal-server-"));
const nowhere = "http://127.0.0.1:9";
Object.assign(process.env, {
  PORTAL_DATABASE_URL: path.join(dataDir, "portal.sqlite"),
  OIDC_ISSUER: nowhere,
  CLIENT_PORTAL_URL: nowhere,
  CLIENT_PORTAL_API_URL: nowhere,
  DATA_API_URL: nowhere,
});

let portal: Awaited<ReturnType<typeof buildPortal>>;
let server: http.Server;
let base = "";
/** How many requests reached the /healthz route's loader, through React Router. */
let healthRouteCalls = 0;

beforeAll(async () => {
  portal = await buildPortal("portal-server");
  const route = portal.build.routes["routes/healthz"]!;
  const loader = route.module.loader!;
  const build: ServerBuild = {
    ...portal.build,
    routes: {
      ...portal.build.routes,
      "routes/healthz": {
        ...route,
        module: {
          ...route.module,
          loader: (args) => {
            healthRouteCalls++;
            return loader(args);
          },
        },
      },
    },
  };
  server = http.createServer(await createPortalListener({ build, logger: createLogger("portal", "silent") }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, PORTAL_BUILD_TIMEOUT_MS);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  portal?.remove();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The kinds of asynchronous work Node started while `work` ran (FSREQCALLBACK: a file system call in libuv's thread pool). */
async function asyncWorkDuring<T>(work: () => Promise<T>): Promise<{ result: T; kinds: Set<string> }> {
  const kinds = new Set<string>();
  const hook = createHook({ init: (_id, type) => void kinds.add(type) }).enable();
  try {
    return { result: await work(), kinds };
  } finally {
    hook.disable();
  }
}

describe("the portal's server entry", () => {
  it("answers /healthz from the portal's database, before the disk's static files and React Router", async () => {
    // The first asks opens and migrates the database.
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    healthRouteCalls = 0;

    const { result: res, kinds } = await asyncWorkDuring(() => fetch(`${base}/healthz`));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
    expect([...kinds].filter((kind) => kind.startsWith("FSREQ"))).toEqual([]);
    expect(healthRouteCalls).toBe(0);
    // The headers the root middleware gives every answer of React Router's.
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
    expect(res.headers.get("Content-Security-Policy")).toMatch(/frame-ancestors 'none'/);
    expect(res.headers.get("X-Powered-By")).toBeNull();

    const head = await fetch(`${base}/healthz`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("serves the build's assets, compressed, for a year without asking again", async () => {
    const script = portal.build.assets.entry.module;
    expect(script).toMatch(/^\/assets\//);
    const res = await fetch(`${base}${script}`, { headers: { "Accept-Encoding": "gzip" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/javascript/);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("Content-Encoding")).toBe("gzip");
    expect(res.headers.get("X-Powered-By")).toBeNull();
  });

  it("hands every other request to React Router: pages (compressed), redirects, unknown paths", async () => {
    // The sign-in page: the provider does not answer, so the portal renders "sign-in unavailable".
    const page = await fetch(`${base}/login?redirectTo=%2F`, { headers: { "Accept-Encoding": "gzip" }, redirect: "manual" });
    expect(page.status).toBe(503);
    expect(page.headers.get("Content-Type")).toMatch(/text\/html/);
    expect(page.headers.get("Content-Encoding")).toBe("gzip");
    expect(page.headers.get("Content-Security-Policy")).toMatch(/script-src 'self' 'nonce-/);
    expect(await page.text()).toMatch(/^<!DOCTYPE html>/i);

    const home = await fetch(`${base}/`, { redirect: "manual" });
    expect(home.status).toBe(302);
    expect(home.headers.get("Location")).toBe("/login?redirectTo=%2F");

    // Not a file of the build: React Router's not-found route sends it home (spec §2).
    const missing = await fetch(`${base}/assets/no-such-file.js`, { redirect: "manual" });
    expect(missing.status).toBe(302);
    expect(missing.headers.get("Location")).toBe("/");
  });
});

describe("an address whose path does not decode (a % not followed by a character's code)", () => {
  it("answers the product's own 400 page in words, in its layout with a link home, never Express's bare Bad Request", async () => {
    for (const address of ["/migration/projects/%E0%A4%A/details", "/migration/projects/%zz", "/translations/mappings/%E0%A4%A/templates/assigned"]) {
      const res = await fetch(`${base}${address}`, { redirect: "manual" });
      expect(res.status, address).toBe(400);
      expect(res.headers.get("Content-Type")).toMatch(/text\/html/);
      // The page's own policy (entry.server), not finalhandler's default-src 'none'.
      expect(res.headers.get("Content-Security-Policy")).toMatch(/script-src 'self' 'nonce-/);
      const html = await res.text();
      expect(html).toMatch(/^<!DOCTYPE html>/i);
      expect(html).toContain("The page could not be loaded");
      expect(html).toContain("This address could not be read: a % in it does not stand for a character. Check the link, or go to the main page.");
      expect(html).toMatch(/<a [^>]*href="\/"[^>]*>Go to main page<\/a>/);
      expect(html).not.toContain("<pre>Bad Request</pre>");
      expect(html).not.toMatch(/URIError|at decodeURIComponent/);
    }
    // A path no route but the not-found one matches is sent home, as every unknown path is (spec §2).
    for (const address of ["/%E0%A4%A", "/assets/%E0%A4%A.js"]) {
      const res = await fetch(`${base}${address}`, { redirect: "manual" });
      expect(res.status, address).toBe(302);
      expect(res.headers.get("Location")).toBe("/");
    }
    // A query string is read leniently: the page answers as it would (here, the sign-in's redirect).
    const query = await fetch(`${base}/migration/projects?x=%E0%A4%A`, { redirect: "manual" });
    expect(query.status).toBe(302);
    expect(query.headers.get("Location")).toMatch(/^\/login\?/);
  });
});
