/**
 * Requests and fixtures for the dictionary tests (master and project): JSON writes, multipart
 * uploads, and an application with a dictionary to work on. Built on the harness's TestApi.
 */
import fs from "node:fs";
import path from "node:path";
import type { Dictionary } from "../../../../contracts/dictionary.ts";
import type { TestApi } from "./harness.ts";

export type Reply = { status: number; headers: Headers; body: any };

export async function send(api: TestApi, method: string, url: string, token: string | undefined, body?: unknown): Promise<Reply> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await api.app.request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, headers: res.headers, body: await readBody(res) };
}

/** POSTs `bytes` as the multipart field `file` named `fileName`, and any `fields`, as a browser form does. */
export async function upload(
  api: TestApi,
  url: string,
  token: string,
  bytes: Uint8Array | string,
  fileName: string,
  fields: Record<string, string> = {},
): Promise<Reply> {
  const form = new FormData();
  form.append("file", new File([typeof bytes === "string" ? bytes : Buffer.from(bytes)], fileName));
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const res = await api.app.request(url, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, headers: res.headers, body: await readBody(res) };
}

/**
 * A review as one object, the way the API answered it before reviews were paged: its summary, every
 * problem (`errors`) and every table, read page by page from …/bulk-uploads/{id}, /problems, /tables.
 */
export async function readFullReview(api: TestApi, reviewUrl: string, token: string): Promise<Reply> {
  const summary = await send(api, "GET", reviewUrl, token);
  if (summary.status !== 200) return summary;
  const all = async (what: "tables" | "problems") => {
    const items: unknown[] = [];
    for (let page = 1; ; page++) {
      const res = await send(api, "GET", `${reviewUrl}/${what}?page=${page}&pageSize=100`, token);
      if (res.status !== 200) throw new Error(`${what} page ${page}: ${res.status} ${JSON.stringify(res.body)}`);
      items.push(...res.body.items);
      if (items.length >= res.body.total || res.body.items.length === 0) return items;
    }
  };
  const [tables, errors] = await Promise.all([all("tables"), all("problems")]);
  return { ...summary, body: { ...summary.body, errors, tables } };
}

async function readBody(res: Response) {
  const text = await res.text();
  return text ? JSON.parse(text) : null;
}

export const FIXTURES_DIR = path.resolve(import.meta.dirname, "../../test-fixtures");

export function fixture(name: string): Uint8Array {
  return new Uint8Array(fs.readFileSync(path.join(FIXTURES_DIR, name)));
}

/** A fresh application (unique name) of `companyId` with one empty master dictionary. */
export async function seedDictionary(api: TestApi, token: string, companyId: string, label = "Legacy"): Promise<Dictionary> {
  const suffix = Math.random().toString(36).slice(2, 8);
  const app = await send(api, "POST", "/api/v1/applications", token, { companyId, name: `${label} ${suffix}`, description: null });
  if (app.status !== 201) throw new Error(`seed application: ${app.status} ${JSON.stringify(app.body)}`);
  const dict = await send(api, "POST", "/api/v1/data-dictionaries", token, { companyId, applicationId: app.body.id, name: `${label} dictionary ${suffix}` });
  if (dict.status !== 201) throw new Error(`seed dictionary: ${dict.status} ${JSON.stringify(dict.body)}`);
  return dict.body as Dictionary;
}
