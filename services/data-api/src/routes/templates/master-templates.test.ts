import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../../../scripts/demo-data.ts";
import { ONLY_DRAFT_DELETED_MESSAGE, type Template } from "../../../../../contracts/templates.ts";
import { TEST_DATABASE_KINDS } from "../../../../shared/testing/databases.ts";
import { FORBIDDEN_MESSAGE } from "../../access.ts";
import { ARCHIVED_MESSAGE, DUPLICATE_LEVEL_MESSAGE, TEMPLATE_NOT_FOUND_MESSAGE, TEMPLATE_STALE_MESSAGE } from "../../repositories/templates.ts";
import { USERS, createTestApi, type TestApi } from "../../testing/harness.ts";

const [cedar, acme, birch] = DEMO_COMPANIES;

describe.each(TEST_DATABASE_KINDS)("master templates on %s", (kind) => {
  let api: TestApi;
  let analyst: string;
  let admin: string;
  beforeAll(async () => {
    api = await createTestApi(kind);
    analyst = await api.tokenFor(USERS.analyst);
    admin = await api.tokenFor(USERS.superAdmin);
  });
  afterAll(() => api?.close());

  const base = "/api/v1/master-templates";
  const path = (id: string, rest = "") => `${base}/${id}${rest}`;
  const create = async (name: string, options: { companyId?: string; area?: string; type?: string; token?: string } = {}) =>
    api.send("POST", base, options.token ?? analyst, {
      companyId: options.companyId ?? acme.id,
      area: options.area ?? "migration",
      name,
      type: options.type ?? "Core",
    });
  /** A template with one level "Load" and one script "Customers". */
  async function withScript(name: string, sql = "insert into destination.customers select * from source.customers;") {
    const t: Template = (await create(name)).body;
    const leveled: Template = (await api.send("POST", path(t.id, "/levels"), analyst, { version: t.version, name: "Load" })).body;
    const level = leveled.levels[0]!;
    const script = await api.send("POST", path(t.id, `/levels/${level.id}/scripts`), analyst, {
      version: leveled.version,
      name: "Customers",
      sql,
      comment: "First cut",
    });
    expect(script.status).toBe(201);
    return { template: t, level, script: script.body };
  }

  describe("templates", () => {
    it("creates a Draft template and lists the area's templates, filtered and sorted in SQL", async () => {
      const created = await create("Finance core", { companyId: birch.id, type: "Mapping" });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        companyId: birch.id,
        area: "migration",
        name: "Finance core",
        type: "Mapping",
        status: "Draft",
        version: 1,
        levels: [],
      });
      await create("Aardvark", { companyId: birch.id });
      await create("Onboarding only", { companyId: birch.id, area: "onboarding" });
      const list = await api.get(`${base}?companyId=${birch.id}&area=migration&sort=-name`, analyst);
      expect(list.body.items.map((t: Template) => t.name)).toEqual(["Finance core", "Aardvark"]);
      expect(list.body.total).toBe(2);
      const mapping = await api.get(`${base}?companyId=${birch.id}&area=migration&type=Mapping`, analyst);
      expect(mapping.body.items.map((t: Template) => t.name)).toEqual(["Finance core"]);
      const named = await api.get(`${base}?companyId=${birch.id}&area=migration&name=AARD&status=Draft`, analyst);
      expect(named.body.items.map((t: Template) => t.name)).toEqual(["Aardvark"]);
      const onboarding = await api.get(`${base}?companyId=${birch.id}&area=onboarding`, analyst);
      expect(onboarding.body.items.map((t: Template) => t.name)).toEqual(["Onboarding only"]);
    });

    it("makes a template once per create form (its id): sent again, or twice at once, it answers the one made; refused for another user, company, values or one that moved on", async () => {
      const rows = (name: string) => api.db.selectFrom("templates").select("id").where("name", "=", name).execute();
      const body = { id: crypto.randomUUID(), companyId: acme.id, area: "migration", name: "Sent twice", type: "Core" };
      const first = await api.send("POST", base, analyst, body);
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ id: body.id, version: 1 });
      const again = await api.send("POST", base, analyst, body);
      expect([again.status, again.body]).toEqual([201, first.body]);
      expect(await rows("Sent twice")).toEqual([{ id: body.id }]);
      const atOnce = { ...body, id: crypto.randomUUID(), name: "Sent at once" };
      const both = await Promise.all([api.send("POST", base, analyst, atOnce), api.send("POST", base, analyst, atOnce)]);
      expect(both.map((r) => [r.status, r.body.id])).toEqual([
        [201, atOnce.id],
        [201, atOnce.id],
      ]);
      expect(await rows("Sent at once")).toEqual([{ id: atOnce.id }]);
      for (const refused of [await api.send("POST", base, admin, body), await api.send("POST", base, analyst, { ...body, companyId: birch.id })]) {
        expect(refused.status).toBe(409);
        expect(refused.body.errors).toEqual(["This form was sent already: nothing more was made. Reload the page to create another."]);
      }
      const renamed = await api.send("POST", base, analyst, { ...body, type: "Mapping" });
      expect(renamed.status).toBe(409);
      expect(renamed.body.errors[0]).toMatch(/^This form was sent already: the template Sent twice was made by it at \d\d:\d\d UTC\. Nothing more was made; reload the page to create another\.$/);
      // Once it moved on (a level added), the same form is refused too.
      expect((await api.send("POST", path(body.id, "/levels"), analyst, { version: 1, name: "Load" })).status).toBe(200);
      expect((await api.send("POST", base, analyst, body)).status).toBe(409);
      expect(await rows("Sent twice")).toEqual([{ id: body.id }]);
    });

    it("sorts names in natural order, a number by its value (2 before 10), renamed ones too, paging in SQL", async () => {
      for (const n of [12, 1, 10, 2, 11, 3, 8, 4, 7, 5, 6]) expect((await create(`Paging ${n}`)).status).toBe(201);
      expect((await create("Paging 010 spare")).status).toBe(201);
      // Renamed: its key is written with its new name.
      const renamed: Template = (await create("Still unnamed")).body;
      const rename = { version: renamed.version, name: "Paging 9", description: null, type: "Core" };
      expect((await api.send("PATCH", path(renamed.id), analyst, rename)).status).toBe(200);
      const inOrder = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, "010 spare", 11, 12].map((n) => `Paging ${n}`);
      const page = async (sort: string, n: string) => {
        const res = await api.get(`${base}?companyId=${acme.id}&area=migration&name=paging&sort=${sort}&pageSize=10&page=${n}`, analyst);
        return res.body.items.map((t: Template) => t.name);
      };
      expect(await page("name", "1")).toEqual(inOrder.slice(0, 10));
      expect(await page("name", "2")).toEqual(inOrder.slice(10));
      expect(await page("-name", "1")).toEqual([...inOrder].reverse().slice(0, 10));
      expect(await page("-name", "2")).toEqual([...inOrder].reverse().slice(10));
      // All Draft: by status, then by name.
      expect(await page("status", "1")).toEqual(inOrder.slice(0, 10));
    });

    it("refuses a name already used in the area (any case), and a bad type, next to the field", async () => {
      await create("Payroll");
      const again = await create("PAYROLL");
      expect(again.status).toBe(409);
      expect(again.body.fieldErrors.name).toEqual(["A template with this name already exists here"]);
      const bad = await create("Other", { type: "Sideways" });
      expect(bad.status).toBe(400);
      expect(bad.body.fieldErrors.type).toBeDefined();
    });

    it("guards by company and area: another company's template is 404, a Viewer 403, a ClientAdmin 403 in Onboarding", async () => {
      const theirs: Template = (await create("Cedar only", { companyId: cedar.id, token: admin })).body;
      const asAnalyst = await api.get(path(theirs.id), analyst);
      expect(asAnalyst.status).toBe(404);
      expect(asAnalyst.body.errors[0]).toBe(TEMPLATE_NOT_FOUND_MESSAGE);
      const viewer = await api.tokenFor(USERS.viewer);
      expect((await api.get(`${base}?companyId=${acme.id}&area=migration`, viewer)).status).toBe(403);
      const clientAdmin = await api.tokenFor(USERS.clientAdmin);
      expect((await api.get(`${base}?companyId=${birch.id}&area=migration`, clientAdmin)).status).toBe(200);
      const onboarding = await api.get(`${base}?companyId=${birch.id}&area=onboarding`, clientAdmin);
      expect(onboarding.status).toBe(403);
      expect(onboarding.body.errors[0]).toBe(FORBIDDEN_MESSAGE);
    });

    it("moves Draft → Available (only with a script) → Archived (read-only) → Available", async () => {
      const empty: Template = (await create("Empty one")).body;
      const refused = await api.send("POST", path(empty.id, "/status"), analyst, { version: empty.version, status: "Available" });
      expect(refused.status).toBe(409);
      expect(refused.body.errors[0]).toBe("Add at least one script before making the template available.");

      const { template } = await withScript("Lifecycle");
      let current: Template = (await api.get(path(template.id), analyst)).body;
      expect((await api.send("POST", path(current.id, "/status"), analyst, { version: current.version, status: "Archived" })).body.errors[0]).toBe(
        "A template that is Draft cannot become Archived.",
      );
      current = (await api.send("POST", path(current.id, "/status"), analyst, { version: current.version, status: "Available" })).body;
      expect(current.status).toBe("Available");
      current = (await api.send("POST", path(current.id, "/status"), analyst, { version: current.version, status: "Archived" })).body;
      expect(current.status).toBe("Archived");
      const write = await api.send("POST", path(current.id, "/levels"), analyst, { version: current.version, name: "More" });
      expect(write.status).toBe(409);
      expect(write.body.errors[0]).toBe(ARCHIVED_MESSAGE);
      const script = current.levels[0]!.scripts[0]!;
      expect((await api.send("POST", path(current.id, `/scripts/${script.id}/lock`), analyst)).body.errors[0]).toBe(ARCHIVED_MESSAGE);
      current = (await api.send("POST", path(current.id, "/status"), analyst, { version: current.version, status: "Available" })).body;
      expect(current.status).toBe("Available");
    });

    it("deletes a Draft made by mistake with its levels and scripts; one made available, a stale version or another company's is refused, nothing deleted", async () => {
      const { template } = await withScript("Made by mistake");
      const draft: Template = (await api.get(path(template.id), analyst)).body;
      const remove = (id: string, version: number, token = analyst) => api.send("DELETE", `${path(id)}?version=${version}`, token);

      // Another company's is unknown; a Viewer may not write; a stale version is refused: each leaves it there.
      const theirs: Template = (await create("Cedar draft", { companyId: cedar.id, token: admin })).body;
      expect(await remove(theirs.id, theirs.version)).toMatchObject({ status: 404, body: { errors: [TEMPLATE_NOT_FOUND_MESSAGE] } });
      expect((await remove(draft.id, draft.version, await api.tokenFor(USERS.viewer))).status).toBe(403);
      expect((await remove(draft.id, draft.version - 1)).body.errors[0]).toMatch(/Nothing was saved\.$/);
      expect((await api.send("DELETE", path(draft.id), analyst)).status).toBe(400);

      // Made available (it may be assigned now), it can only be archived.
      const { template: published } = await withScript("Published");
      const available: Template = (
        await api.send("POST", path(published.id, "/status"), analyst, {
          version: (await api.get(path(published.id), analyst)).body.version,
          status: "Available",
        })
      ).body;
      expect(await remove(available.id, available.version)).toMatchObject({ status: 409, body: { errors: [ONLY_DRAFT_DELETED_MESSAGE] } });
      expect((await api.get(path(available.id), analyst)).body).toMatchObject({ status: "Available", version: available.version });

      expect(await remove(draft.id, draft.version)).toMatchObject({ status: 204 });
      expect((await api.get(path(draft.id), analyst)).status).toBe(404);
      expect((await api.get(`${base}?companyId=${acme.id}&area=migration&name=${encodeURIComponent("Made by mistake")}`, analyst)).body.total).toBe(0);
      expect(await api.db.selectFrom("template_levels").select("id").where("template_id", "=", draft.id).execute()).toEqual([]);
      expect(await api.db.selectFrom("scripts").select("id").where("template_id", "=", draft.id).execute()).toEqual([]);
      expect((await api.get(path(theirs.id), admin)).status).toBe(200);
    });
  });

  describe("levels", () => {
    it("adds, renames and reorders levels; refuses a duplicate name, a stale version and deleting a level with scripts", async () => {
      const { template, level } = await withScript("Levels");
      let t: Template = (await api.get(path(template.id), analyst)).body;
      t = (await api.send("POST", path(t.id, "/levels"), analyst, { version: t.version, name: "Transform" })).body;
      const duplicate = await api.send("POST", path(t.id, "/levels"), analyst, { version: t.version, name: "LOAD" });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.fieldErrors.name).toEqual([DUPLICATE_LEVEL_MESSAGE]);
      const stale = await api.send("POST", path(t.id, "/levels"), analyst, { version: t.version - 1, name: "Late" });
      expect(stale.status).toBe(409);
      // The analyst's own earlier write: their other tab, not someone else's.
      expect(stale.body.errors[0]).toMatch(/^You changed this template in another tab or window at \d\d:\d\d UTC\. Nothing was saved.$/);
      const elsewhere = await api.send("POST", path(t.id, "/levels"), await api.tokenFor(USERS.superAdmin), { version: t.version - 1, name: "Late" });
      expect(elsewhere.body.errors[0]).toBe(TEMPLATE_STALE_MESSAGE);
      const transform = t.levels[1]!;
      t = (await api.send("POST", path(t.id, `/levels/${transform.id}/move`), analyst, { version: t.version, direction: "up" })).body;
      expect(t.levels.map((l) => [l.name, l.order])).toEqual([
        ["Transform", 1],
        ["Load", 2],
      ]);
      t = (await api.send("PATCH", path(t.id, `/levels/${transform.id}`), analyst, { version: t.version, name: "Prepare" })).body;
      expect(t.levels[0]!.name).toBe("Prepare");
      const notEmpty = await api.send("DELETE", path(t.id, `/levels/${level.id}?version=${t.version}`), analyst);
      expect(notEmpty.status).toBe(409);
      expect(notEmpty.body.errors[0]).toMatch(/Only an empty level can be deleted/);
      t = (await api.send("DELETE", path(t.id, `/levels/${transform.id}?version=${t.version}`), analyst)).body;
      expect(t.levels.map((l) => l.name)).toEqual(["Load"]);
    });
  });

  describe("scripts, versions and locks", () => {
    it("refuses a syntax error at its line and column, and saves nothing", async () => {
      const t: Template = (await create("Syntax")).body;
      const leveled: Template = (await api.send("POST", path(t.id, "/levels"), analyst, { version: t.version, name: "L1" })).body;
      const bad = await api.send("POST", path(t.id, `/levels/${leveled.levels[0]!.id}/scripts`), analyst, {
        version: leveled.version,
        name: "Broken",
        sql: "select 1;\nselect * fro source.customers;",
      });
      expect(bad.status).toBe(400);
      expect(bad.body.fieldErrors.sql).toEqual(['Line 2, column 10: syntax error at or near "fro"']);
      expect((await api.get(path(t.id), analyst)).body.scriptCount).toBe(0);
    });

    it("saves only under the holder's lock, as a new version; refuses a stale save; diffs and restores versions; audits the lock", async () => {
      const { template, script } = await withScript("Versions", "select 1;\nselect 2;");
      const scriptPath = (rest = "") => path(template.id, `/scripts/${script.id}${rest}`);
      expect(script).toMatchObject({ name: "Customers", version: 1, lockState: "Unlocked", sql: "select 1;\nselect 2;" });

      const unlocked = await api.send("PUT", scriptPath(), analyst, { baseVersion: 1, sql: "select 3;" });
      expect(unlocked.status).toBe(409);
      expect(unlocked.body.errors[0]).toBe("Lock the script for editing first.");

      const locked = await api.send("POST", scriptPath("/lock"), analyst);
      expect(locked.body).toMatchObject({ lockState: "Locked", lockedBy: USERS.analyst.id, lockExpiresAt: expect.any(String) });
      const support = await api.tokenFor(USERS.support);
      const other = await api.send("POST", scriptPath("/lock"), support);
      expect(other.status).toBe(409);
      expect(other.body.errors[0]).toMatch(/holds the lock on this script: only they can save it\.$/);
      const notHolder = await api.send("PUT", scriptPath(), support, { baseVersion: 1, sql: "select 3;" });
      expect(notHolder.status).toBe(409);
      expect(notHolder.body.errors[0]).toMatch(/holds the lock on this script: only they can save it/);

      const saved = await api.send("PUT", scriptPath(), analyst, { baseVersion: 1, sql: "select 1;\nselect 20;\nselect 3;", comment: "Twenty" });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({ version: 2, sql: "select 1;\nselect 20;\nselect 3;", lockState: "Locked" });
      const stale = await api.send("PUT", scriptPath(), analyst, { baseVersion: 1, sql: "select 'lost';" });
      expect(stale.status).toBe(409);
      expect(stale.body.code).toBe("stale_version");
      // Only the lock's holder saves a script, so a newer version is theirs: their other tab, with when.
      expect(stale.body.errors[0]).toMatch(
        /^You changed this script in another tab or window at \d\d:\d\d UTC\. Version 2 was saved after the version 1 you edited: nothing was saved\.$/,
      );
      expect((await api.get(scriptPath(), analyst)).body.sql).toBe("select 1;\nselect 20;\nselect 3;");
      const badSave = await api.send("PUT", scriptPath(), analyst, { baseVersion: 2, sql: "selec 1" });
      expect(badSave.status).toBe(400);
      expect(badSave.body.fieldErrors.sql[0]).toMatch(/^Line 1, column 1: syntax error/);

      const diff = await api.get(`${scriptPath("/diff")}?from=1&to=2`, analyst);
      expect(diff.body).toMatchObject({ from: 1, to: 2, added: 2, removed: 1 });
      expect(diff.body.lines.filter((l: { kind: string }) => l.kind !== "same").map((l: { kind: string; text: string }) => `${l.kind} ${l.text}`)).toEqual([
        "removed select 2;",
        "added select 20;",
        "added select 3;",
      ]);

      const restored = await api.send("POST", scriptPath("/versions/1/restore"), analyst, { baseVersion: 2 });
      expect(restored.body).toMatchObject({ version: 3, sql: "select 1;\nselect 2;" });
      // A restore based on a newest version that is not the newest any more (a page from before a save) restores nothing.
      const staleRestore = await api.send("POST", scriptPath("/versions/2/restore"), analyst, { baseVersion: 2 });
      expect(staleRestore).toMatchObject({ status: 409, body: { code: "stale_version" } });
      expect(staleRestore.body.errors[0]).toMatch(
        /^You changed this script in another tab or window at \d\d:\d\d UTC\. Version 3 was saved after the version 2 your restore was based on: version 2 was not restored\.$/,
      );
      // A path naming no version (past what a version can be, 0, a fraction, not a number) is a version not found, as in the portal: read or restored.
      for (const named of ["2147483648", "99999999999999999999", "0", "1.5", "abc", "4"]) {
        expect(await api.get(scriptPath(`/versions/${named}`), analyst), named).toMatchObject({ status: 404, body: { errors: ["Version not found."] } });
        const restore = await api.send("POST", scriptPath(`/versions/${named}/restore`), analyst, { baseVersion: 3 });
        expect(restore, named).toMatchObject({ status: 404, body: { errors: ["Version not found."] } });
      }
      expect((await api.get(scriptPath("/versions/3"), analyst)).body).toMatchObject({ version: 3, sql: "select 1;\nselect 2;" });
      const versions = await api.get(scriptPath("/versions"), analyst);
      expect(versions.body.items.map((v: { version: number; comment: string }) => [v.version, v.comment])).toEqual([
        [3, "Restored version 1"],
        [2, "Twenty"],
        [1, "First cut"],
      ]);

      const unlockByOther = await api.send("POST", scriptPath("/unlock"), support);
      expect(unlockByOther.status).toBe(409);
      const forceByAnalyst = await api.send("POST", scriptPath("/force-unlock"), analyst, { reason: "Gone home" });
      expect(forceByAnalyst.status).toBe(403);
      const noReason = await api.send("POST", scriptPath("/force-unlock"), support, { reason: "  " });
      expect(noReason.status).toBe(400);
      expect(noReason.body.fieldErrors.reason).toEqual(["Give the reason for forcing the lock"]);
      const forced = await api.send("POST", scriptPath("/force-unlock"), support, { reason: "Ann is on leave" });
      expect(forced.body).toMatchObject({ lockState: "ForceUnlocked", lockedBy: null });
      // The holder whose lock was taken is told by whom and why; nothing is saved.
      const afterForce = await api.send("PUT", scriptPath(), analyst, { baseVersion: 3, sql: "select 'mine';" });
      expect(afterForce).toMatchObject({ status: 409, body: { code: "lock_required" } });
      expect(afterForce.body.errors[0]).toMatch(/^Your lock was taken away by .+ \(“Ann is on leave”\): lock the script again, then save\.$/);
      const events = await api.get(scriptPath("/lock-events"), analyst);
      expect(events.body.items.map((e: { state: string; reason: string | null }) => [e.state, e.reason])).toEqual([
        ["ForceUnlocked", "Ann is on leave"],
        ["Locked", null],
      ]);
      // The audit log has the save (the SQL by its length, never its text) and the force unlock with its reason.
      // They are Acme Health's: found by its company, and by the script's id (its route names it :scriptId).
      const audit = await api.get(
        `/api/v1/audit-log?action=api.write&companyId=${acme.id}&contains=${script.id}&pageSize=100`,
        await api.tokenFor(USERS.superAdmin),
      );
      const ofScript = audit.body.items;
      expect(ofScript.every((e: { summary: { path: string } }) => e.summary.path.includes(script.id))).toBe(true);
      expect(ofScript).toContainEqual(
        expect.objectContaining({ target: expect.stringMatching(/\/force-unlock$/), userId: USERS.support.id, reason: "Ann is on leave" }),
      );
      expect(ofScript).toContainEqual(
        expect.objectContaining({
          target: expect.stringMatching(/^PUT /),
          userId: USERS.analyst.id,
          summary: expect.objectContaining({ sql: { before: "(19 characters)", after: "(30 characters)" } }),
        }),
      );
      expect(JSON.stringify(ofScript)).not.toContain("select 20");
    });

    it("lets another take over a lock whose holder went away (the TTL passed)", async () => {
      const { template, script } = await withScript("Lapsing");
      const lapsing = api.appWith({ scriptLockTtlMinutes: 0 });
      const scriptUrl = path(template.id, `/scripts/${script.id}`);
      const call = async (method: string, url: string, token: string) => {
        const res = await lapsing.request(url, { method, headers: { authorization: `Bearer ${token}` } });
        return { status: res.status, body: (await res.json()) as any };
      };
      expect((await call("POST", `${scriptUrl}/lock`, analyst)).status).toBe(200);
      expect((await call("GET", scriptUrl, analyst)).body.lockState).toBe("Unlocked");
      const support = await api.tokenFor(USERS.support);
      expect((await call("POST", `${scriptUrl}/lock`, support)).status).toBe(200);
      const events = await api.get(`${scriptUrl}/lock-events`, analyst);
      expect(events.body.items.map((e: { state: string; userId: string }) => [e.state, e.userId])).toEqual([
        ["Locked", USERS.support.id],
        ["Locked", USERS.analyst.id],
      ]);
    });

    it("moves and deletes scripts; another company's script is 404", async () => {
      const { template, level } = await withScript("Order");
      let t: Template = (await api.get(path(template.id), analyst)).body;
      const second = await api.send("POST", path(t.id, `/levels/${level.id}/scripts`), analyst, { version: t.version, name: "Orders", sql: "select 2;" });
      t = (await api.get(path(t.id), analyst)).body;
      t = (await api.send("POST", path(t.id, `/scripts/${second.body.id}/move`), analyst, { version: t.version, direction: "up" })).body;
      expect(t.levels[0]!.scripts.map((s) => [s.name, s.order])).toEqual([
        ["Orders", 1],
        ["Customers", 2],
      ]);
      t = (await api.send("DELETE", path(t.id, `/scripts/${second.body.id}?version=${t.version}`), analyst)).body;
      expect(t.levels[0]!.scripts.map((s) => s.name)).toEqual(["Customers"]);
      const theirs: Template = (await create("Cedar's", { companyId: cedar.id, token: admin })).body;
      expect((await api.get(path(theirs.id, `/scripts/${t.levels[0]!.scripts[0]!.id}`), analyst)).status).toBe(404);
      expect((await api.get(path(t.id, `/scripts/${second.body.id}`), analyst)).status).toBe(404);
    });

    it("refuses moving the first level up, the last level down and a script past either end of its level: nothing moves and the version stays", async () => {
      const { template, script } = await withScript("Ends");
      let t: Template = (await api.get(path(template.id), analyst)).body;
      t = (await api.send("POST", path(t.id, "/levels"), analyst, { version: t.version, name: "Transform" })).body;
      const [first, last] = t.levels;
      const moves = [
        [`/levels/${first!.id}/move`, "up", "That level is already first."],
        [`/levels/${last!.id}/move`, "down", "That level is already last."],
        // Its level's only script: first and last.
        [`/scripts/${script.id}/move`, "up", "That script is already first in its level."],
        [`/scripts/${script.id}/move`, "down", "That script is already last in its level."],
      ] as const;
      for (const [move, direction, message] of moves) {
        const refused = await api.send("POST", path(t.id, move), analyst, { version: t.version, direction });
        expect(refused.status).toBe(400);
        expect(refused.body.errors).toEqual([message]);
      }
      const after: Template = (await api.get(path(t.id), analyst)).body;
      expect(after.version).toBe(t.version);
      expect(after.levels.map((l) => [l.name, l.order])).toEqual([
        ["Load", 1],
        ["Transform", 2],
      ]);
    });
  });
});
