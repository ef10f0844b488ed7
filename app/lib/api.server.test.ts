/**
 * An upload passed on to a service goes through the portal as it streams: its memory stays flat
 * however large the file (a consultant's load may be gigabytes).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

const MiB = 1024 * 1024;
let server: http.Server;
const dropped = { requests: [] as string[], drops: 0 };
const hung = { requests: [] as string[] };
/** The portal's SERVICE_READ_TIMEOUT_MS here (30 s unless set). */
const READ_TIMEOUT_MS = 300;

beforeAll(async () => {
  // A service that reads what it is sent and answers how much arrived; on /drop-once, as a kept-alive
  // connection the service closed just as the call went out, it drops the first request unanswered.
  server = http.createServer((req, res) => {
    // A hung service: it takes the request and never answers (or answers its headers and never ends the body).
    if (req.url === "/hang" || req.url === "/hang-body") {
      hung.requests.push(req.method!);
      if (req.url === "/hang-body") res.writeHead(200, { "content-type": "application/json" }).write('{"ok":');
      return;
    }
    if (req.url === "/slow") {
      return setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true })), 2 * READ_TIMEOUT_MS);
    }
    if (req.url === "/drop-once") {
      dropped.requests.push(req.method!);
      if (dropped.drops-- > 0) return req.socket.destroy();
      return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true }));
    }
    let received = 0;
    req.on("data", (chunk: Buffer) => (received += chunk.length));
    req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ received })));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.DATA_API_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.SERVICE_READ_TIMEOUT_MS = String(READ_TIMEOUT_MS);
});

afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

/** `total` bytes, made a chunk at a time only when the reader asks for one. */
function upload(total: number): ReadableStream<Uint8Array> {
  let made = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (made >= total) return controller.close();
        const chunk = new Uint8Array(Math.min(64 * 1024, total - made)).fill(97);
        made += chunk.length;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
}

describe("callService with a streamed body", () => {
  it("passes 512 MiB on without holding it: the portal's memory grows by far less than the upload", async () => {
    const { callService } = await import("./api.server");
    const total = 512 * MiB;
    const before = process.memoryUsage().rss;
    let peak = before;
    const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    try {
      const answer = await callService("data-api", "/upload", null, {
        method: "POST",
        schema: z.object({ received: z.number() }),
        stream: { body: upload(total), contentType: "application/octet-stream", length: total },
      });
      expect(answer.received).toBe(total);
    } finally {
      clearInterval(sample);
    }
    // Before the fix fetch's redirect clone teed the body and kept all of it: some 520 MiB more.
    expect((peak - before) / MiB).toBeLessThan(128);
  }, 60_000);
});

describe("callService when the service's connection drops before it answers", () => {
  const call = async (method: "GET" | "POST") => {
    const { callService } = await import("./api.server");
    return callService("data-api", "/drop-once", null, { method, body: method === "POST" ? {} : undefined, schema: z.object({ ok: z.boolean() }) });
  };

  it("sends a read once more and shows its answer, not 'not reachable'", async () => {
    dropped.requests = [];
    dropped.drops = 1;
    await expect(call("GET")).resolves.toEqual({ ok: true });
    expect(dropped.requests).toEqual(["GET", "GET"]);
  });

  it("does not send a write twice: it is refused as not reachable, made at most once", async () => {
    dropped.requests = [];
    dropped.drops = 1;
    await expect(call("POST")).rejects.toMatchObject({ init: { status: 503 } });
    expect(dropped.requests).toEqual(["POST"]);
  });
});

describe("callService when the service takes the request and does not answer", () => {
  const call = async (path: string, method: "GET" | "POST" = "GET") => {
    const { callService } = await import("./api.server");
    return callService("data-api", path, null, { method, body: method === "POST" ? {} : undefined, schema: z.object({ ok: z.boolean() }) });
  };

  it("answers a page's read with 504 'did not answer in time' once SERVICE_READ_TIMEOUT_MS has passed, sent once, not a page that hangs", async () => {
    for (const path of ["/hang", "/hang-body"]) {
      hung.requests = [];
      const started = Date.now();
      await expect(call(path)).rejects.toMatchObject({ init: { status: 504 }, data: { errors: ["The data service did not answer in time. Try again in a moment."] } });
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(READ_TIMEOUT_MS - 20);
      expect(waited).toBeLessThan(READ_TIMEOUT_MS + 2_000);
      expect(hung.requests).toEqual(["GET"]);
    }
  });

  it("does not cut a write short: it may have been made, so its answer is waited for", async () => {
    await expect(call("/slow", "POST")).resolves.toEqual({ ok: true });
  });
});
