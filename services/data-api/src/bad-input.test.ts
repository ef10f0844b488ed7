/**
 * Bad input is answered, never a 500, route by route: every operation of the data API's OpenAPI
 * document is called by an admin (past every role check) on a company's real things with hostile
 * values wherever its query and body take text or a number (quotes, markup, a lone surrogate, 3,000
 * characters, with and without a NUL; one past PostgreSQL's integer), with a body that is not JSON, and with hostile
 * ids in its path. Each answer is a 4xx (or a success that took the text as text), as JSON, without
 * a stack trace.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../scripts/demo-data.ts";
import { TEST_DATABASE_KINDS } from "../../shared/testing/databases.ts";
import { NUL_MESSAGE } from "../../../contracts/common.ts";
import { NUL_IN_ADDRESS_MESSAGE } from "../../shared/nul-characters.ts";
import { USERS } from "./testing/harness.ts";
import { collectionOf, parentOf, routeSweep, thingsOf, type Operation, type Things } from "./testing/route-sweep.ts";

const [, acme] = DEMO_COMPANIES;

/** Ids that have broken lookups: a NUL, a quote, a traversal, text far longer than an id. */
const HOSTILE_IDS = ["%00", "x'%20or%201=1--", "..%2F..%2Fetc%2Fpasswd", "9".repeat(400)];

describe.each(TEST_DATABASE_KINDS)("bad input on every route, on %s", (kind) => {
  const sweep = routeSweep(kind);
  let admin: string;
  let acmes: Things;

  beforeAll(async () => {
    admin = await sweep.api.tokenFor(USERS.superAdmin);
    acmes = await thingsOf(sweep.api, acme.id, await sweep.api.tokenFor(USERS.analyst), "Acme");
  }, 120_000);

  /** What is wrong with an answer: a 5xx, a body that is not JSON where JSON was due, a stack trace. */
  async function wrongIn(op: Operation, what: string, res: Response): Promise<string | undefined> {
    const text = await res.text();
    const json = (res.headers.get("content-type") ?? "").startsWith("application/json");
    if (res.status < 500 && (json || res.status < 400) && !/\n\s+at |node_modules/.test(text)) return undefined;
    return `${op.method} ${op.path} (${what}): ${res.status} ${text.slice(0, 200)}`;
  }

  const request = (method: string, url: string, body?: string) =>
    sweep.api.app.request(url, {
      method,
      headers: { authorization: `Bearer ${admin}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body,
    });

  it.each(["hostile", "hostile-without-nul"] as const)(
    "answers %s text and numbers in every query and body without a 5xx",
    async (leaves) => {
      const wrong: string[] = [];
      for (const op of sweep.operations) {
        const res = await sweep.call(admin, op, { parents: acmes, leaves }).catch((err: unknown) => ({ status: 599, body: String(err) }));
        if (res.status >= 500) wrong.push(`${op.method} ${op.path}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }
      expect(wrong).toEqual([]);
    },
    120_000,
  );

  it("answers a body that is not JSON, and hostile ids in the path, with a 4xx as JSON", async () => {
    const wrong: string[] = [];
    for (const op of sweep.operations) {
      const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === "id" ? parentOf(acmes)(collectionOf(op)) : "x"));
      const query = `companyId=${acme.id}`;
      if (op.body) {
        const found = await wrongIn(op, "not JSON", await request(op.method, `${path}?${query}`, '{"name": "unfinished'));
        if (found) wrong.push(found);
      }
      for (const id of HOSTILE_IDS) {
        if (!op.path.includes("{")) break;
        const found = await wrongIn(op, `id ${id.slice(0, 20)}`, await request(op.method, `${op.path.replace(/\{(\w+)\}/g, id)}?${query}`));
        if (found) wrong.push(found);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it("names the field holding a NUL, refuses one in the address, and a version past PostgreSQL's integer, changing nothing", async () => {
    const url = `/api/v1/projects/${acmes.byCollection.projects}`;
    const project = (await sweep.api.get(url, admin)).body;
    const named = await sweep.api.send("PATCH", url, admin, { version: project.version, name: "Ledger\u0000move", description: "ok" });
    expect(named.status).toBe(400);
    expect(named.body).toMatchObject({ code: "validation_failed", errors: [`name: ${NUL_MESSAGE}`], fieldErrors: { name: [NUL_MESSAGE] } });

    const address = await sweep.api.get(`/api/v1/projects/%00?companyId=${acme.id}`, admin);
    expect(address.status).toBe(400);
    expect(address.body.errors).toEqual([NUL_IN_ADDRESS_MESSAGE]);

    const huge = await sweep.api.send("PATCH", url, admin, { version: 2 ** 31, name: "Ledger move", description: "ok" });
    expect(huge.status).toBe(400);
    expect(huge.body.fieldErrors).toEqual({ version: ["At most 2,147,483,647"] });

    expect((await sweep.api.get(url, admin)).body).toEqual(project);
  });
});
