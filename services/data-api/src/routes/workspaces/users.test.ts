import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Project } from "../../../../../contracts/projects.ts";
import { DEMO_COMPANIES } from "../../../../../scripts/demo-data.ts";
import { TEST_DATABASE_KINDS } from "../../../../shared/testing/databases.ts";
import { LAST_WRITER_MESSAGE } from "../../repositories/project-users.ts";
import { USERS, createTestApi, type TestApi } from "../../testing/harness.ts";
import { makeApplication, makeProject } from "../../testing/project-fixtures.ts";

const [, , birch] = DEMO_COMPANIES;

describe.each(TEST_DATABASE_KINDS)("project access list on %s", (kind) => {
  let api: TestApi;
  let applicationId: string;
  beforeAll(async () => {
    api = await createTestApi(kind);
    applicationId = (await makeApplication(api, birch.id)).id;
  });
  afterAll(() => api?.close());

  const usersOf = (project: Project, token: string) => api.get(`/api/v1/projects/${project.id}/users`, token);
  const put = (project: Project, userId: string, token: string, body: unknown) => api.send("PUT", `/api/v1/projects/${project.id}/users/${userId}`, token, body);
  const del = (project: Project, userId: string, token: string) => api.send("DELETE", `/api/v1/projects/${project.id}/users/${userId}`, token);

  it("adds a user of the company, changes their access and removes them, answering the whole list", async () => {
    const owner = await api.tokenFor(USERS.analyst);
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId });

    const added = await put(project, USERS.clientAdmin.id, owner, { canRead: "on" });
    expect(added.status).toBe(200);
    expect(added.body).toEqual([
      { userId: USERS.analyst.id, canRead: true, canWrite: true, grantedAt: expect.any(String) },
      { userId: USERS.clientAdmin.id, canRead: true, canWrite: false, grantedAt: expect.any(String) },
    ]);
    // The reader sees the list too, but may not change it.
    expect((await usersOf(project, await api.tokenFor(USERS.clientAdmin))).status).toBe(200);

    // Write implies read, whatever the form sent.
    const promoted = await put(project, USERS.clientAdmin.id, owner, { canRead: false, canWrite: true });
    expect(promoted.body[1]).toMatchObject({ userId: USERS.clientAdmin.id, canRead: true, canWrite: true });

    const removed = await del(project, USERS.clientAdmin.id, owner);
    expect(removed.status).toBe(200);
    expect(removed.body.map((u: { userId: string }) => u.userId)).toEqual([USERS.analyst.id]);
    expect((await api.get(`/api/v1/projects/${project.id}`, await api.tokenFor(USERS.clientAdmin))).status).toBe(404);
  });

  it("refuses a user without a permission in the project's company with 400", async () => {
    const owner = await api.tokenFor(USERS.analyst);
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId });
    for (const userId of [USERS.viewer.id, "no-such-user"]) {
      const res = await put(project, userId, owner, { canRead: true });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual(["This user has no access to the company"]);
      expect(res.body.fieldErrors).toEqual({ userId: ["This user has no access to the company"] });
    }
  });

  it("never lets the last user with write access lose it", async () => {
    const owner = await api.tokenFor(USERS.analyst);
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId });

    const demote = await put(project, USERS.analyst.id, owner, { canRead: true, canWrite: false });
    expect(demote.status).toBe(409);
    expect(demote.body.errors).toEqual([LAST_WRITER_MESSAGE]);
    const remove = await del(project, USERS.analyst.id, owner);
    expect(remove.status).toBe(409);
    expect((await usersOf(project, owner)).body).toEqual([expect.objectContaining({ userId: USERS.analyst.id, canWrite: true })]);

    // With a second writer, the first may step down.
    await put(project, USERS.clientAdmin.id, owner, { canWrite: true });
    expect((await del(project, USERS.analyst.id, owner)).status).toBe(200);
    const left = await api.tokenFor(USERS.clientAdmin);
    expect((await del(project, USERS.clientAdmin.id, left)).status).toBe(409);
  });

  it("answers 404 for removing somebody not on the list", async () => {
    const owner = await api.tokenFor(USERS.analyst);
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId });
    expect((await del(project, USERS.clientAdmin.id, owner)).status).toBe(404);
  });

  it("lets SuperAdmin manage the list of a project they are not on", async () => {
    const project = await makeProject(api, await api.tokenFor(USERS.analyst), { companyId: birch.id, applicationId });
    const res = await put(project, USERS.clientAdmin.id, await api.tokenFor(USERS.superAdmin), { canWrite: true });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
  });
});
