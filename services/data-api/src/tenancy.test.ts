/**
 * The tenancy rule, route by route: a user of one company never receives another company's data,
 * and never changes it. Every operation of the data API's OpenAPI document is called by an analyst
 * of Acme and Birch with the ids of Cedar's things (a company the analyst has no role in): each must
 * answer 404, or 400/413/415 for a body refused before anything is looked up. Then, where a path
 * nests one thing in another, with the analyst's own Acme project, dictionary or template around
 * Cedar's child ids: 404 again, never Cedar's rows through a parent the caller may open.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../scripts/demo-data.ts";
import { TEST_DATABASE_KINDS } from "../../shared/testing/databases.ts";
import { USERS } from "./testing/harness.ts";
import { THING_CHILDREN, collectionOf, parentOf, routeSweep, snapshotOf, thingsOf, type Operation, type Things } from "./testing/route-sweep.ts";

const [cedar, acme] = DEMO_COMPANIES;

/** Statuses that say nothing of the other company's thing: not found, or a request refused before any lookup. */
const REFUSALS = [400, 404, 413, 415];

describe.each(TEST_DATABASE_KINDS)("another company's ids on every route, on %s", (kind) => {
  const sweep = routeSweep(kind);
  let analyst: string;
  let admin: string;
  let theirs: Things;
  let ours: Things;
  /** Cedar's things as the admin read them before the sweeps. */
  let before: unknown[];

  beforeAll(async () => {
    const { api } = sweep;
    expect(USERS.analyst.permissions.map((p) => p.companyId)).not.toContain(cedar.id);
    analyst = await api.tokenFor(USERS.analyst);
    admin = await api.tokenFor(USERS.superAdmin);
    theirs = await thingsOf(api, cedar.id, admin, "Cedar");
    ours = await thingsOf(api, acme.id, analyst, "Acme");
    before = await snapshotOf(api, admin, theirs);
  }, 120_000);

  /**
   * What is wrong with the answer, if anything: a status other than a refusal (a 403 only when the
   * caller's role is refused on its own company's things too), or any of Cedar's names in the body.
   */
  async function unlessRefused(op: Operation, res: { status: number; body: unknown }): Promise<string | undefined> {
    const text = JSON.stringify(res.body ?? "");
    const leaked = theirs.names.some((n) => text.includes(n));
    const refusedAnywhere = async () => (await sweep.call(analyst, op, { parents: ours })).status === 403;
    if (!leaked && (REFUSALS.includes(res.status) || (res.status === 403 && (await refusedAnywhere())))) return undefined;
    return `${op.method} ${op.path}: ${res.status} ${text.slice(0, 160)}`;
  }

  it("answers 404 (or refuses the body first) for Cedar's ids on every route that names a company's thing", async () => {
    const answered: string[] = [];
    let swept = 0;
    for (const op of sweep.operations) {
      const namesAThing = op.path.includes("{") || op.query.some((p) => p.name === "companyId") || op.body || op.multipart;
      // The document itself, the caller's own lists of companies and product facts name nothing of a company.
      if (!namesAThing || collectionOf(op) === "productInfo") continue;
      swept++;
      const wrong = await unlessRefused(op, await sweep.call(analyst, op, { parents: theirs }));
      if (wrong) answered.push(wrong);
    }
    expect(swept).toBeGreaterThan(250);
    expect(answered).toEqual([]);
  }, 120_000);

  it("answers 404 for Cedar's child ids inside the caller's own project, dictionary or template", async () => {
    const answered: string[] = [];
    let swept = 0;
    for (const op of sweep.operations) {
      const params = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      if (!params.includes("id") || !params.some((p) => THING_CHILDREN.includes(p))) continue;
      const collection = collectionOf(op);
      // The version a write is based on, so that no stale check answers first: the project's own dictionary's for its dictionary routes.
      const parentUrl = `/api/v1/${collection}/${parentOf(ours)(collection)}`;
      const parent = await sweep.api.get(`${parentUrl}${op.path.includes("/data-dictionary/") ? "/data-dictionary" : ""}`, analyst);
      swept++;
      const wrong = await unlessRefused(op, await sweep.call(analyst, op, { parents: ours, children: theirs, version: parent.body?.version }));
      if (wrong) answered.push(wrong);
    }
    expect(swept).toBeGreaterThan(60);
    expect(answered).toEqual([]);
  }, 120_000);

  it("changed nothing of Cedar's", async () => {
    expect(await snapshotOf(sweep.api, admin, theirs)).toEqual(before);
  });
});
