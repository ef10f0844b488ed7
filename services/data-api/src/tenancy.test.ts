/**
 * The tenancy rule, route by route: a user of one company never receives another company's data,
 * and never changes it. Every operation of the data API's OpenAPI document is called by an analyst
 * of Acme and Birch with the ids of Cedar's things (a company the analyst has no role in): each must
 * answer 404, or 400/413/415 for a body refused before anything is looked up. Then, where a path
 * nests one thing in another, with the analyst's own Acme project, dictionary or template around
 * Cedar's child ids: 404 again, never Cedar's rows through a parent the caller may open. The child ids
 * are those of real children of Cedar's (a table, a template's level and script, a dictionary's review
 * waiting, a project user, a run, a load with its history entry, job and backup, a staged upload, a
 * mapping project's column with its import and a translation: thingsOf's `work`), so that a route which
 * looked the child up without its parent would answer it; only without the test run's PostgreSQL
 * (SKIP_POSTGRES=1) are those of a project's databases ids of nothing. Last, the same with the ids of
 * Birch's things, a company the analyst works in too (so that no check of the caller's companies
 * stands in for one of the parent's), in the path and in the body and query fields that name a thing
 * (an application, a template, a scheme, a mapping project, a run to rerun, a staged upload to load, a
 * history entry to undo or compare with…), on the caller's own project with its databases, so that such
 * a write reaches its lookups; refused as ids of nothing are, never in a way that tells Birch's exist.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../scripts/demo-data.ts";
import { TEST_DATABASE_KINDS, TEST_POSTGRES_ADMIN_URL } from "../../shared/testing/databases.ts";
import { USERS } from "./testing/harness.ts";
import { createProjectDatabases } from "./testing/project-fixtures.ts";
import {
  NAMING_FIELDS,
  THING_CHILDREN,
  collectionOf,
  namedBy,
  parentOf,
  routeSweep,
  snapshotOf,
  thingsOf,
  thingsOfNobody,
  unknownParamsOf,
  type Operation,
  type Things,
} from "./testing/route-sweep.ts";

const [cedar, acme, birch] = DEMO_COMPANIES;

/** Statuses that say nothing of the other company's thing: not found, or a request refused before any lookup. */
const REFUSALS = [400, 404, 413, 415];

describe.each(TEST_DATABASE_KINDS)("another company's ids on every route, on %s", (kind) => {
  const sweep = routeSweep(kind);
  let analyst: string;
  let admin: string;
  let theirs: Things;
  let ours: Things;
  /** The analyst's own things in Birch, another company the analyst works in. */
  let birchs: Things;
  /** Cedar's and Birch's things as the admin read them before the sweeps. */
  let before: unknown[];
  let birchBefore: unknown[];

  beforeAll(async () => {
    const { api } = sweep;
    expect(USERS.analyst.permissions.map((p) => p.companyId)).not.toContain(cedar.id);
    analyst = await api.tokenFor(USERS.analyst);
    admin = await api.tokenFor(USERS.superAdmin);
    // With the children the other path parameters name (a run, a load, a review…); on the project's list, a user of that company only.
    expect(USERS.manager.permissions.map((p) => p.companyId)).toEqual([cedar.id]);
    theirs = await thingsOf(api, cedar.id, admin, "Cedar", { memberId: USERS.manager.id });
    ours = await thingsOf(api, acme.id, analyst, "Acme");
    // The caller's project with its databases, so that a run, load, restore or comparison reaches the ids its body names.
    if (TEST_POSTGRES_ADMIN_URL) await createProjectDatabases(api, analyst, ours.byCollection.projects!);
    expect(USERS.analyst.permissions.map((p) => p.companyId)).toContain(birch.id);
    expect(USERS.clientAdmin.permissions.map((p) => p.companyId)).not.toContain(acme.id);
    birchs = await thingsOf(api, birch.id, analyst, "Birch", { memberId: USERS.clientAdmin.id });
    before = await snapshotOf(api, admin, theirs);
    birchBefore = await snapshotOf(api, admin, birchs);
  }, 120_000);

  /**
   * What is wrong with the answer, if anything: a status other than a refusal (a 403 only when the
   * caller's role is refused on its own company's things too), or any of Cedar's names in the body.
   */
  async function unlessRefused(op: Operation, res: { status: number; body: unknown }, other = theirs): Promise<string | undefined> {
    const text = JSON.stringify(res.body ?? "");
    const leaked = other.names.some((n) => text.includes(n));
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

  it("knows every path parameter of the document: the parent, a child a company's things fill, or a name", () => {
    const unknown = sweep.operations.flatMap((op) => unknownParamsOf(op).map((name) => `${op.method} ${op.path}: {${name}}`));
    expect(sweep.operations.length).toBeGreaterThan(250);
    expect(unknown).toEqual([]);
  });

  it.each([
    ["Cedar's", () => theirs],
    ["Birch's", () => birchs],
  ])(
    "answers 404 for %s child ids inside the caller's own project, dictionary or template",
    async (_, others) => {
      const answered: string[] = [];
      let swept = 0;
      for (const op of sweep.operations) {
        const params = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
        if (!params.includes("id") || !params.some((p) => THING_CHILDREN.includes(p))) continue;
        swept++;
        const wrong = await unlessRefused(op, await sweep.call(analyst, op, { parents: ours, children: others(), version: await versionOf(op) }), others());
        if (wrong) answered.push(wrong);
      }
      expect(swept).toBeGreaterThan(150);
      expect(answered).toEqual([]);
    },
    120_000,
  );

  it("refuses Birch's ids in the body or query fields that name a thing, on the caller's own Acme things", async () => {
    const birchIds = Object.values(namedBy(birchs)).flat() as string[];
    const answered: string[] = [];
    let swept = 0;
    for (const op of sweep.operations) {
      if (!op.body && !op.query.some((p) => NAMING_FIELDS.includes(p.name))) continue;
      const res = await sweep.call(analyst, op, { parents: ours, named: birchs, version: await versionOf(op) });
      if (!birchIds.some((id) => res.sent.includes(id))) continue;
      swept++;
      // A read may answer (an empty list filtered by an id of nothing here), a write must be refused
      // (at the field, or as there being nothing of that id to run), and neither may show Birch's things.
      // A refusal other than those is the one ids of nothing get too (a configuration without its databases
      // is not ready whatever the body names), not one that tells of Birch's thing (a rerun refused as a Test run's).
      const refusedAsNothing = async () => {
        const nothing = await sweep.call(analyst, op, { parents: ours, named: thingsOfNobody(), version: await versionOf(op) });
        return nothing.status === res.status && nothing.body?.code === res.body?.code;
      };
      const refused = op.method === "GET" || REFUSALS.includes(res.status) || (res.status >= 400 && res.status < 500 && (await refusedAsNothing()));
      const text = JSON.stringify(res.body ?? "");
      if (!refused || birchs.names.some((n) => text.includes(n))) answered.push(`${op.method} ${op.path}: ${res.status} ${text.slice(0, 160)}`);
    }
    expect(swept).toBeGreaterThan(10);
    expect(answered).toEqual([]);
  }, 120_000);

  /** The version a write is based on, so that no stale check answers first: the project's own dictionary's for its dictionary routes. */
  async function versionOf(op: Operation): Promise<number | undefined> {
    const collection = collectionOf(op);
    if (!op.path.includes("{id}")) return undefined;
    const parentUrl = `/api/v1/${collection}/${parentOf(ours)(collection)}`;
    const parent = await sweep.api.get(`${parentUrl}${op.path.includes("/data-dictionary/") ? "/data-dictionary" : ""}`, analyst);
    return parent.body?.version;
  }

  it("changed nothing of Cedar's or Birch's", async () => {
    expect(await snapshotOf(sweep.api, admin, theirs)).toEqual(before);
    expect(await snapshotOf(sweep.api, admin, birchs)).toEqual(birchBefore);
  });
});
