import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { data } from "react-router";
import { z } from "zod";
import { action as sidebarAction } from "~/routes/sidebar";
import type { StreamedUpload } from "./api.server";
import { exactValue } from "./forms";
import { choiceOf, formBoolean, nameSchema, versionSchema } from "../../contracts/common";
import {
  countedBody,
  FORM_MAX_BYTES,
  invalid,
  parseFormData,
  readExactValues,
  readFormData,
  SENT_MORE_THAN_ONCE,
  submitForm,
  submitUpload,
  UPLOAD_FORM_MAX_BYTES,
} from "./forms.server";

/** Conform's reserved field for a list's buttons (insert, remove, reorder). */
const INTENT = "__intent__";

const CHUNK = 64 * 1024;

/**
 * A body that never ends before `total` bytes, made one chunk at a time only when asked (as a socket
 * gives them), counting what was handed out: the measure of what the portal read.
 */
function endlessBody(total: number, prefix = "") {
  const counter = { read: 0 };
  const head = new TextEncoder().encode(prefix);
  let sentHead = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!sentHead) {
          sentHead = true;
          counter.read += head.byteLength;
          controller.enqueue(head);
          return;
        }
        if (counter.read >= total) return controller.close();
        const size = Math.min(CHUNK, total - counter.read);
        counter.read += size;
        controller.enqueue(new Uint8Array(size).fill(0x61));
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, counter };
}

/** A chunked POST: a stream body and no Content-Length, as curl -T - or a script sends it. */
function chunkedPost(url: string, body: ReadableStream<Uint8Array>, contentType: string) {
  return new Request(url, { method: "POST", body, headers: { "content-type": contentType }, duplex: "half" } as RequestInit);
}

async function thrown(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    return err as { type?: string; data: { errors: string[] }; init: ResponseInit };
  }
  throw new Error("expected a throw");
}

const MB20 = 20 * 1024 * 1024;

describe("readFormData caps the body while it streams", () => {
  it("a 20 MB chunked form is a 413 after reading at most the limit plus one chunk", async () => {
    const { stream, counter } = endlessBody(MB20, "field=");
    const err = await thrown(readFormData(chunkedPost("http://portal.test/x", stream, "application/x-www-form-urlencoded")));
    expect(err.init.status).toBe(413);
    expect(err.data.errors.join(" ")).toMatch(/larger than 1 MB/);
    expect(counter.read).toBeGreaterThan(FORM_MAX_BYTES);
    expect(counter.read).toBeLessThanOrEqual(FORM_MAX_BYTES + CHUNK);
  });

  it("an endless chunked upload passed on as it streams stops at the upload limit plus one chunk", async () => {
    const boundary = "----dt-test-boundary";
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.csv"\r\nContent-Type: text/csv\r\n\r\n`;
    const { stream, counter } = endlessBody(UPLOAD_FORM_MAX_BYTES * 2, head);
    const body = countedBody(stream, UPLOAD_FORM_MAX_BYTES);
    const reader = body.stream.getReader();
    const err = await (async () => {
      for (;;) if ((await reader.read()).done) return undefined;
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(body.tooLarge()).toBe(true);
    expect(counter.read).toBeLessThanOrEqual(UPLOAD_FORM_MAX_BYTES + CHUNK);
  });

  it("a Content-Length over the limit is refused before anything is read", async () => {
    const { stream, counter } = endlessBody(MB20);
    const request = new Request("http://portal.test/x", {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(MB20) },
      duplex: "half",
    } as RequestInit);
    const err = await thrown(readFormData(request));
    expect(err.init.status).toBe(413);
    expect(counter.read).toBe(0);
  });

  it("reads forms within the limit, chunked or not, url-encoded or multipart", async () => {
    const plain = await readFormData(new Request("http://portal.test/x", { method: "POST", body: new URLSearchParams({ a: "1", b: "two" }) }));
    expect(Object.fromEntries(plain)).toEqual({ a: "1", b: "two" });

    const multipart = new FormData();
    multipart.set("name", "x");
    multipart.set("file", new File(["table,column\n"], "d.csv"));
    const encoded = new Response(multipart);
    const chunked = await readFormData(chunkedPost("http://portal.test/x", encoded.body!, encoded.headers.get("content-type")!), UPLOAD_FORM_MAX_BYTES);
    expect(chunked.get("name")).toBe("x");
    expect(await (chunked.get("file") as File).text()).toBe("table,column\n");

    // Exactly at the limit is fine.
    const { stream } = endlessBody(FORM_MAX_BYTES, "a=");
    const full = await readFormData(chunkedPost("http://portal.test/x", stream, "application/x-www-form-urlencoded"));
    expect((full.get("a") as string).length).toBe(FORM_MAX_BYTES - 2);
  });

  it("a broken body is still a 400, not a 500", async () => {
    const err = await thrown(
      readFormData(new Request("http://portal.test/x", { method: "POST", body: "--nope", headers: { "content-type": "multipart/form-data; boundary=x" } })),
    );
    expect(err.init.status).toBe(400);
  });

  it("the sidebar toggle (an action) answers a 20 MB chunked post with a 413", async () => {
    const { stream, counter } = endlessBody(MB20, "state=collapsed&redirectTo=");
    const err = await thrown(
      sidebarAction({ request: chunkedPost("http://portal.test/sidebar", stream, "application/x-www-form-urlencoded"), params: {}, context: {} } as never),
    );
    expect(err.init.status).toBe(413);
    expect(counter.read).toBeLessThanOrEqual(FORM_MAX_BYTES + CHUNK);
  });
});

describe("submitUpload passes an upload on as it streams", () => {
  const limit = { maxBytes: MB20, tooLargeMessage: "too large", noFileMessage: "no file" };
  const form = '--x\r\ncontent-disposition: form-data; name="table"\r\n\r\nCustomers\r\n--x--\r\n';

  it("with the length the browser declared, so the service may start on a file as it arrives; without one when none was", async () => {
    const sent: { length?: number; contentType: string; text: string }[] = [];
    const send = async (upload: StreamedUpload) => {
      sent.push({ length: upload.length, contentType: upload.contentType, text: await new Response(upload.body).text() });
      return "ok";
    };
    const declared = new Request("http://portal.test/x", {
      method: "POST",
      body: form,
      headers: { "content-type": "multipart/form-data; boundary=x", "content-length": String(form.length) },
    });
    expect(await submitUpload(declared, limit, send)).toEqual({ value: "ok" });
    const { stream } = endlessBody(form.length, "");
    expect(await submitUpload(chunkedPost("http://portal.test/x", stream, "multipart/form-data; boundary=x"), limit, send)).toEqual({ value: "ok" });
    expect(sent.map(({ length, contentType }) => ({ length, contentType }))).toEqual([
      { length: form.length, contentType: "multipart/form-data; boundary=x" },
      { length: undefined, contentType: "multipart/form-data; boundary=x" },
    ]);
    expect(sent[0]!.text).toBe(form);
  });

  it("refuses a file declared too large before sending anything, keeping the fields sent ahead of it, never reading the file", async () => {
    const choices = { uploadType: "SingleFile", table: "Customers", mode: "append", onRejected: "loadOthers" };
    const ahead =
      Object.entries(choices)
        .map(([name, value]) => `--x\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
        .join("") + '--x\r\ncontent-disposition: form-data; name="file"; filename="orders.csv"\r\ncontent-type: text/csv\r\n\r\n';
    const { stream, counter } = endlessBody(MB20 * 2, ahead);
    const request = new Request("http://portal.test/x", {
      method: "POST",
      body: stream,
      headers: { "content-type": "multipart/form-data; boundary=x", "content-length": String(MB20 * 2) },
      duplex: "half",
    } as RequestInit);
    let sent = false;
    const { reply } = await submitUpload(request, limit, async () => (sent = true));
    const answer = reply as unknown as { data: { result: { initialValue: unknown; error: Record<string, string[]> } }; init: ResponseInit };
    expect(answer.init.status).toBe(413);
    expect(answer.data.result.error).toEqual({ file: ["too large"] });
    expect(answer.data.result.initialValue).toEqual(choices);
    expect(sent).toBe(false);
    // The head that holds the fields, and at most one chunk of the file.
    expect(counter.read).toBeLessThanOrEqual(ahead.length + CHUNK);
  });
});

describe("submitForm sends a valid form on, and answers a refusal at the form's fields", () => {
  const schema = z.object({ name: z.string({ error: "Required" }) });
  const post = (fields: Record<string, string>) => new Request("http://portal.test/x", { method: "POST", body: new URLSearchParams(fields) });
  type Answer = { data: { result: { error?: Record<string, string[] | null> } }; init: ResponseInit | null };

  it("sends the parsed value and gives back the service's answer", async () => {
    const sent: unknown[] = [];
    expect(await submitForm(post({ name: "Ledger" }), schema, async (value) => (sent.push(value), { id: "a1" }))).toEqual({ value: { id: "a1" } });
    expect(sent).toEqual([{ name: "Ledger" }]);
  });

  it("sends nothing for an invalid form, and answers 400 with the field's message", async () => {
    let sent = false;
    const { reply } = await submitForm(post({}), schema, async () => (sent = true));
    const answer = reply as unknown as Answer;
    expect(answer.init?.status).toBe(400);
    expect(answer.data.result.error).toEqual({ name: ["Required"] });
    expect(sent).toBe(false);
  });

  it("answers a service's refusal with its status next to the field it names, and rethrows a failure of the service", async () => {
    const refusal = data({ errors: ["That name is taken."], fieldErrors: { name: ["That name is taken."] } }, { status: 409 });
    const { reply } = await submitForm(post({ name: "Ledger" }), schema, () => Promise.reject(refusal));
    const answer = reply as unknown as Answer;
    expect(answer.init?.status).toBe(409);
    expect(answer.data.result.error).toEqual({ name: ["That name is taken."] });
    const down = data({ errors: ["The data API is not reachable."] }, { status: 503 });
    await expect(submitForm(post({ name: "Ledger" }), schema, () => Promise.reject(down))).rejects.toBe(down);
  });
});

describe("a field sent more than once (a forged or mangled post, an extension copying a field)", () => {
  const schema = z.object({
    name: nameSchema,
    version: versionSchema,
    kind: choiceOf(["Full", "Test"], "Choose Full or Test", "Full"),
    notify: formBoolean,
    columns: z.array(z.object({ name: z.string({ error: "Required" }) })),
    tables: z.array(z.string()).max(2, "At most 2 tables"),
  });
  const form = (entries: [string, string][]) => {
    const formData = new FormData();
    for (const [key, value] of entries) formData.append(key, value);
    return parseFormData(formData, schema);
  };
  const once: [string, string][] = [
    ["name", "Ledger"],
    ["version", "3"],
    ["kind", "Test"],
    ["notify", "on"],
    ["columns[0].name", "id"],
    ["tables", "members"],
    ["tables", "benefits"],
  ];

  it("is refused at that field in words, whatever its kind (text, number, choice, box, a list item's field), never in Zod's", () => {
    const submission = form([...once, ["name", "Ledger 2"], ["version", "abc"], ["kind", "Full"], ["notify", "on"], ["columns[0].name", "id"]]);
    expect(submission.status).toBe("error");
    expect(submission.reply().error).toEqual({
      name: [SENT_MORE_THAN_ONCE],
      version: [SENT_MORE_THAN_ONCE],
      kind: [SENT_MORE_THAN_ONCE],
      notify: [SENT_MORE_THAN_ONCE],
      "columns[0].name": [SENT_MORE_THAN_ONCE],
    });
  });

  it("is a list's own when the schema reads a list: its values, its rules in their words", () => {
    expect(form(once)).toMatchObject({ status: "success", value: { name: "Ledger", version: 3, tables: ["members", "benefits"] } });
    expect(form([...once, ["tables", "runs"]]).reply().error).toEqual({ tables: ["At most 2 tables"] });
  });
});

describe("invalid", () => {
  const schema = z.object({ name: z.string({ error: "Required" }), columns: z.array(z.object({ name: z.string({ error: "Required" }) })) });
  const form = (entries: Record<string, string>) => {
    const formData = new FormData();
    for (const [key, value] of Object.entries(entries)) formData.set(key, value);
    return parseWithZod(formData, { schema });
  };
  const answer = (value: unknown) => value as { data: { result: { error?: Record<string, string[] | null> } }; init: ResponseInit | null };

  it("a list's button posted without JavaScript (Add column) comes back with the list changed and no field judged yet", () => {
    const result = answer(invalid(form({ name: "", [INTENT]: JSON.stringify({ type: "insert", payload: { name: "columns" } }) })));
    expect(result.init?.status).toBe(200);
    expect(result.data.result.error).toEqual({});
  });

  it("a submission is judged: 400 with every field's message", () => {
    const result = answer(invalid(form({ name: "", "columns[0].name": "" })));
    expect(result.init?.status).toBe(400);
    expect(result.data.result.error).toEqual({ name: ["Required"], "columns[0].name": ["Required"] });
  });
});

describe("exactValue and readExactValues carry a value through a form to the letter", () => {
  it("whatever the browser's newline normalisation does to the field", async () => {
    const values = ["Bob\nJunior", "Ann\r\nLee", "lone\rCR", " Alice ", "tab\there", "nul\u0000", "lone \ud800 surrogate", "plain", ""];
    // A browser posting the form itself makes every line break of a field's value CRLF, and UTF-8 of the rest.
    const body = values.map((v) => `source=${encodeURIComponent(exactValue(v).replace(/\r\n|\r|\n/g, "\r\n"))}`).join("&");
    const formData = await readFormData(
      new Request("http://portal.test/x", { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } }),
    );
    expect(readExactValues(formData, "source")).toEqual(values);
  });

  it("refuses a field that is not such a value (a forged form, or a page from before) with a 400", async () => {
    for (const raw of ["Bob\r\nJunior", "12", '{"a":1}']) {
      const formData = new FormData();
      formData.append("source", raw);
      const err = await thrown(Promise.resolve().then(() => readExactValues(formData, "source")));
      expect(err.init.status, raw).toBe(400);
    }
  });
});
