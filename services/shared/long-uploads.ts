import type http from "node:http";

/**
 * Lets a request's body take as long as the sender needs: a load's file (up to 5 GB) or a backup
 * over an ordinary link takes longer than Node's `requestTimeout` (5 minutes for the whole request,
 * headers and body), after which Node answers 408 and closes the connection, cutting the upload off
 * mid-file. The headers still have to arrive within Node's `headersTimeout` (60 s), so a client that
 * never starts its request is still dropped; a body that stops flowing is ended by the upload's own
 * reader (its limit, or the client going away). For the servers that take uploads: the portal and the data API.
 */
export function allowLongUploads(server: Pick<http.Server, "requestTimeout">): void {
  server.requestTimeout = 0;
}
