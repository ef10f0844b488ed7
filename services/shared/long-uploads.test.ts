import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { allowLongUploads } from "./long-uploads.ts";

/** A server that counts the bytes of each request's body, with a short whole-request timeout standing in for Node's 5 minutes. */
function countingServer(requestTimeout: number) {
  const server = http.createServer({ requestTimeout, connectionsCheckingInterval: 100 }, (req, res) => {
    let bytes = 0;
    req.on("data", (chunk: Buffer) => (bytes += chunk.length));
    req.on("end", () => res.end(String(bytes)));
  });
  return server;
}

/** Posts `chunks` chunks of 1 KiB, one every `everyMs`: the status and body, or how the connection ended. */
function slowUpload(port: number, chunks: number, everyMs: number): Promise<string> {
  return new Promise((resolve) => {
    const req = http.request({ port, method: "POST", path: "/upload", headers: { "content-length": String(chunks * 1024) } }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve(`${res.statusCode} ${body}`));
    });
    req.on("error", (err) => resolve(`ended: ${err.message}`));
    let sent = 0;
    const timer = setInterval(() => {
      if (req.destroyed) return clearInterval(timer);
      req.write(Buffer.alloc(1024));
      if (++sent === chunks) {
        clearInterval(timer);
        req.end();
      }
    }, everyMs);
  });
}

describe("an upload slower than the server's whole-request timeout", () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await new Promise((resolve) => s.close(resolve));
  });
  const listen = async (server: http.Server) => {
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return (server.address() as AddressInfo).port;
  };

  it("arrives whole on a server that allows long uploads, where Node's timeout alone cuts it off", async () => {
    // 12 KiB over some 1.2 s against a 400 ms timeout for the whole request.
    const cut = await slowUpload(await listen(countingServer(400)), 12, 100);
    expect(cut).not.toBe(`200 ${12 * 1024}`);

    const allowing = countingServer(400);
    allowLongUploads(allowing);
    expect(await slowUpload(await listen(allowing), 12, 100)).toBe(`200 ${12 * 1024}`);
  });
});
