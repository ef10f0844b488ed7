import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BULK_UPLOAD_MAX_BYTES } from "../../../contracts/dictionary.ts";
import { DEMO_COMPANIES } from "../../../scripts/demo-data.ts";
import { TEST_DATABASE_KINDS } from "../../shared/testing/databases.ts";
import { JSON_BODY_MAX_BYTES, TABLE_BODY_MAX_BYTES, UPLOAD_BODY_MAX_BYTES, bodyTooLargeMessage } from "./body-limits.ts";
import { FILE_TOO_LARGE_MESSAGE } from "./dictionary-bulk/sheet-rows.ts";
import { seedDictionary } from "./testing/dictionary-fixtures.ts";
import { USERS, createTestApi, type TestApi } from "./testing/harness.ts";

const [, acme] = DEMO_COMPANIES;
const MB = 1024 * 1024;

/**
 * A body of `total` bytes without a Content-Length (sent chunked by a real client), made 64 KB at a
 * time as it is read; `pulled()` says how much of it the server read.
 */
function streamedBody(total: number, fill = 0x20) {
  let sent = 0;
  const chunk = new Uint8Array(64 * 1024).fill(fill);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      const piece = chunk.subarray(0, Math.min(chunk.byteLength, total - sent));
      sent += piece.byteLength;
      controller.enqueue(piece);
    },
  });
  return { stream, pulled: () => sent };
}

describe.each(TEST_DATABASE_KINDS)("request body limits on %s", (kind) => {
  let api: TestApi;
  let analyst: string;
  beforeAll(async () => {
    api = await createTestApi(kind);
    analyst = await api.tokenFor(USERS.analyst);
  });
  afterAll(() => api?.close());

  const post = (path: string, init: RequestInit & { duplex?: "half" }, headers: Record<string, string> = {}) =>
    api.app.request(path, { method: "POST", ...init, headers: { authorization: `Bearer ${analyst}`, "x-request-id": "req-413", ...headers } });

  const tooLarge = (maxBytes: number) => ({ status: 413, code: "payload_too_large", errors: [bodyTooLargeMessage(maxBytes)], requestId: "req-413" });

  it("answers a 2 MB JSON body with the API's 413 JSON error", async () => {
    const body = JSON.stringify({ companyId: acme.id, name: "Big", description: "x".repeat(2 * MB) });
    const res = await post("/api/v1/applications", { body }, { "content-type": "application/json" });
    expect(res.status).toBe(413);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(tooLarge(JSON_BODY_MAX_BYTES));
    expect(bodyTooLargeMessage(JSON_BODY_MAX_BYTES)).toBe("The request body is larger than 1 MB.");
    expect(await api.db.selectFrom("applications").select("id").where("name", "=", "Big").execute()).toEqual([]);
  });

  it("refuses a declared Content-Length over the limit without reading the body", async () => {
    const { stream, pulled } = streamedBody(300 * MB);
    const res = await post("/api/v1/applications", { body: stream, duplex: "half" }, { "content-type": "application/json", "content-length": String(300 * MB) });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual(tooLarge(JSON_BODY_MAX_BYTES));
    expect(pulled()).toBeLessThanOrEqual(64 * 1024);
  });

  it("counts a chunked body (no Content-Length) while it streams, and stops reading past the limit", async () => {
    const { stream, pulled } = streamedBody(300 * MB);
    const res = await post("/api/v1/applications", { body: stream, duplex: "half" }, { "content-type": "application/json" });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual(tooLarge(JSON_BODY_MAX_BYTES));
    // Read up to the limit and one chunk past it (plus what the stream buffers ahead), not 300 MB.
    expect(pulled()).toBeLessThan(JSON_BODY_MAX_BYTES + 256 * 1024);
  });

  it("refuses a body before authentication (no token, no reading past the limit)", async () => {
    const { stream, pulled } = streamedBody(10 * MB);
    const res = await api.app.request("/api/v1/applications", { method: "POST", body: stream, duplex: "half", headers: { "content-type": "application/json" } } as RequestInit);
    expect(res.status).toBe(413);
    expect(pulled()).toBeLessThan(JSON_BODY_MAX_BYTES + 256 * 1024);
  });

  it("accepts a small chunked JSON body", async () => {
    const json = new TextEncoder().encode(JSON.stringify({ companyId: acme.id, name: `Chunked ${Date.now()}`, description: null }));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(json.subarray(0, 10));
        controller.enqueue(json.subarray(10));
        controller.close();
      },
    });
    const res = await post("/api/v1/applications", { body: stream, duplex: "half" }, { "content-type": "application/json" });
    expect(res.status).toBe(201);
  });

  it("gives a dictionary table up to 4 MB: 1,024 columns with full descriptions", async () => {
    const dict = await seedDictionary(api, analyst, acme.id);
    const columns = Array.from({ length: 1024 }, (_, i) => ({ name: `Column${i}`, type: "int", description: "é".repeat(1000) }));
    const body = JSON.stringify({ version: 1, name: "Wide", columns });
    expect(body.length).toBeGreaterThan(JSON_BODY_MAX_BYTES);
    const res = await post(`/api/v1/data-dictionaries/${dict.id}/tables`, { body }, { "content-type": "application/json" });
    expect(res.status).toBe(201);

    const huge = JSON.stringify({ version: 2, name: "Wider", columns, padding: "x".repeat(TABLE_BODY_MAX_BYTES) });
    const refused = await post(`/api/v1/data-dictionaries/${dict.id}/tables`, { body: huge }, { "content-type": "application/json" });
    expect(refused.status).toBe(413);
    expect(await refused.json()).toEqual(tooLarge(TABLE_BODY_MAX_BYTES));
  });

  it("lets uploads past the JSON limit: a preview's staged files, a mapping project's samples, files to translate and map imports", async () => {
    const body = new Uint8Array(2 * MB);
    const headers = { "content-type": "multipart/form-data; boundary=x", "content-length": String(body.byteLength) };
    for (const path of [
      "/api/v1/projects/nope/flat-file/uploads",
      "/api/v1/audit-projects/nope/flat-file/uploads",
      "/api/v1/mapping-projects/nope/mapping-tables/t/samples",
      "/api/v1/mapping-projects/nope/translations",
      "/api/v1/mapping-projects/nope/mapping-columns/c/imports",
    ]) {
      const res = await post(path, { body }, headers);
      // Past the size rule: the route answers, for a workspace that does not exist.
      expect(res.status, path).toBe(404);
    }
  });

  describe("dictionary bulk uploads", () => {
    /** A multipart form with `file` of `size` bytes, as a stream without Content-Length, and its content type. */
    function streamedForm(file: Uint8Array, name: string) {
      const form = new FormData();
      form.append("file", new File([Buffer.from(file)], name));
      const encoded = new Response(form);
      return { body: encoded.body!, contentType: encoded.headers.get("content-type")! };
    }

    it("takes a file just under 64 MB sent chunked, and refuses a chunked body over the upload limit on `file`", async () => {
      const dict = await seedDictionary(api, analyst, acme.id);
      // Just under 64 MB in some 6,400 rows of 80 tables: each description is padded with spaces (trimmed
      // away), so the bytes reach the limit with a tenth of the rows that 1 KB rows would take to store.
      const header = "table,column,type,length,precision,scale,nullable,key,description\n";
      const row = (i: number) => `T${i % 80},Column${i},int,,,,,,${"d".repeat(990)}${" ".repeat(9000)}\n`;
      let text = header;
      for (let i = 0; text.length + row(i).length <= BULK_UPLOAD_MAX_BYTES; i++) text += row(i);
      expect(text.length).toBeGreaterThan(BULK_UPLOAD_MAX_BYTES - 1100);

      const ok = streamedForm(new TextEncoder().encode(text), "large.csv");
      const res = await post(`/api/v1/data-dictionaries/${dict.id}/bulk-uploads`, { body: ok.body, duplex: "half" }, { "content-type": ok.contentType });
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ errorCount: 0, canApply: true });

      const { stream, pulled } = streamedBody(80 * MB, 0x41);
      const refused = await post(`/api/v1/data-dictionaries/${dict.id}/bulk-uploads`, { body: stream, duplex: "half" }, { "content-type": "multipart/form-data; boundary=x" });
      expect(refused.status).toBe(413);
      expect(await refused.json()).toEqual({ status: 413, code: "payload_too_large", errors: [FILE_TOO_LARGE_MESSAGE], fieldErrors: { file: [FILE_TOO_LARGE_MESSAGE] }, requestId: "req-413" });
      expect(pulled()).toBeLessThan(UPLOAD_BODY_MAX_BYTES + 256 * 1024);
      // 64 MB is read and parsed (5 s on an idle machine): its own time, whatever else shares the two cores.
    }, 60_000);
  });
});
