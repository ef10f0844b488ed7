/**
 * A stand-in for the client portal's permissions endpoint, served over the `fetch` the data API's
 * HTTP permissions source uses. It checks the forwarded bearer token with the same bearerAuth and
 * key set as the data API, and applies Base A's rule (users read their own, admins anyone's), so
 * the tests exercise the real request, the token forwarding and the response parsing.
 */
import { Hono } from "hono";
import type { PermissionEntry } from "../../../../contracts/client-portal.ts";
import { isAdmin } from "../../../../contracts/roles.ts";
import { bearerAuth, type BearerOptions, type BearerVariables } from "../../../shared/bearer.ts";
import type { Fetch } from "../permissions.ts";

export const CLIENT_PORTAL_TEST_URL = "http://client-portal.test";

/** How the stub behaves: up (answers from the table), down (the connection fails), or broken (a 500). */
export type StubMode = "up" | "down" | "error" | "garbage";

export function createClientPortalStub(bearer: BearerOptions, permissions: ReadonlyMap<string, PermissionEntry[]>) {
  const calls: { userId: string; authorization: string | undefined }[] = [];
  let mode: StubMode = "up";

  const app = new Hono<{ Variables: BearerVariables }>();
  app.get("/api/v1/permissions/:userId", bearerAuth(bearer), (c) => {
    const userId = c.req.param("userId");
    calls.push({ userId, authorization: c.req.header("authorization") });
    if (mode === "error") return c.json({ message: "boom" }, 500);
    if (mode === "garbage") return c.json([{ company: "not the contract" }]);
    const caller = c.var.caller;
    if (caller.userId !== userId && !isAdmin(caller.roles)) return c.body(null, 403);
    return c.json(permissions.get(userId) ?? []);
  });

  const fetch: Fetch = async (url, init) => {
    if (!url.startsWith(CLIENT_PORTAL_TEST_URL)) throw new TypeError(`unexpected URL ${url}`);
    if (mode === "down") throw new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED") });
    return app.request(url, init);
  };

  return {
    fetch,
    calls,
    setMode(next: StubMode) {
      mode = next;
    },
  };
}
