import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../../../scripts/demo-data.ts";
import type { Template } from "../../../../../contracts/templates.ts";
import { TEST_DATABASE_KINDS } from "../../../../shared/testing/databases.ts";
import type { KyselyPlugin } from "kysely";
import { alreadyAssignedMessage, NOT_AVAILABLE_MESSAGE, TEMPLATE_NOT_FOUND_MESSAGE, createTemplate, runChoices } from "../../repositories/templates.ts";
import { USERS, createTestApi, type TestApi } from "../../testing/harness.ts";
import { makeApplication, makeProject } from "../../testing/project-fixtures.ts";

const [, acme, birch] = DEMO_COMPANIES;

describe.each(TEST_DATABASE_KINDS)("a project's templates on %s", (kind) => {
  let api: TestApi;
  let analyst: string;
  beforeAll(async () => {
    api = await createTestApi(kind);
    analyst = await api.tokenFor(USERS.analyst);
  });
  afterAll(() => api?.close());

  const master = "/api/v1/master-templates";
  /** An Available master template of `companyId` with levels Prepare and Load and a script in each. */
  async function availableMaster(name: string, companyId: string = acme.id, status: "Available" | "Draft" = "Available"): Promise<Template> {
    let t: Template = (await api.send("POST", master, analyst, { companyId, area: "migration", name, type: "Core" })).body;
    for (const level of ["Prepare", "Load"]) t = (await api.send("POST", `${master}/${t.id}/levels`, analyst, { version: t.version, name: level })).body;
    for (const [i, level] of t.levels.entries()) {
      await api.send("POST", `${master}/${t.id}/levels/${level.id}/scripts`, analyst, {
        version: t.version + i,
        name: `Script ${i + 1}`,
        sql: `select ${i + 1};`,
      });
    }
    t = (await api.get(`${master}/${t.id}`, analyst)).body;
    if (status === "Available") t = (await api.send("POST", `${master}/${t.id}/status`, analyst, { version: t.version, status: "Available" })).body;
    return t;
  }
  async function project(companyId: string = acme.id) {
    const app = await makeApplication(api, companyId);
    return makeProject(api, analyst, { companyId, applicationId: app.id });
  }

  /**
   * 105 Available templates of Acme named `<prefix> <uuid part> 001`…, masters (`projectId` null) or a project's in that run
   * order, written directly (only the listing matters where they are used; the API would need a call each).
   */
  async function bulkTemplates(prefix: string, projectId: string | null) {
    const bulk = `${prefix} ${crypto.randomUUID().slice(0, 8)}`;
    const ids: string[] = [];
    for (let i = 1; i <= 105; i++) {
      const name = `${bulk} ${String(i).padStart(3, "0")}`;
      ids.push(
        await createTemplate(api.db, {
          userId: USERS.analyst.id,
          userName: null,
          companyId: acme.id,
          area: "migration",
          projectId,
          name,
          description: null,
          type: "Core",
          status: "Available",
        }),
      );
    }
    return { bulk, ids };
  }

  it("assigns Available masters as copies, in run order; the first makes a project waiting for templates Active", async () => {
    const p = await project();
    await api.db.updateTable("projects").set({ status: "SetupAssignTemplatesIncomplete" }).where("id", "=", p.id).execute();
    const first = await availableMaster("Customers");
    const second = await availableMaster("Orders");
    const assigned = await api.send("POST", `/api/v1/projects/${p.id}/templates/assign`, analyst, { templateIds: [second.id, first.id] });
    expect(assigned.status).toBe(200);
    expect(assigned.body.items.map((t: Template) => [t.name, t.masterTemplateId, t.masterVersion, t.levelCount, t.scriptCount])).toEqual([
      ["Orders", second.id, second.version, 2, 2],
      ["Customers", first.id, first.version, 2, 2],
    ]);
    expect((await api.get(`/api/v1/projects/${p.id}`, analyst)).body.status).toBe("Active");

    // The copy's scripts are its own: version 1, the master's SQL, a comment naming the master.
    const copy: Template = (await api.get(`/api/v1/projects/${p.id}/templates/${assigned.body.items[1].id}`, analyst)).body;
    const script = copy.levels[0]!.scripts[0]!;
    const versions = await api.get(`/api/v1/projects/${p.id}/templates/${copy.id}/scripts/${script.id}/versions`, analyst);
    expect(versions.body.items).toEqual([expect.objectContaining({ version: 1, comment: `Copied from master template Customers, version ${first.version}` })]);

    // Run order: Customers moves up.
    const moved = await api.send("POST", `/api/v1/projects/${p.id}/templates/${copy.id}/move`, analyst, { version: copy.version, direction: "up" });
    expect(moved.body.items.map((t: Template) => t.name)).toEqual(["Customers", "Orders"]);
    // Already first: refused, nothing moved and the version not raised.
    const moving: Template = (await api.get(`/api/v1/projects/${p.id}/templates/${copy.id}`, analyst)).body;
    const refused = await api.send("POST", `/api/v1/projects/${p.id}/templates/${copy.id}/move`, analyst, { version: moving.version, direction: "up" });
    expect(refused).toMatchObject({ status: 400, body: { errors: ["That template is already first in the run order."] } });
    expect((await api.get(`/api/v1/projects/${p.id}/templates/${copy.id}`, analyst)).body.version).toBe(moving.version);
  });

  it("a template made in a project waiting for templates makes it Active too; one made in an Inactive project changes no status", async () => {
    const p = await project();
    await api.db.updateTable("projects").set({ status: "SetupAssignTemplatesIncomplete" }).where("id", "=", p.id).execute();
    const form = { id: crypto.randomUUID(), name: "Made here", type: "Core", description: null };
    const made = await api.send("POST", `/api/v1/projects/${p.id}/templates`, analyst, form);
    expect(made.status).toBe(201);
    expect((await api.get(`/api/v1/projects/${p.id}`, analyst)).body.status).toBe("Active");
    // Its form sent again (madeIdSchema) answers the template it made: no second one.
    const again = await api.send("POST", `/api/v1/projects/${p.id}/templates`, analyst, form);
    expect([again.status, again.body]).toEqual([201, made.body]);
    expect((await api.get(`/api/v1/projects/${p.id}/templates`, analyst)).body.items.map((t: Template) => t.id)).toEqual([form.id]);
    const inactive = await project();
    await api.db.updateTable("projects").set({ status: "Inactive" }).where("id", "=", inactive.id).execute();
    await api.send("POST", `/api/v1/projects/${inactive.id}/templates`, analyst, { name: "Made later", type: "Core", description: null });
    expect((await api.get(`/api/v1/projects/${inactive.id}`, analyst)).body.status).toBe("Inactive");
  });

  it("refuses a Draft master, one already assigned, and another company's (404); assigns none of a refused batch", async () => {
    const p = await project();
    const draft = await availableMaster("Draft one", acme.id, "Draft");
    const ok = await availableMaster("Fine one");
    const refused = await api.send("POST", `/api/v1/projects/${p.id}/templates/assign`, analyst, { templateIds: [ok.id, draft.id] });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([NOT_AVAILABLE_MESSAGE]);
    expect((await api.get(`/api/v1/projects/${p.id}/templates`, analyst)).body.total).toBe(0);
    await api.send("POST", `/api/v1/projects/${p.id}/templates/assign`, analyst, { templateIds: [ok.id] });
    const again = await api.send("POST", `/api/v1/projects/${p.id}/templates/assign`, analyst, { templateIds: [ok.id] });
    expect(again.body.errors).toEqual([alreadyAssignedMessage("project")]);
    const theirs = await availableMaster("Birch one", birch.id);
    expect((await api.send("POST", `/api/v1/projects/${p.id}/templates/assign`, analyst, { templateIds: [theirs.id] })).status).toBe(404);
    const none = await api.send("POST", `/api/v1/projects/${p.id}/templates/assign`, analyst, { templateIds: [] });
    expect(none.status).toBe(400);
  });

  it("tells, in one search filtered by id, which ticked masters can still be assigned, naming the company's that cannot; others in neither", async () => {
    const p = await project();
    const tag = crypto.randomUUID().slice(0, 8);
    const fine = await availableMaster(`Fine ${tag}`);
    const taken = await availableMaster(`Taken ${tag}`);
    const draft = await availableMaster(`Draft ${tag}`, acme.id, "Draft");
    await api.send("POST", `/api/v1/projects/${p.id}/templates/assign`, analyst, { templateIds: [taken.id] });
    const theirs = await availableMaster(`Birch ${tag}`, birch.id);
    const ids = [fine.id, taken.id, draft.id, theirs.id, "no-such-template"].map((id) => `id=${encodeURIComponent(id)}`).join("&");
    const ticked = await api.get(`/api/v1/projects/${p.id}/templates/assignable?${ids}&pageSize=100`, analyst);
    expect(ticked.status).toBe(200);
    expect(ticked.body).toMatchObject({
      total: 1,
      leftOut: [
        { id: draft.id, name: `Draft ${tag}` },
        { id: taken.id, name: `Taken ${tag}` },
      ],
    });
    expect(ticked.body.items.map((t: Template) => t.id)).toEqual([fine.id]);
    // Without ids, the search is the page's as before, and names nothing.
    const page = await api.get(`/api/v1/projects/${p.id}/templates/assignable?name=${tag}`, analyst);
    expect(page.body).toMatchObject({ total: 1, leftOut: [] });
  });

  it("edits the copy without touching the master, and compares the copy with its master", async () => {
    const p = await project();
    const m = await availableMaster("Compared");
    const [copySummary] = (await api.send("POST", `/api/v1/projects/${p.id}/templates/assign`, analyst, { templateIds: [m.id] })).body.items;
    const base = `/api/v1/projects/${p.id}/templates/${copySummary.id}`;
    const copy: Template = (await api.get(base, analyst)).body;
    const script = copy.levels[1]!.scripts[0]!;
    await api.send("POST", `${base}/scripts/${script.id}/lock`, analyst);
    const saved = await api.send("PUT", `${base}/scripts/${script.id}`, analyst, { baseVersion: 1, sql: "select 2;\nselect 22;" });
    expect(saved.body.version).toBe(2);
    const masterScript = m.levels[1]!.scripts[0]!;
    expect((await api.get(`${master}/${m.id}/scripts/${masterScript.id}`, analyst)).body.sql).toBe("select 2;");

    const compared = await api.get(`${base}/compare-master`, analyst);
    expect(compared.body).toMatchObject({ masterTemplateId: m.id, masterName: "Compared", copiedVersion: m.version, masterVersion: m.version });
    expect(compared.body.scripts.map((s: { level: string; name: string; state: string }) => [s.level, s.name, s.state])).toEqual([
      ["Prepare", "Script 1", "same"],
      ["Load", "Script 2", "changed"],
    ]);
    expect(compared.body.scripts[1].diff.lines.filter((l: { kind: string }) => l.kind === "added").map((l: { text: string }) => l.text)).toEqual([
      "select 22;",
    ]);
    expect(compared.body.scripts[1].changedIn).toBe("here");

    // The master changes too: each side is told apart from the text the copy started from.
    const masterSave = async (scriptId: string, sql: string) => {
      const path = `${master}/${m.id}/scripts/${scriptId}`;
      await api.send("POST", `${path}/lock`, analyst);
      const baseVersion = (await api.get(path, analyst)).body.version;
      expect((await api.send("PUT", path, analyst, { baseVersion, sql })).status).toBe(200);
    };
    await masterSave(m.levels[0]!.scripts[0]!.id, "select 1;\nselect 11;");
    await masterSave(masterScript.id, "select 2;\nselect 3;");
    const both = await api.get(`${base}/compare-master`, analyst);
    expect(both.body.scripts.map((s: { name: string; state: string; changedIn: string | null }) => [s.name, s.state, s.changedIn])).toEqual([
      ["Script 1", "changed", "master"],
      ["Script 2", "changed", "both"],
    ]);

    // A template made in the project has no master to compare with.
    const own = await api.send("POST", `/api/v1/projects/${p.id}/templates`, analyst, { name: "Own", type: "Mapping" });
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({ projectId: p.id, status: "Available", masterTemplateId: null });
    expect((await api.get(`/api/v1/projects/${p.id}/templates/${own.body.id}/compare-master`, analyst)).status).toBe(409);
  });

  it("offers the Available masters of the project's types it does not hold yet, found in SQL past the first 100, by name, a page at a time", async () => {
    const p = await project();
    // 105 Available masters, then the first 100 assigned.
    const { bulk, ids } = await bulkTemplates("Bulk", null);
    expect((await api.send("POST", `/api/v1/projects/${p.id}/templates/assign`, analyst, { templateIds: ids.slice(0, 100) })).status).toBe(200);
    // A template made in the project with a master's name: that master cannot be assigned either.
    await api.send("POST", `/api/v1/projects/${p.id}/templates`, analyst, { name: `${bulk} 105`, type: "Core", description: null });
    await availableMaster(`${bulk} draft`, acme.id, "Draft");

    const assignable = (query: string) => api.get(`/api/v1/projects/${p.id}/templates/assignable?${query}`, analyst);
    const found = await assignable(`name=${encodeURIComponent(bulk)}&pageSize=25`);
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ total: 4, page: 1, pageSize: 25 });
    expect(found.body.items.map((t: Template) => t.name)).toEqual([101, 102, 103, 104].map((i) => `${bulk} ${i}`));
    const past = await assignable(`name=${encodeURIComponent(bulk)}&pageSize=10&page=2`);
    expect(past.body).toMatchObject({ items: [], total: 4, page: 2 });
    // Another project holds none of them: all 105 are offered, the Draft is not.
    expect((await api.get(`/api/v1/projects/${(await project()).id}/templates/assignable?name=${encodeURIComponent(bulk)}`, analyst)).body.total).toBe(105);
  });

  it("answers what a run may choose past the first 100 templates: a page in run order, by name, with levels and scripts, no SQL, in a few queries", async () => {
    const p = await project();
    // 105 templates of the project, in run order.
    const { bulk, ids } = await bulkTemplates("Run", p.id);
    // The 101st gets two levels, a script in the second.
    const base = `/api/v1/projects/${p.id}/templates/${ids[100]}`;
    let t: Template = (await api.get(base, analyst)).body;
    for (const level of ["Prepare", "Load"]) t = (await api.send("POST", `${base}/levels`, analyst, { version: t.version, name: level })).body;
    const script = await api.send("POST", `${base}/levels/${t.levels[1]!.id}/scripts`, analyst, { version: t.version, name: "Customers", sql: "select 101;" });
    expect(script.status).toBe(201);

    const choices = (query: string, as = analyst, projectId = p.id) => api.get(`/api/v1/projects/${projectId}/templates/run-choices?${query}`, as);
    const second = await choices("pageSize=100&page=2");
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ total: 105, page: 2, pageSize: 100 });
    expect(second.body.items.map((c: { name: string }) => c.name)).toEqual([101, 102, 103, 104, 105].map((i) => `${bulk} ${i}`));
    expect(second.body.items[0]).toEqual({
      id: ids[100],
      name: `${bulk} 101`,
      levels: [
        { id: t.levels[0]!.id, name: "Prepare", scripts: [] },
        { id: t.levels[1]!.id, name: "Load", scripts: [{ id: script.body.id, name: "Customers" }] },
      ],
    });
    expect(JSON.stringify(second.body)).not.toContain("select 101");
    expect(second.body.chosenScript).toBeNull();
    // The script chosen is named wherever it is listed (on page 2, asked from page 1); another workspace's or an unknown one, not.
    const named = await choices(`pageSize=10&scriptId=${script.body.id}`);
    expect(named.body.chosenScript).toEqual({ id: script.body.id, templateName: `${bulk} 101`, levelName: "Load", name: "Customers" });
    expect(named.body.items.map((c: { name: string }) => c.name)).not.toContain(`${bulk} 101`);
    const other = await project();
    expect((await choices(`scriptId=${script.body.id}`, analyst, other.id)).body.chosenScript).toBeNull();
    expect((await choices("scriptId=no-such-script")).body.chosenScript).toBeNull();
    // So are the templates and levels ticked, in run order, in the same answer: the workspace's only.
    const ticked = await choices(`pageSize=10&templateId=${ids[100]}&templateId=${ids[2]}&templateId=no-such&levelId=${t.levels[1]!.id}&levelId=no-such`);
    expect(ticked.body.chosenTemplates).toEqual([
      { id: ids[2], name: `${bulk} 003` },
      { id: ids[100], name: `${bulk} 101` },
    ]);
    expect(ticked.body.chosenLevels).toEqual([{ id: t.levels[1]!.id, templateName: `${bulk} 101`, name: "Load" }]);
    expect((await choices(`templateId=${ids[2]}&levelId=${t.levels[1]!.id}`, analyst, other.id)).body).toMatchObject({ chosenTemplates: [], chosenLevels: [] });
    expect((await choices(Array.from({ length: 101 }, (_, i) => `levelId=l${i}`).join("&"))).status).toBe(400);
    // Found by name, in SQL.
    const found = await choices(`name=${encodeURIComponent(`${bulk} 10`)}&pageSize=10`);
    expect(found.body).toMatchObject({ total: 6, page: 1 });
    expect(found.body.items.map((c: { name: string }) => c.name)).toEqual([100, 101, 102, 103, 104, 105].map((i) => `${bulk} ${i}`));
    // The run order is the list's: the 101st moved up one place comes before the 100th.
    const moving: Template = (await api.get(base, analyst)).body;
    await api.send("POST", `${base}/move`, analyst, { version: moving.version, direction: "up" });
    const names = (body: { items: { name: string }[] }) => body.items.map((c) => c.name);
    expect(names((await choices(`name=${encodeURIComponent(`${bulk} 10`)}&pageSize=10`)).body).slice(0, 2)).toEqual([`${bulk} 101`, `${bulk} 100`]);
    const listed = (await api.get(`/api/v1/projects/${p.id}/templates?page=2&pageSize=100`, analyst)).body;
    expect(names((await choices("page=2&pageSize=100")).body)).toEqual(names(listed));
    expect(names(listed)).toEqual([100, 102, 103, 104, 105].map((i) => `${bulk} ${i}`));

    // A page of 100 templates is read in three queries (the page, its levels, their scripts) and its count, not one per template.
    let queries = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        queries++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const page = await runChoices(api.db.withPlugin(counting), { companyId: acme.id, area: "migration", projectId: p.id, page: 1, pageSize: 100 });
    expect(page.items).toHaveLength(100);
    expect(queries).toBeLessThanOrEqual(4);

    // Guarded as the list is: bad paging is a 400; to a user of another company the project is unknown, a 404.
    expect((await choices("pageSize=7")).status).toBe(400);
    const theirs = await project(birch.id);
    expect((await choices("", await api.tokenFor(USERS.viewer), theirs.id)).status).toBe(404);
    expect((await choices("", analyst, "no-such-project")).status).toBe(404);
  });

  it("guards templates by project: another project's template is 404, a locked project refuses writes, removal keeps the master", async () => {
    const p = await project();
    const other = await project();
    const m = await availableMaster("Guarded");
    const [copy] = (await api.send("POST", `/api/v1/projects/${p.id}/templates/assign`, analyst, { templateIds: [m.id] })).body.items;
    const wrong = await api.get(`/api/v1/projects/${other.id}/templates/${copy.id}`, analyst);
    expect(wrong.status).toBe(404);
    expect(wrong.body.errors).toEqual([TEMPLATE_NOT_FOUND_MESSAGE]);
    expect((await api.get(`/api/v1/projects/${p.id}/templates/${m.id}`, analyst)).status).toBe(404);
    // A copy has no status of its own; another project's copy is not found before that is said.
    const moved = await api.send("POST", `/api/v1/projects/${p.id}/templates/${copy.id}/status`, analyst, { version: copy.version, status: "Archived" });
    expect(moved.status).toBe(409);
    expect(moved.body.code).toBe("status_move_refused");
    expect(
      (await api.send("POST", `/api/v1/projects/${other.id}/templates/${copy.id}/status`, analyst, { version: copy.version, status: "Archived" })).status,
    ).toBe(404);

    await api.db.updateTable("projects").set({ is_locked: 1, lock_reason: "ProjectRun" }).where("id", "=", p.id).execute();
    const locked = await api.send("POST", `/api/v1/projects/${p.id}/templates/${copy.id}/levels`, analyst, { version: copy.version, name: "More" });
    expect(locked.status).toBe(409);
    expect(locked.body.code).toBe("project_locked");
    await api.db.updateTable("projects").set({ is_locked: 0, lock_reason: null }).where("id", "=", p.id).execute();

    const removed = await api.send("DELETE", `/api/v1/projects/${p.id}/templates/${copy.id}?version=${copy.version}`, analyst);
    expect(removed.body.total).toBe(0);
    expect((await api.get(`${master}/${m.id}`, analyst)).body.scriptCount).toBe(2);
  });
});
