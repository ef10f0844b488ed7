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

  const usersOf = (project: Project, token: string, query = "") => api.get(`/api/v1/projects/${project.id}/users${query}`, token);
  const put = (project: Project, userId: string, token: string, body: unknown) => api.send("PUT", `/api/v1/projects/${project.id}/users/${userId}`, token, body);
  const del = (project: Project, userId: string, token: string) => api.send("DELETE", `/api/v1/projects/${project.id}/users/${userId}`, token);

  it("adds a user of the company, changes their access and removes them, answering the user's entry", async () => {
    const owner = await api.tokenFor(USERS.analyst);
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId });

    const added = await put(project, USERS.clientAdmin.id, owner, { canRead: "on" });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ userId: USERS.clientAdmin.id, canRead: true, canWrite: false, grantedAt: expect.any(String) });
    // The reader sees the list too, but may not change it; the latest grant first.
    const list = await usersOf(project, await api.tokenFor(USERS.clientAdmin));
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      items: [
        { userId: USERS.clientAdmin.id, canRead: true, canWrite: false, grantedAt: expect.any(String) },
        { userId: USERS.analyst.id, canRead: true, canWrite: true, grantedAt: expect.any(String) },
      ],
      total: 2,
      page: 1,
      pageSize: 25,
    });

    // Write implies read, whatever the form sent.
    const promoted = await put(project, USERS.clientAdmin.id, owner, { canRead: false, canWrite: true });
    expect(promoted.body).toMatchObject({ userId: USERS.clientAdmin.id, canRead: true, canWrite: true });

    const removed = await del(project, USERS.clientAdmin.id, owner);
    expect(removed.status).toBe(204);
    expect((await usersOf(project, owner)).body.items.map((u: { userId: string }) => u.userId)).toEqual([USERS.analyst.id]);
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
    expect((await usersOf(project, owner)).body.items).toEqual([expect.objectContaining({ userId: USERS.analyst.id, canWrite: true })]);

    // With a second writer, the first may step down.
    await put(project, USERS.clientAdmin.id, owner, { canWrite: true });
    expect((await del(project, USERS.analyst.id, owner)).status).toBe(204);
    const left = await api.tokenFor(USERS.clientAdmin);
    expect((await del(project, USERS.clientAdmin.id, left)).status).toBe(409);
  });

  it("answers 404 for removing somebody not on the list", async () => {
    const owner = await api.tokenFor(USERS.analyst);
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId });
    expect((await del(project, USERS.clientAdmin.id, owner)).status).toBe(404);
  });

  it("never gives back, by a change of an existing grant, an access removed meanwhile: 404, nothing granted; adding still creates", async () => {
    const owner = await api.tokenFor(USERS.analyst);
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId });
    const added = await put(project, USERS.clientAdmin.id, owner, { canRead: "on", existing: false });
    expect(added.status).toBe(200);
    const changed = await put(project, USERS.clientAdmin.id, owner, { canWrite: "on", existing: "on" });
    expect(changed.body).toMatchObject({ userId: USERS.clientAdmin.id, canRead: true, canWrite: true });

    // Another tab removes the user; the first tab's change comes after.
    expect((await del(project, USERS.clientAdmin.id, owner)).status).toBe(204);
    for (const body of [{ canRead: "on", existing: "on" }, { canWrite: true, existing: true }]) {
      const stale = await put(project, USERS.clientAdmin.id, owner, body);
      expect(stale.status).toBe(404);
      expect(stale.body.errors).toEqual(["This user has no access to the project."]);
    }
    expect((await usersOf(project, owner)).body.items.map((u: { userId: string }) => u.userId)).toEqual([USERS.analyst.id]);
    expect((await api.get(`/api/v1/projects/${project.id}`, await api.tokenFor(USERS.clientAdmin))).status).toBe(404);
  });

  it("never changes, by an add, the access of a user given it meanwhile: 409 naming them and their access, which is kept", async () => {
    const owner = await api.tokenFor(USERS.analyst);
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId });
    const added = await put(project, USERS.clientAdmin.id, owner, { canRead: "on", canWrite: "on", adding: "on" });
    expect(added.body).toMatchObject({ userId: USERS.clientAdmin.id, canRead: true, canWrite: true });

    // A tab still showing Carl among the people to add adds him read only.
    for (const body of [{ canRead: "on", adding: "on" }, { canRead: true, canWrite: true, adding: true }]) {
      const stale = await put(project, USERS.clientAdmin.id, owner, body);
      expect(stale.status).toBe(409);
      expect(stale.body).toMatchObject({
        code: "already_granted",
        errors: [
          "Carl Client was given access to this project meanwhile (read and write), in another tab or by someone else: nothing was changed. Change it in the list of users with access.",
        ],
      });
    }
    expect((await usersOf(project, owner)).body.items).toContainEqual({
      userId: USERS.clientAdmin.id,
      canRead: true,
      canWrite: true,
      grantedAt: added.body.grantedAt,
    });
    // Removed, the user can be added again; a change (existing) or a plain put still changes a grant.
    expect((await del(project, USERS.clientAdmin.id, owner)).status).toBe(204);
    expect((await put(project, USERS.clientAdmin.id, owner, { canRead: true, adding: true })).body).toMatchObject({ canRead: true, canWrite: false });
    expect((await put(project, USERS.clientAdmin.id, owner, { canWrite: true, existing: true })).body).toMatchObject({ canWrite: true });
    expect((await put(project, USERS.clientAdmin.id, owner, { canRead: true })).body).toMatchObject({ canWrite: false });
  });

  it("never overwrites, by a change based on what the page showed (was), an access changed meanwhile: 409, the access now kept", async () => {
    const owner = await api.tokenFor(USERS.analyst);
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId });
    await put(project, USERS.clientAdmin.id, owner, { canRead: true, adding: true });
    // Both tabs show Carl read only; the other tab gives him write.
    expect((await put(project, USERS.clientAdmin.id, owner, { canWrite: "on", existing: "on", was: "read" })).status).toBe(200);
    // This tab's Save, still based on read only, saves read only.
    const stale = await put(project, USERS.clientAdmin.id, owner, { canRead: "on", existing: "on", was: "read" });
    expect(stale.status).toBe(409);
    expect(stale.body.errors).toEqual([
      "Carl Client's access to this project was changed meanwhile, in another tab or by someone else: it is read and write now. Nothing was changed: look at it again, then save.",
    ]);
    expect((await usersOf(project, owner)).body.items).toContainEqual(expect.objectContaining({ userId: USERS.clientAdmin.id, canWrite: true }));
    // The same change sent again (a double submit) is no conflict; a change based on the access now is made.
    expect((await put(project, USERS.clientAdmin.id, owner, { canWrite: "on", existing: "on", was: "read" })).status).toBe(200);
    const demoted = await put(project, USERS.clientAdmin.id, owner, { canRead: "on", existing: "on", was: "write" });
    expect(demoted.body).toMatchObject({ canRead: true, canWrite: false });
    expect((await put(project, USERS.clientAdmin.id, owner, { canRead: "on", existing: "on", was: "nope" })).status).toBe(400);
  });

  it("lets SuperAdmin manage the list of a project they are not on", async () => {
    const project = await makeProject(api, await api.tokenFor(USERS.analyst), { companyId: birch.id, applicationId });
    const res = await put(project, USERS.clientAdmin.id, await api.tokenFor(USERS.superAdmin), { canWrite: true });
    expect(res.status).toBe(200);
    expect((await usersOf(project, await api.tokenFor(USERS.superAdmin))).body.total).toBe(2);
  });

  it("keeps when a user was given access when their access changes, and their place in the list", async () => {
    const owner = await api.tokenFor(USERS.analyst);
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId });
    // Given read access long ago (the owner's own grant is of now).
    const since = "2024-03-01T09:30:00.000Z";
    await api.db
      .insertInto("project_users")
      .values({ project_id: project.id, user_id: USERS.clientAdmin.id, can_read: 1, can_write: 0, granted_at: since, granted_by: USERS.analyst.id })
      .execute();

    const promoted = await put(project, USERS.clientAdmin.id, owner, { canWrite: true });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toEqual({ userId: USERS.clientAdmin.id, canRead: true, canWrite: true, grantedAt: since });
    const demoted = await put(project, USERS.clientAdmin.id, owner, { canRead: true });
    expect(demoted.body).toEqual({ userId: USERS.clientAdmin.id, canRead: true, canWrite: false, grantedAt: since });
    expect((await usersOf(project, owner)).body.items).toEqual([
      expect.objectContaining({ userId: USERS.analyst.id }),
      { userId: USERS.clientAdmin.id, canRead: true, canWrite: false, grantedAt: since },
    ]);
  });

  it("answers the list a page at a time, paged in SQL, the latest grant first", async () => {
    const owner = await api.tokenFor(USERS.analyst);
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId });
    // More grants than a page: written straight to the table (the client portal knows only the demo users).
    const at = (i: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, i)).toISOString();
    await api.db
      .insertInto("project_users")
      .values(Array.from({ length: 12 }, (_, i) => ({ project_id: project.id, user_id: `user-${i}`, can_read: 1, can_write: 0, granted_at: at(i), granted_by: USERS.analyst.id })))
      .execute();
    const first = await usersOf(project, owner, "?page=1&pageSize=10");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 13, page: 1, pageSize: 10 });
    expect(first.body.items.map((u: { userId: string }) => u.userId)).toEqual(Array.from({ length: 10 }, (_, i) => `user-${11 - i}`));
    const second = await usersOf(project, owner, "?page=2&pageSize=10");
    expect(second.body.items.map((u: { userId: string }) => u.userId)).toEqual(["user-1", "user-0", USERS.analyst.id]);
    expect((await usersOf(project, owner, "?page=3&pageSize=10")).body).toMatchObject({ items: [], total: 13 });
    // Only the entries of the users asked for (which of a page of people have access).
    const some = await usersOf(project, owner, "?userId=user-3&userId=user-7&userId=nobody");
    expect(some.body).toMatchObject({ total: 2, items: [{ userId: "user-7" }, { userId: "user-3" }] });
    // A page size the contract does not offer is refused, naming it.
    const bad = await usersOf(project, owner, "?pageSize=7");
    expect(bad.status).toBe(400);
    // Another company's user reads nothing of it: not found.
    expect((await usersOf(project, await api.tokenFor(USERS.viewer), "?page=2&pageSize=10")).status).toBe(404);
  });
});
