/**
 * A user who may only read changes nothing, route by route: every write of the data API's OpenAPI
 * document is refused to a Viewer of the company (a role that opens no area), and every write to a
 * project or a configuration to an analyst who is on its access list to read only. The company's
 * things stay as they were.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../scripts/demo-data.ts";
import { TEST_DATABASE_KINDS } from "../../shared/testing/databases.ts";
import { USERS } from "./testing/harness.ts";
import { collectionOf, routeSweep, snapshotOf, thingsOf, type Operation, type Things } from "./testing/route-sweep.ts";

const [, acme] = DEMO_COMPANIES;

describe.each(TEST_DATABASE_KINDS)("writes refused to readers on every route, on %s", (kind) => {
  const sweep = routeSweep(kind);
  let admin: string;
  let acmes: Things;

  beforeAll(async () => {
    const { api } = sweep;
    admin = await api.tokenFor(USERS.superAdmin);
    acmes = await thingsOf(api, acme.id, admin, "Acme");
    for (const collection of ["projects", "audit-projects"]) {
      const url = `/api/v1/${collection}/${acmes.byCollection[collection]}/users/${USERS.analyst.id}`;
      expect((await api.send("PUT", url, admin, { canRead: true, canWrite: false })).status).toBe(200);
    }
  }, 120_000);

  /** Each write called by `token`'s user: what it answered other than 403 (or 400/404 before the check), and how many 403s. */
  async function writeAll(token: string, writes: Operation[]) {
    const answered: string[] = [];
    let refused = 0;
    for (const op of writes) {
      const res = await sweep.call(token, op, { parents: acmes });
      if (res.status === 403) refused++;
      else if (![400, 404].includes(res.status)) answered.push(`${op.method} ${op.path}: ${res.status} ${JSON.stringify(res.body ?? "").slice(0, 160)}`);
    }
    return { answered, refused };
  }

  it("refuses every write to a Viewer of the company (403), and changes nothing", async () => {
    expect(USERS.viewer.permissions).toEqual([{ companyId: acme.id, productRoleName: expect.stringMatching(/Viewer$/) }]);
    const before = await snapshotOf(sweep.api, admin, acmes);
    const writes = sweep.operations.filter((o) => o.method !== "GET");
    const { answered, refused } = await writeAll(await sweep.api.tokenFor(USERS.viewer), writes);
    expect(answered).toEqual([]);
    // Nearly all for the role itself, not for a body or a thing that is not there.
    expect(refused).toBeGreaterThan(writes.length * 0.9);
    expect(await snapshotOf(sweep.api, admin, acmes)).toEqual(before);
  }, 120_000);

  it("refuses every write to the project and the configuration to an analyst who may only read them (403), and changes nothing", async () => {
    const analyst = await sweep.api.tokenFor(USERS.analyst);
    expect((await sweep.api.get(`/api/v1/projects/${acmes.byCollection.projects}`, analyst)).status).toBe(200);
    const before = await snapshotOf(sweep.api, admin, acmes);
    const writes = sweep.operations.filter((o) => o.method !== "GET" && o.path.includes("{id}") && ["projects", "audit-projects"].includes(collectionOf(o)));
    const { answered, refused } = await writeAll(analyst, writes);
    expect(answered).toEqual([]);
    expect(refused).toBeGreaterThan(writes.length * 0.9);
    expect(await snapshotOf(sweep.api, admin, acmes)).toEqual(before);
  }, 120_000);
});
