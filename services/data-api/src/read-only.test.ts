/**
 * A user who may only read changes nothing, route by route: every write of the data API's OpenAPI
 * document is refused to a Viewer of the company (a role that opens no area), and every write to a
 * project or a configuration to an analyst who is on its access list to read only. The company's
 * things stay as they were.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../scripts/demo-data.ts";
import { TEST_DATABASE_KINDS } from "../../shared/testing/databases.ts";
import { USERS, createTestApi, type TestApi } from "./testing/harness.ts";
import {
  callOperation,
  childOf,
  collectionOf,
  parentOf,
  readOperations,
  snapshotOf,
  thingsOf,
  type Operation,
  type Schema,
  type Things,
} from "./testing/route-sweep.ts";

const [, acme] = DEMO_COMPANIES;

describe.each(TEST_DATABASE_KINDS)("writes refused to readers on every route, on %s", (kind) => {
  let api: TestApi;
  let admin: string;
  let operations: Operation[];
  let components: Record<string, Schema>;
  let acmes: Things;

  beforeAll(async () => {
    api = await createTestApi(kind);
    admin = await api.tokenFor(USERS.superAdmin);
    ({ operations, components } = await readOperations(api));
    acmes = await thingsOf(api, acme.id, admin, "Acme");
    for (const collection of ["projects", "audit-projects"]) {
      const granted = await api.send("PUT", `/api/v1/${collection}/${acmes.byCollection[collection]}/users/${USERS.analyst.id}`, admin, {
        canRead: true,
        canWrite: false,
      });
      expect(granted.status).toBe(200);
    }
  }, 120_000);
  afterAll(() => api?.close());

  /** Each write called by `token`'s user: what it answered other than `refusal` (or 400/404 before the check). */
  async function sweep(token: string, writes: Operation[], refusal: number) {
    const answered: string[] = [];
    let refused = 0;
    for (const op of writes) {
      const res = await callOperation(api, token, components, op, { parent: parentOf(acmes), child: childOf(acmes), companyId: acme.id });
      if (res.status === refusal) refused++;
      else if (![400, 404].includes(res.status)) answered.push(`${op.method} ${op.path}: ${res.status} ${JSON.stringify(res.body ?? "").slice(0, 160)}`);
    }
    return { answered, refused };
  }

  it("refuses every write to a Viewer of the company (403), and changes nothing", async () => {
    expect(USERS.viewer.permissions).toEqual([{ companyId: acme.id, productRoleName: expect.stringMatching(/Viewer$/) }]);
    const before = await snapshotOf(api, admin, acmes);
    const writes = operations.filter((o) => o.method !== "GET");
    const { answered, refused } = await sweep(await api.tokenFor(USERS.viewer), writes, 403);
    expect(answered).toEqual([]);
    // Nearly all for the role itself, not for a body or a thing that is not there.
    expect(refused).toBeGreaterThan(writes.length * 0.9);
    expect(await snapshotOf(api, admin, acmes)).toEqual(before);
  }, 120_000);

  it("refuses every write to the project and the configuration to an analyst who may only read them (403), and changes nothing", async () => {
    const analyst = await api.tokenFor(USERS.analyst);
    expect((await api.get(`/api/v1/projects/${acmes.byCollection.projects}`, analyst)).status).toBe(200);
    const before = await snapshotOf(api, admin, acmes);
    const writes = operations.filter((o) => o.method !== "GET" && o.path.includes("{id}") && ["projects", "audit-projects"].includes(collectionOf(o)));
    const { answered, refused } = await sweep(analyst, writes, 403);
    expect(answered).toEqual([]);
    expect(refused).toBeGreaterThan(writes.length * 0.9);
    expect(await snapshotOf(api, admin, acmes)).toEqual(before);
  }, 120_000);
});
