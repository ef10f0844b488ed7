import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Project } from "../../../../contracts/projects.ts";
import { DEMO_COMPANIES } from "../../../../scripts/demo-data.ts";
import { TEST_POSTGRES_ADMIN_URL, TEST_PROJECT_DATABASES_ADMIN_URL } from "../../../shared/testing/databases.ts";
import { TEST_DATABASE_SERVER, TEST_DATA_PLANE_SECRET, createOwnerTestApi, type TestApi } from "../testing/harness.ts";
import { addProjectTable, column, createProjectDatabases, makeProject } from "../testing/project-fixtures.ts";
import { ConnectionsBusyError } from "./server-connections.ts";
import { createDataPlane, type DataPlane } from "./servers.ts";
import { SERVER_NOT_ANSWERING_MESSAGE } from "./server-lost.ts";

const [, , birch] = DEMO_COMPANIES;

/**
 * While the project databases' server is down (the embedded one killed, started again within
 * seconds), a page that reads a project's data is told to try again in a moment: a 503 with words,
 * never a 500 "Something went wrong".
 */
describe.skipIf(!TEST_POSTGRES_ADMIN_URL)("a request while the project databases' server is not answering", () => {
  let api: TestApi;
  let owner: string;
  let project: Project;

  beforeAll(async () => {
    let applicationId: string;
    ({ api, applicationId, owner } = await createOwnerTestApi("sqlite", birch.id));
    const made = await makeProject(api, owner, { companyId: birch.id, applicationId, sourceType: "BackUp" });
    await addProjectTable(api, made.id, { name: "Customers", columns: [column("CustomerId", "int", { isKey: true, nullable: false })] });
    project = await createProjectDatabases(api, owner, made.id);
  });
  afterAll(() => api?.close());

  const rows = (via: { request: TestApi["app"]["request"] }) =>
    via.request(`/api/v1/projects/${project.id}/databases/source/tables/Customers/rows`, { headers: { authorization: `Bearer ${owner}` } });

  it("answers 503 and says to try again, where the server answering gives the rows", async () => {
    expect((await rows(api.app)).status).toBe(200);

    // As pg fails a connection to a server that is not listening (yet).
    const refused = async () => {
      throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5433"), { code: "ECONNREFUSED" });
    };
    const down: DataPlane = { ...api.dataPlane, withLogin: refused, withAdmin: refused };
    const res = await rows(api.appWith({ dataPlane: down }));
    expect(res.status).toBe(503);
    const body = (await res.json()) as { errors: string[] };
    expect(body.errors).toEqual([SERVER_NOT_ANSWERING_MESSAGE]);
  });

  it("answers 503 and says every connection is in use when the server's budget stays spent, rather than hanging", async () => {
    // A budget of one connection, held by other work for longer than a request waits.
    const busy = createDataPlane([{ id: TEST_DATABASE_SERVER, adminUrl: TEST_PROJECT_DATABASES_ADMIN_URL! }], {
      secret: TEST_DATA_PLANE_SECRET,
      connectionsPerServer: 1,
      connectionWaitMs: 200,
    });
    let release!: () => void;
    const held = busy.withAdmin(TEST_DATABASE_SERVER, null, () => new Promise<void>((resolve) => (release = resolve)));
    try {
      await expect.poll(() => release).toBeDefined();
      const res = await rows(api.appWith({ dataPlane: busy }));
      expect(res.status).toBe(503);
      expect(((await res.json()) as { errors: string[] }).errors).toEqual([new ConnectionsBusyError().message]);
      // Once the other work is done, the same request gets its rows.
      release();
      await held;
      expect((await rows(api.appWith({ dataPlane: busy }))).status).toBe(200);
    } finally {
      release?.();
      await held;
      await busy.closePools();
    }
  });

  it("still answers 500 for a failure that is not the server going away", async () => {
    const broken = async () => {
      throw new Error("an unexpected failure");
    };
    const res = await rows(api.appWith({ dataPlane: { ...api.dataPlane, withLogin: broken, withAdmin: broken } }));
    expect(res.status).toBe(500);
  });
});
