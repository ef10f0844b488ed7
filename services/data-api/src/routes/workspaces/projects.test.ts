import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INVISIBLE_CHARACTERS_MESSAGE } from "../../../../../contracts/common.ts";
import type { Project } from "../../../../../contracts/projects.ts";
import { DEMO_COMPANIES } from "../../../../../scripts/demo-data.ts";
import { TEST_DATABASE_KINDS } from "../../../../shared/testing/databases.ts";
import { forceUnlock, releaseProjectLock, takeProjectLock } from "../../jobs/project-lock.ts";
import { findProjectDictionaryRef } from "../../repositories/dictionaries.ts";
import { updateProject } from "../../repositories/projects.ts";
import { USERS, createTestApi, type TestApi } from "../../testing/harness.ts";
import { deleteTable } from "../../repositories/dictionary-tables.ts";
import { addProjectTable, column, makeApplication, makeProject } from "../../testing/project-fixtures.ts";

const [cedar, acme, birch] = DEMO_COMPANIES;

describe.each(TEST_DATABASE_KINDS)("projects on %s", (kind) => {
  let api: TestApi;
  let birchApp: { id: string };
  let acmeApp: { id: string };
  const token = (user: (typeof USERS)[keyof typeof USERS]) => api.tokenFor(user);

  beforeAll(async () => {
    api = await createTestApi(kind);
    birchApp = await makeApplication(api, birch.id, "Birch ERP");
    acmeApp = await makeApplication(api, acme.id, "Acme Billing");
  });
  afterAll(() => api?.close());

  /** Puts the project in a status directly, as later wizard steps would. */
  async function setStatus(id: string, status: string) {
    await api.db.updateTable("projects").set({ status }).where("id", "=", id).execute();
  }

  describe("POST /api/v1/projects", () => {
    it("creates the project at the wizard's first status, with its own empty dictionary and the creator on its access list", async () => {
      const res = await api.send("POST", "/api/v1/projects", await token(USERS.analyst), {
        companyId: birch.id,
        name: "  Ledger move  ",
        applicationId: birchApp.id,
        sourceType: "FlatFile",
        description: "From the old ledger",
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        companyId: birch.id,
        name: "Ledger move",
        description: "From the old ledger",
        applicationId: birchApp.id,
        applicationName: "Birch ERP",
        sourceType: "FlatFile",
        status: "SetupDataDictionaryIncomplete",
        isLocked: false,
        lockReason: null,
        currentBackupName: null,
        uploadType: null,
        flatFileParameters: null,
        sourceDictionaryId: null,
        version: 1,
      });
      const dictionary = await findProjectDictionaryRef(api.db, res.body.id);
      expect(dictionary).toMatchObject({ companyId: birch.id, applicationId: birchApp.id, projectId: res.body.id });

      const users = await api.get(`/api/v1/projects/${res.body.id}/users`, await token(USERS.analyst));
      expect(users.body.items).toEqual([{ userId: USERS.analyst.id, canRead: true, canWrite: true, grantedAt: expect.any(String) }]);
    });

    it("makes a project once per create form (its id): sent again, or twice at once, it answers the project made; refused for another user, company, values or a project that moved on", async () => {
      const t = await token(USERS.analyst);
      const rows = (name: string) => api.db.selectFrom("projects").select("id").where("name", "=", name).execute();
      const form = { id: crypto.randomUUID(), companyId: birch.id, applicationId: birchApp.id, name: "Sent twice", sourceType: "BackUp", description: "Once" };
      const first = await api.send("POST", "/api/v1/projects", t, form);
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ id: form.id, name: "Sent twice", version: 1 });
      const again = await api.send("POST", "/api/v1/projects", t, form);
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(await rows("Sent twice")).toEqual([{ id: form.id }]);

      const atOnce = { ...form, id: crypto.randomUUID(), name: "Sent at once" };
      const both = await Promise.all([api.send("POST", "/api/v1/projects", t, atOnce), api.send("POST", "/api/v1/projects", t, atOnce)]);
      expect(both.map((r) => [r.status, r.body.id])).toEqual([
        [201, atOnce.id],
        [201, atOnce.id],
      ]);
      expect(await rows("Sent at once")).toEqual([{ id: atOnce.id }]);

      // Anyone else's sending of that id (another user of the company, another company) is refused naming nothing.
      const unnamed = "This form was sent already: nothing more was made. Reload the page to create another.";
      const superAdmin = await api.send("POST", "/api/v1/projects", await token(USERS.superAdmin), form);
      const acmes = await api.send("POST", "/api/v1/projects", t, { ...form, companyId: acme.id, applicationId: acmeApp.id });
      for (const refused of [superAdmin, acmes]) {
        expect(refused.status).toBe(409);
        expect(refused.body).toMatchObject({ code: "already_made", errors: [unnamed] });
        expect(JSON.stringify(refused.body)).not.toMatch(/Sent twice|\d\d:\d\d UTC/);
      }
      // The maker's form sent with other values (Back, a name changed) is refused naming what it made.
      const renamed = await api.send("POST", "/api/v1/projects", t, { ...form, name: "Sent twice, renamed" });
      expect(renamed.status).toBe(409);
      expect(renamed.body.errors[0]).toMatch(
        /^This form was sent already: the project Sent twice was made by it at \d\d:\d\d UTC\. Nothing more was made; reload the page to create another\.$/,
      );
      expect(await rows("Sent twice, renamed")).toEqual([]);
      expect((await api.send("POST", "/api/v1/projects", t, { ...form, sourceType: "FlatFile" })).status).toBe(409);
      // Once it moved on (a step taken, a change saved), the same form is refused too.
      expect((await api.send("PATCH", `/api/v1/projects/${form.id}`, t, { version: 1, description: "Changed" })).status).toBe(200);
      expect((await api.send("POST", "/api/v1/projects", t, { ...form, description: "Changed" })).status).toBe(409);
      expect(await rows("Sent twice")).toEqual([{ id: form.id }]);
      // An id that is no UUID is refused at its field, nothing made.
      const bad = await api.send("POST", "/api/v1/projects", t, { ...form, id: "not-a-uuid", name: "Bad id" });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.fieldErrors)).toEqual(["id"]);
      expect(await rows("Bad id")).toEqual([]);
    });

    it("refuses a name the company already uses, in any case, with 409 on the name field", async () => {
      const t = await token(USERS.analyst);
      await makeProject(api, t, { companyId: birch.id, applicationId: birchApp.id, name: "Payroll" });
      const res = await api.send("POST", "/api/v1/projects", t, { companyId: birch.id, applicationId: birchApp.id, name: "PAYROLL", sourceType: "BackUp" });
      expect(res.status).toBe(409);
      expect(res.body.fieldErrors).toEqual({ name: ["A project with this name already exists in this company"] });
      // Another company may use the same name.
      await makeProject(api, t, { companyId: acme.id, applicationId: acmeApp.id, name: "Payroll" });
    });

    it("refuses an application of another company, as one that does not exist", async () => {
      const res = await api.send("POST", "/api/v1/projects", await token(USERS.analyst), {
        companyId: birch.id,
        applicationId: acmeApp.id,
        name: "Cross",
        sourceType: "BackUp",
      });
      expect(res.status).toBe(400);
      expect(res.body.fieldErrors).toEqual({ applicationId: ["Choose an application of this company."] });
    });

    it("answers 400 naming the fields for an empty name or an unknown source type", async () => {
      const res = await api.send("POST", "/api/v1/projects", await token(USERS.analyst), {
        companyId: birch.id,
        applicationId: birchApp.id,
        name: " ",
        sourceType: "Tape",
      });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.fieldErrors).sort()).toEqual(["name", "sourceType"]);
    });

    it("answers 404 for a company the caller cannot see and 403 for a Viewer of the company", async () => {
      const body = { companyId: birch.id, applicationId: birchApp.id, name: "Nope", sourceType: "BackUp" };
      expect((await api.send("POST", "/api/v1/projects", await token(USERS.viewer), body)).status).toBe(404);
      expect((await api.send("POST", "/api/v1/projects", await token(USERS.viewer), { ...body, companyId: acme.id, applicationId: acmeApp.id })).status).toBe(
        403,
      );
      expect((await api.send("POST", "/api/v1/projects", undefined, body)).status).toBe(401);
    });
  });

  describe("GET /api/v1/projects/{id} and /access", () => {
    let project: Project;
    beforeAll(async () => {
      project = await makeProject(api, await token(USERS.analyst), { companyId: birch.id, applicationId: birchApp.id });
    });

    it("answers the project and the caller's access to its creator and to SuperAdmin and Support", async () => {
      for (const user of [USERS.analyst, USERS.superAdmin, USERS.support]) {
        const t = await token(user);
        const res = await api.get(`/api/v1/projects/${project.id}`, t);
        expect(res.status, user.email).toBe(200);
        expect(res.body).toEqual(project);
        expect((await api.get(`/api/v1/projects/${project.id}/access`, t)).body).toEqual({ canRead: true, canWrite: true });
      }
    });

    it("answers an Acme Health user asking for a Birch Logistics project exactly as for a project that does not exist", async () => {
      for (const user of [USERS.viewer, USERS.translator, USERS.unassigned]) {
        const t = await token(user);
        const theirs = await api.get(`/api/v1/projects/${project.id}`, t);
        const none = await api.get(`/api/v1/projects/00000000-0000-4000-8000-000000000000`, t);
        expect(theirs.status, user.email).toBe(404);
        const { requestId: _a, ...a } = theirs.body;
        const { requestId: _b, ...b } = none.body;
        expect(a).toEqual(b);
        expect((await api.get(`/api/v1/projects/${project.id}/access`, t)).status).toBe(404);
      }
    });

    it("hides the project from a user of the company who is not on its access list", async () => {
      const res = await api.get(`/api/v1/projects/${project.id}`, await token(USERS.clientAdmin));
      expect(res.status).toBe(404);
    });

    it("refuses a Viewer of the project's company with 403", async () => {
      const acmeProject = await makeProject(api, await token(USERS.analyst), { companyId: acme.id, applicationId: acmeApp.id });
      const res = await api.get(`/api/v1/projects/${acmeProject.id}`, await token(USERS.viewer));
      expect(res.status).toBe(403);
    });

    it("gives a read-only user read and no write: GET works, writes answer 403", async () => {
      const owner = await token(USERS.analyst);
      const granted = await api.send("PUT", `/api/v1/projects/${project.id}/users/${USERS.clientAdmin.id}`, owner, { canRead: true });
      expect(granted.status).toBe(200);
      const reader = await token(USERS.clientAdmin);
      expect((await api.get(`/api/v1/projects/${project.id}`, reader)).status).toBe(200);
      expect((await api.get(`/api/v1/projects/${project.id}/access`, reader)).body).toEqual({ canRead: true, canWrite: false });
      const current = (await api.get(`/api/v1/projects/${project.id}`, reader)).body as Project;
      expect((await api.send("PATCH", `/api/v1/projects/${project.id}`, reader, { version: current.version, name: "Mine now" })).status).toBe(403);
      expect(
        (await api.send("POST", `/api/v1/projects/${project.id}/upload-type`, reader, { uploadType: "SingleFile", version: current.version })).status,
      ).toBe(403);
      expect((await api.send("POST", `/api/v1/projects/${project.id}/try-create-databases`, reader)).status).toBe(403);
      expect((await api.send("PUT", `/api/v1/projects/${project.id}/users/${USERS.clientAdmin.id}`, reader, { canWrite: true })).status).toBe(403);
    });
  });

  describe("PATCH /api/v1/projects/{id}", () => {
    it("changes name and description based on the current version, and moves the version on", async () => {
      const t = await token(USERS.analyst);
      const project = await makeProject(api, t, { companyId: birch.id, applicationId: birchApp.id });
      const res = await api.send("PATCH", `/api/v1/projects/${project.id}`, t, { version: project.version, name: "Renamed", description: "New words" });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: "Renamed", description: "New words", version: project.version + 1 });
    });

    it("refuses a stale version with 409 and changes nothing", async () => {
      const t = await token(USERS.analyst);
      const project = await makeProject(api, t, { companyId: birch.id, applicationId: birchApp.id });
      await api.send("PATCH", `/api/v1/projects/${project.id}`, t, { version: project.version, description: "first" });
      const stale = await api.send("PATCH", `/api/v1/projects/${project.id}`, t, { version: project.version, name: "Second", description: "second" });
      expect(stale.status).toBe(409);
      // The analyst's own save made the version there now: their other tab, with when.
      expect(stale.body.errors).toEqual([expect.stringMatching(/^You changed this project in another tab or window at \d\d:\d\d UTC\. Nothing was saved.$/)]);
      const now = (await api.get(`/api/v1/projects/${project.id}`, t)).body;
      expect(now).toMatchObject({ name: project.name, description: "first", version: project.version + 1 });
    });

    it("says 'You changed this project' only after the user's own change, never after someone else's or a job's", async () => {
      const analyst = await token(USERS.analyst);
      const admin = await token(USERS.superAdmin);
      const project = await makeProject(api, analyst, { companyId: birch.id, applicationId: birchApp.id });
      const patch = (t: string, version: number, description: string) => api.send("PATCH", `/api/v1/projects/${project.id}`, t, { version, description });
      const yours = /^You changed this project in another tab or window at \d\d:\d\d UTC\. Nothing was saved.$/;
      const someoneElse = "This project was changed by someone else. Nothing was saved.";
      // The SQL check of the update itself (two saves racing past the route's check) says the same.
      const race = (userId: string, expectedVersion: number) =>
        updateProject(api.db, { id: project.id, company_id: birch.id }, { expectedVersion, userId }, { description: "raced" });

      // Someone else's save.
      expect((await patch(admin, 1, "the admin's")).status).toBe(200);
      expect((await patch(analyst, 1, "mine")).body.errors).toEqual([someoneElse]);
      await expect(race(USERS.analyst.id, 1)).rejects.toThrow(someoneElse);
      await expect(race(USERS.superAdmin.id, 1)).rejects.toThrow(yours);

      // A job locks the project and releases it after the analyst's save: the version there is the job's.
      expect((await patch(analyst, 2, "mine again")).status).toBe(200);
      const at = new Date().toISOString();
      expect(
        await takeProjectLock(api.db, { projectId: project.id, jobId: "job-of-the-analyst", reason: "Backup", expectedStatus: project.status, now: at }),
      ).toBe(true);
      await expect(race(USERS.analyst.id, 3)).rejects.toThrow(someoneElse);
      expect(await releaseProjectLock(api.db, project.id, "job-of-the-analyst", project.status, at)).toBe(true);
      expect((await patch(analyst, 3, "after the job")).body.errors).toEqual([someoneElse]);

      // A force-unlock is the administrator's own change.
      await takeProjectLock(api.db, { projectId: project.id, jobId: "another-job", reason: "Backup", expectedStatus: project.status, now: at });
      const unlock = { projectId: project.id, userId: USERS.superAdmin.id, userName: "Sam", reason: "Stuck", now: at };
      expect(await forceUnlock(api.db, { ...unlock, statusAfter: () => project.status })).toBeTruthy();
      expect((await patch(admin, 5, "the admin's again")).body.errors).toEqual([expect.stringMatching(yours)]);
      expect((await patch(analyst, 5, "mine")).body.errors).toEqual([someoneElse]);
      expect((await api.get(`/api/v1/projects/${project.id}`, analyst)).body).toMatchObject({ description: "mine again", version: 7 });
    });

    it("refuses a name another project of the company has", async () => {
      const t = await token(USERS.analyst);
      const a = await makeProject(api, t, { companyId: birch.id, applicationId: birchApp.id });
      const b = await makeProject(api, t, { companyId: birch.id, applicationId: birchApp.id });
      const res = await api.send("PATCH", `/api/v1/projects/${b.id}`, t, { version: b.version, name: a.name.toUpperCase() });
      expect(res.status).toBe(409);
      expect(res.body.fieldErrors).toHaveProperty("name");
      // Its own name in another case is fine.
      expect((await api.send("PATCH", `/api/v1/projects/${b.id}`, t, { version: b.version, name: b.name.toLowerCase() })).status).toBe(200);
    });

    it("refuses a name holding a line break, a tab or a zero-width space with 400 at the name field, changing nothing; one stored so still shows and can be renamed", async () => {
      const t = await token(USERS.analyst);
      const project = await makeProject(api, t, { companyId: birch.id, applicationId: birchApp.id, name: "Look alike" });
      for (const name of ["Look\nalike", "Look\talike", "Look\u200balike"]) {
        const renamed = await api.send("PATCH", `/api/v1/projects/${project.id}`, t, { version: project.version, name });
        expect(renamed.status).toBe(400);
        expect(renamed.body.fieldErrors).toEqual({ name: [INVISIBLE_CHARACTERS_MESSAGE] });
        const created = await api.send("POST", "/api/v1/projects", t, { companyId: birch.id, applicationId: birchApp.id, name, sourceType: "BackUp" });
        expect(created.status).toBe(400);
        expect(created.body.fieldErrors).toEqual({ name: [INVISIBLE_CHARACTERS_MESSAGE] });
      }
      expect((await api.get(`/api/v1/projects/${project.id}`, t)).body).toMatchObject({ name: "Look alike", version: project.version });
      const names = (await api.get(`/api/v1/projects/search?companyId=${birch.id}&name=alike`, t)).body.items.map((p: Project) => p.name);
      expect(names).toEqual(["Look alike"]);

      // A name saved before the rule: the project still reads, its description still saves, and it can be renamed.
      await api.db.updateTable("projects").set({ name: "Saved\tbefore" }).where("id", "=", project.id).execute();
      expect((await api.get(`/api/v1/projects/${project.id}`, t)).body.name).toBe("Saved\tbefore");
      const described = await api.send("PATCH", `/api/v1/projects/${project.id}`, t, { version: project.version, description: "Still saves" });
      expect(described.body).toMatchObject({ name: "Saved\tbefore", description: "Still saves" });
      const renamed = await api.send("PATCH", `/api/v1/projects/${project.id}`, t, { version: described.body.version, name: "Saved before" });
      expect(renamed.status).toBe(200);
      expect(renamed.body.name).toBe("Saved before");
    });

    it("moves the status only Active ⇄ Inactive and Active → Completed", async () => {
      const t = await token(USERS.analyst);
      const project = await makeProject(api, t, { companyId: birch.id, applicationId: birchApp.id });
      const patch = async (status: string) => {
        const version = (await api.get(`/api/v1/projects/${project.id}`, t)).body.version;
        return api.send("PATCH", `/api/v1/projects/${project.id}`, t, { version, status });
      };
      const setup = await patch("Active");
      expect(setup.status).toBe(400);
      expect(setup.body.fieldErrors.status).toEqual(["The status of a project in SetupDataDictionaryIncomplete cannot be changed by hand."]);

      await setStatus(project.id, "Active");
      expect((await patch("Inactive")).body.status).toBe("Inactive");
      expect((await patch("Completed")).status).toBe(400);
      expect((await patch("Active")).body.status).toBe("Active");
      expect((await patch("Completed")).body.status).toBe("Completed");
      expect((await patch("Active")).status).toBe(400);
    });

    it("refuses every write to a locked project with 409, naming the lock", async () => {
      const t = await token(USERS.analyst);
      const project = await makeProject(api, t, { companyId: birch.id, applicationId: birchApp.id });
      await api.db.updateTable("projects").set({ is_locked: 1, lock_reason: "DatabaseCreation", lock_state: "Locked" }).where("id", "=", project.id).execute();
      const writes = [
        api.send("PATCH", `/api/v1/projects/${project.id}`, t, { version: project.version, name: "x" }),
        api.send("POST", `/api/v1/projects/${project.id}/upload-type`, t, { uploadType: "SingleFile", version: project.version }),
        api.send("PUT", `/api/v1/projects/${project.id}/users/${USERS.clientAdmin.id}`, t, { canRead: true }),
        api.send("POST", `/api/v1/projects/${project.id}/try-create-databases`, t),
      ];
      for (const res of await Promise.all(writes)) {
        expect(res.status).toBe(409);
        expect(res.body.errors[0]).toMatch(/^The project is locked \(Database creation\)/);
      }
      // Reads still work.
      expect((await api.get(`/api/v1/projects/${project.id}`, t)).body).toMatchObject({ isLocked: true, lockReason: "DatabaseCreation" });
    });
  });

  describe("upload type and flat-file parameters", () => {
    it("answers null until an upload type is chosen, then the choice", async () => {
      const t = await token(USERS.analyst);
      const project = await makeProject(api, t, { companyId: birch.id, applicationId: birchApp.id });
      expect((await api.get(`/api/v1/projects/${project.id}/upload-type`, t)).body).toEqual({ uploadType: null });
      const set = await api.send("POST", `/api/v1/projects/${project.id}/upload-type`, t, { uploadType: "MultipleFiles", version: project.version });
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({ uploadType: "MultipleFiles", version: project.version + 1 });
      expect((await api.get(`/api/v1/projects/${project.id}/upload-type`, t)).body).toEqual({ uploadType: "MultipleFiles" });
      expect((await api.send("POST", `/api/v1/projects/${project.id}/upload-type`, t, { uploadType: "Floppy", version: set.body.version })).status).toBe(400);
      const unversioned = await api.send("POST", `/api/v1/projects/${project.id}/upload-type`, t, { uploadType: "SingleFile" });
      expect(unversioned.status).toBe(400);
      expect(unversioned.body.fieldErrors).toHaveProperty("version");
    });

    it("refuses an upload type based on a stale version with 409, whose words say whose change it was, and changes nothing", async () => {
      const analyst = await token(USERS.analyst);
      const admin = await token(USERS.superAdmin);
      const project = await makeProject(api, analyst, { companyId: birch.id, applicationId: birchApp.id });
      const choose = (t: string, uploadType: string) =>
        api.send("POST", `/api/v1/projects/${project.id}/upload-type`, t, { uploadType, version: project.version });
      // Two tabs opened at one version: the first chooses Multiple files, the second (stale) Single file.
      expect((await choose(analyst, "MultipleFiles")).status).toBe(200);
      const stale = await choose(analyst, "SingleFile");
      expect(stale.status).toBe(409);
      expect(stale.body.errors).toEqual([expect.stringMatching(/^You changed this project in another tab or window at \d\d:\d\d UTC\. Nothing was saved.$/)]);
      const stranger = await choose(admin, "SingleFile");
      expect(stranger.status).toBe(409);
      expect(stranger.body.errors).toEqual(["This project was changed by someone else. Nothing was saved."]);
      expect((await api.get(`/api/v1/projects/${project.id}`, analyst)).body).toMatchObject({ version: project.version + 1, uploadType: "MultipleFiles" });
    });

    it("stores flat-file parameters for a FlatFile project, with their defaults", async () => {
      const t = await token(USERS.analyst);
      const project = await makeProject(api, t, { companyId: birch.id, applicationId: birchApp.id, sourceType: "FlatFile" });
      const save = (version: number, body: object) => api.send("POST", `/api/v1/projects/${project.id}/updateFlatFileParameters`, t, { version, ...body });
      const res = await save(project.version, { extension: ".csv", delimiter: "Semicolon" });
      expect(res.status).toBe(200);
      // A form's unticked "Header row" sends nothing: missing means no header row.
      expect(res.body.flatFileParameters).toEqual({
        extension: ".csv",
        delimiter: "Semicolon",
        hasHeaderRow: false,
        textQualifier: "DoubleQuote",
        encoding: "AutoDetect",
        dateOrder: "YMD",
        worksheet: "",
        columnWidths: {},
      });
      expect(res.body.version).toBe(project.version + 1);
      const withHeader = await save(res.body.version, { extension: ".csv", delimiter: "Semicolon", hasHeaderRow: true });
      expect(withHeader.body.flatFileParameters.hasHeaderRow).toBe(true);
      const bad = await save(withHeader.body.version, { extension: ".xlsx", delimiter: "Comma" });
      expect(bad.status).toBe(400);
      expect(bad.body.fieldErrors).toHaveProperty("delimiter");
      const unversioned = await api.send("POST", `/api/v1/projects/${project.id}/updateFlatFileParameters`, t, { extension: ".csv", delimiter: "Pipe" });
      expect(unversioned.status).toBe(400);
      expect(unversioned.body.fieldErrors).toHaveProperty("version");
    });

    it("saves flat-file parameters again once a table whose widths were saved left the dictionary: its widths sent back as saved are dropped, sent otherwise refused at their field", async () => {
      const t = await token(USERS.analyst);
      const project = await makeProject(api, t, { companyId: birch.id, applicationId: birchApp.id, sourceType: "FlatFile" });
      const orders = await addProjectTable(api, project.id, {
        name: "Orders",
        columns: [column("OrderId", "int"), column("Note", "nvarchar", { length: 20 })],
      });
      await addProjectTable(api, project.id, { name: "Customers", columns: [column("CustomerId", "int")] });
      const save = async (body: object) =>
        api.send("POST", `/api/v1/projects/${project.id}/updateFlatFileParameters`, t, {
          version: (await api.get(`/api/v1/projects/${project.id}`, t)).body.version,
          extension: ".txt",
          delimiter: "FixedLength",
          ...body,
        });
      expect((await save({ columnWidths: { Orders: "5, 20", Customers: "8" } })).status).toBe(200);
      // Orders deleted from the dictionary (or renamed) since.
      const ref = (await findProjectDictionaryRef(api.db, project.id))!;
      await deleteTable(api.db, ref.id, orders.tableId, { expectedVersion: ref.version, userId: "test" });
      // The load page's form, which shows Customers alone now, sends Orders' widths back as they were saved.
      const again = await save({ dateOrder: "DMY", columnWidths: { Orders: [5, 20], Customers: "9" } });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body.flatFileParameters).toMatchObject({ dateOrder: "DMY", columnWidths: { Customers: [9] } });
      expect(again.body.flatFileParameters.columnWidths).not.toHaveProperty("Orders");
      // Widths for a table the dictionary lacks that were not saved so: what a user typed, refused at its field, nothing saved.
      const typed = await save({ dateOrder: "MDY", columnWidths: { Orders: "6, 20" } });
      expect(typed).toMatchObject({ status: 400, body: { fieldErrors: { "columnWidths.Orders": ["The project's dictionary has no table 'Orders'"] } } });
      expect((await api.get(`/api/v1/projects/${project.id}`, t)).body.flatFileParameters).toMatchObject({ dateOrder: "DMY" });
    });

    it("refuses flat-file parameters based on a stale version with 409, whose words say whose change it was, and changes nothing", async () => {
      const analyst = await token(USERS.analyst);
      const admin = await token(USERS.superAdmin);
      const project = await makeProject(api, analyst, { companyId: birch.id, applicationId: birchApp.id, sourceType: "FlatFile" });
      const save = (t: string, version: number, body: object) =>
        api.send("POST", `/api/v1/projects/${project.id}/updateFlatFileParameters`, t, { version, extension: ".csv", hasHeaderRow: true, ...body });
      // Two tabs opened at one version: the first sets the pipe, the second (stale) only the encoding.
      const first = await save(analyst, project.version, { delimiter: "Pipe" });
      expect(first.status).toBe(200);
      const stale = await save(analyst, project.version, { delimiter: "Comma", encoding: "UTF-8" });
      expect(stale.status).toBe(409);
      expect(stale.body.errors).toEqual([expect.stringMatching(/^You changed this project in another tab or window at \d\d:\d\d UTC\. Nothing was saved.$/)]);
      // Someone else's version is said as theirs; a stale save is refused before its widths are judged.
      const stranger = await save(admin, project.version, { delimiter: "FixedLength", columnWidths: { Nowhere: "5" } });
      expect(stranger.status).toBe(409);
      expect(stranger.body.errors).toEqual(["This project was changed by someone else. Nothing was saved."]);
      expect((await api.get(`/api/v1/projects/${project.id}`, analyst)).body).toMatchObject({
        version: project.version + 1,
        flatFileParameters: { delimiter: "Pipe", encoding: "AutoDetect" },
      });
    });

    it("refuses flat-file parameters for a BackUp project with 400", async () => {
      const t = await token(USERS.analyst);
      const project = await makeProject(api, t, { companyId: birch.id, applicationId: birchApp.id, sourceType: "BackUp" });
      const res = await api.send("POST", `/api/v1/projects/${project.id}/updateFlatFileParameters`, t, {
        version: project.version,
        extension: ".csv",
        delimiter: "Comma",
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual(["Flat file parameters are only for projects whose source type is Flat file."]);
    });
  });

  describe("GET /api/v1/projects/search", () => {
    // Cedar Retail holds only these (a SuperAdmin creates them), so totals are exact.
    let cedarApps: { id: string }[];
    beforeAll(async () => {
      const t = await token(USERS.superAdmin);
      cedarApps = [await makeApplication(api, cedar.id, "Zeta POS"), await makeApplication(api, cedar.id, "alpha CRM")];
      const names = ["Orders", "orders archive", "Stock", "Returns 100%", "Returns_old", "Customers"];
      for (const [i, name] of names.entries()) {
        await makeProject(api, t, { companyId: cedar.id, applicationId: cedarApps[i % 2]!.id, name });
        // Distinct, known update times for the default sort.
        await api.db
          .updateTable("projects")
          .set({ updated_at: `2024-01-0${i + 1}T00:00:00.000Z` })
          .where("name", "=", name)
          .execute();
      }
      const id = (name: string) => api.db.selectFrom("projects").select("id").where("name", "=", name).executeTakeFirstOrThrow();
      await setStatus((await id("Stock")).id, "Active");
      await setStatus((await id("Customers")).id, "Inactive");
    });

    const search = async (query: string, user = USERS.superAdmin) => api.get(`/api/v1/projects/search?companyId=${cedar.id}&${query}`, await token(user));
    const names = (res: { body: { items: { name: string }[] } }) => res.body.items.map((p) => p.name);

    it("answers the newest first by default, with the total", async () => {
      const res = await search("");
      expect(res.status).toBe(200);
      expect(names(res)).toEqual(["Customers", "Returns_old", "Returns 100%", "Stock", "orders archive", "Orders"]);
      expect(res.body).toMatchObject({ total: 6, page: 1, pageSize: 25 });
    });

    it("filters by a name fragment in any case, taking % and _ literally", async () => {
      expect(names(await search("name=ORDER&sort=name"))).toEqual(["Orders", "orders archive"]);
      expect(names(await search(`name=${encodeURIComponent("100%")}`))).toEqual(["Returns 100%"]);
      expect(names(await search("name=s_o"))).toEqual(["Returns_old"]);
    });

    it("filters by several statuses (the key repeated) and by application", async () => {
      expect(names(await search("status=Active&status=Inactive&sort=name"))).toEqual(["Customers", "Stock"]);
      expect(names(await search("status=Active"))).toEqual(["Stock"]);
      expect(names(await search(`applicationId=${cedarApps[1]!.id}&sort=name`))).toEqual(["Customers", "orders archive", "Returns 100%"]);
    });

    it("sorts by name, status and application either way", async () => {
      expect(names(await search("sort=name"))).toEqual(["Customers", "Orders", "orders archive", "Returns 100%", "Returns_old", "Stock"]);
      expect(names(await search("sort=-name"))).toEqual(["Stock", "Returns_old", "Returns 100%", "orders archive", "Orders", "Customers"]);
      const byStatus = names(await search("sort=status"));
      expect(byStatus.slice(0, 2)).toEqual(["Stock", "Customers"]);
      const byApplication = await search("sort=application");
      expect(byApplication.body.items.map((p: Project) => p.applicationName)).toEqual([
        "alpha CRM",
        "alpha CRM",
        "alpha CRM",
        "Zeta POS",
        "Zeta POS",
        "Zeta POS",
      ]);
    });

    it("pages", async () => {
      const first = await search("sort=name&pageSize=10&page=1");
      expect(first.body.total).toBe(6);
      const second = await search("sort=name&pageSize=10&page=2");
      expect(second.body).toMatchObject({ items: [], total: 6, page: 2, pageSize: 10 });
      expect((await search("pageSize=7")).status).toBe(400);
      expect((await search("status=Nope")).status).toBe(400);
    });

    it("sorts names in natural order, a number by its value (2 before 10), renamed ones too, paging in SQL", async () => {
      const t = await token(USERS.analyst);
      for (const n of [12, 1, 10, 2, 11, 3, 8, 4, 7, 5, 6]) await makeProject(api, t, { companyId: acme.id, applicationId: acmeApp.id, name: `Paging ${n}` });
      await makeProject(api, t, { companyId: acme.id, applicationId: acmeApp.id, name: "Paging 010 spare" });
      // Renamed: its key is written with its new name.
      const renamed = await makeProject(api, t, { companyId: acme.id, applicationId: acmeApp.id, name: "Still unnamed" });
      expect((await api.send("PATCH", `/api/v1/projects/${renamed.id}`, t, { version: renamed.version, name: "Paging 9" })).status).toBe(200);
      const inOrder = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, "010 spare", 11, 12].map((n) => `Paging ${n}`);
      for (const user of [USERS.analyst, USERS.superAdmin]) {
        const page = async (sort: string, n: string) =>
          names(await api.get(`/api/v1/projects/search?companyId=${acme.id}&name=paging&sort=${sort}&pageSize=10&page=${n}`, await token(user)));
        expect(await page("name", "1")).toEqual(inOrder.slice(0, 10));
        expect(await page("name", "2")).toEqual(inOrder.slice(10));
        expect(await page("-name", "1")).toEqual([...inOrder].reverse().slice(0, 10));
        expect(await page("-name", "2")).toEqual([...inOrder].reverse().slice(10));
      }
    });

    it("answers only the projects the caller may read, and 404 for a company they cannot see", async () => {
      const t = await token(USERS.analyst);
      const mine = await makeProject(api, t, { companyId: acme.id, applicationId: acmeApp.id, name: "Visible to Ann" });
      // One Ann cannot read: created by a SuperAdmin who does not share it.
      await makeProject(api, await token(USERS.superAdmin), { companyId: acme.id, applicationId: acmeApp.id, name: "Hidden from Ann" });
      const res = await api.get(`/api/v1/projects/search?companyId=${acme.id}&name=ann`, t);
      expect(res.body.items.map((p: Project) => p.id)).toEqual([mine.id]);
      expect(res.body.total).toBe(1);
      expect((await api.get(`/api/v1/projects/search?companyId=${cedar.id}`, t)).status).toBe(404);
      expect((await api.get(`/api/v1/projects/search?companyId=${acme.id}`, await token(USERS.viewer))).status).toBe(403);
    });

    it("says per row whether the caller may write it: a reader's false, a writer's and an admin's true", async () => {
      const writer = await token(USERS.analyst);
      const shared = await makeProject(api, writer, { companyId: birch.id, applicationId: birchApp.id, name: "Shared ledger" });
      await makeProject(api, await token(USERS.clientAdmin), { companyId: birch.id, applicationId: birchApp.id, name: "Shared by nobody" });
      expect((await api.send("PUT", `/api/v1/projects/${shared.id}/users/${USERS.clientAdmin.id}`, writer, { canRead: true })).status).toBe(200);
      const rows = async (user: (typeof USERS)[keyof typeof USERS]) =>
        (await api.get(`/api/v1/projects/search?companyId=${birch.id}&name=shared&sort=name`, await token(user))).body.items.map(
          (p: Project & { canWrite: boolean }) => [p.name, p.canWrite],
        );
      expect(await rows(USERS.clientAdmin)).toEqual([
        ["Shared by nobody", true],
        ["Shared ledger", false],
      ]);
      expect(await rows(USERS.analyst)).toEqual([["Shared ledger", true]]);
      expect(await rows(USERS.superAdmin)).toEqual([
        ["Shared by nobody", true],
        ["Shared ledger", true],
      ]);
    });

    it("answers every search its own company's projects, however many searches of the same shape run at once", async () => {
      // The search's SQL is compiled once per shape (decision 011): these three share one.
      const t = await token(USERS.superAdmin);
      const [cedarPage, acmePage, cedarAgain] = await Promise.all([
        api.get(`/api/v1/projects/search?companyId=${cedar.id}&sort=name`, t),
        api.get(`/api/v1/projects/search?companyId=${acme.id}&sort=name`, t),
        api.get(`/api/v1/projects/search?companyId=${cedar.id}&sort=name`, t),
      ]);
      expect(names(cedarPage)).toEqual(["Customers", "Orders", "orders archive", "Returns 100%", "Returns_old", "Stock"]);
      expect(names(cedarAgain)).toEqual(names(cedarPage));
      expect(acmePage.body.items.length).toBeGreaterThan(0);
      expect(acmePage.body.items.every((p: Project) => p.companyId === acme.id)).toBe(true);
      expect(names(acmePage)).not.toContain("Orders");
    });
  });
});
