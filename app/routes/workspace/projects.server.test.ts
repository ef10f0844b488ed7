import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEMO_COMPANIES } from "../../../scripts/demo-data";
import { COLUMN_WIDTHS_MESSAGE } from "../../../contracts/values/flat-files";
import { RESTORE_REASON_MAX } from "../../../contracts/backups";
import { isRedirect, startLiveServices } from "~/test/live-services";
import { flashOf } from "~/test/flash-of";
import { renderPage } from "~/test/render-page";
import { unpackRows } from "~/lib/packed-rows";
import { holdJobsOf } from "../../../services/data-api/src/testing/hold-jobs";
import { failBackup, insertBackup } from "../../../services/data-api/src/repositories/backups";
import { TEST_POSTGRES_ADMIN_URL } from "../../../services/shared/testing/databases";

const live = await startLiveServices();
afterAll(() => live.stop());

const { createHarness, thrownData, unwrap } = await import("./test-support");
const { INCOMPLETE_REQUEST } = await import("~/lib/forms.server");
const { CLEANED_NAME_NOTE, INVISIBLE_CHARACTERS_MESSAGE } = await import("../../../contracts/common");
const { call, api } = await createHarness();
const list = await import("./list");
const create = await import("./create/details");
const wizardLayout = await import("./create/layout");
const dictionaryStep = await import("./create/data-dictionary");
const databasesStep = await import("./create/databases");
const templatesStep = await import("./create/templates");
const { READ_ONLY_MESSAGE } = await import("~/lib/guards.server");
const { OTHER_TABLE } = await import("~/components/dictionary/schemas.server");
const projectLayout = await import("./project/layout");
const details = await import("./project/details");
const access = await import("./project/project-access");
const background = await import("./project/background-process");
const loadPage = await import("./project/databases-load");
const sourceData = await import("./project/data-dictionary/source-data");
const loadEntry = await import("./project/databases-history-entry");
const historyList = await import("./project/databases-history");
const historyTable = await import("./project/databases-history-table");
const rejectedCsv = await import("./project/databases-rejected-rows");
const restorePage = await import("./project/databases-restore");
const sqlPermissions = await import("./project/sql-permissions");
const { projectContext } = await import("./workspace.server");
const assignedTemplates = await import("../templates/assigned");
const dictionaryLayout = await import("./project/data-dictionary/layout");
const tablesPage = await import("./project/data-dictionary/tables");
const tableNew = await import("./project/data-dictionary/table-new");
const tableDetails = await import("./project/data-dictionary/table-details");
const uploadPage = await import("./project/data-dictionary/upload-data");
const reviewPage = await import("./project/data-dictionary/review");
const reviewTablePage = await import("./project/data-dictionary/review-table");

const [, acme, birch] = DEMO_COMPANIES;
const ANALYST = "analyst@demo.test";
const CLIENT_ADMIN = "clientadmin@demo.test";
const SUPER = "super@demo.test";
const ANALYST_ID = "a0000000-0000-4000-8000-000000000003";
const CLIENT_ADMIN_ID = "a0000000-0000-4000-8000-000000000004";

type Project = import("../../../contracts/projects").Project;

async function newApplication(email: string, companyId: string, name: string) {
  return api(email, "POST", "/api/v1/applications", { companyId, name, description: null });
}
async function newProject(email: string, companyId: string, applicationId: string, name: string, sourceType = "BackUp"): Promise<Project> {
  return api(email, "POST", "/api/v1/projects", { companyId, name, applicationId, sourceType, description: null });
}
const projectUrl = (id: string, rest: string, companyId: string = acme.id) => `/migration/projects/${id}/${rest}?companyId=${companyId}`;
const wizardPath = (id: string) => `/migration/projects/create/${id}/data-dictionary`;
const wizardUrl = (id: string, step: string, companyId: string = acme.id) => `/migration/projects/create/${id}/${step}?companyId=${companyId}`;

/** The wizard's databases step (its loader's answer) once the project's database creation has ended, polled as the page does (up to 100 times, 50 ms apart). */
async function databasesStepOnceCreationEnded(projectId: string): Promise<any> {
  const opts = { params: { projectId }, middleware: wizardLayout.middleware };
  let step: any;
  for (let i = 0; i < 100; i++) {
    step = await call(ANALYST, wizardUrl(projectId, "databases"), databasesStep.loader, opts);
    if (step.project.status !== "DatabaseCreation") break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return step;
}

let acmeApp: { id: string };
let birchApp: { id: string };
beforeAll(async () => {
  acmeApp = await newApplication(ANALYST, acme.id, "Legacy Billing");
  birchApp = await newApplication(ANALYST, birch.id, "Birch ERP");
});

describe("project list", () => {
  it("passes the search, the repeated status, sort and page to the data API and shows what it answers", async () => {
    await newProject(ANALYST, acme.id, acmeApp.id, "Alpha search");
    await newProject(ANALYST, acme.id, acmeApp.id, "Beta search");
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    try {
      const path = `/migration/projects?companyId=${acme.id}&name=search&status=SetupDataDictionaryIncomplete&status=Active&sort=-name&page=1&pageSize=10`;
      const result = (await call(ANALYST, path, list.loader)) as Awaited<ReturnType<typeof list.loader>>;
      const searchCall = fetchSpy.mock.calls.map(([url]) => new URL(String(url))).find((u) => u.pathname === "/api/v1/projects/search");
      expect(searchCall?.searchParams.getAll("status")).toEqual(["SetupDataDictionaryIncomplete", "Active"]);
      expect(Object.fromEntries([...searchCall!.searchParams].filter(([k]) => k !== "status"))).toEqual({
        companyId: acme.id,
        name: "search",
        sort: "-name",
        page: "1",
        pageSize: "10",
      });
      expect(result.search).toEqual({ name: "search", status: ["SetupDataDictionaryIncomplete", "Active"], sort: "-name", page: 1, pageSize: 10 });
      expect(unpackRows(result.result.items).map((p) => p.name)).toEqual(["Beta search", "Alpha search"]);
      expect(result.mayCreate).toBe(true);
    } finally {
      fetchSpy.mockRestore();
    }
  });

  it("filters by status and ignores values it does not know instead of failing", async () => {
    const onlyActive = (await call(ANALYST, `/migration/projects?companyId=${acme.id}&status=Active&sort=bogus&pageSize=7&page=-2`, list.loader)) as any;
    expect(unpackRows(onlyActive.result.items)).toEqual([]);
    expect(onlyActive.search).toMatchObject({ status: ["Active"], sort: "-updatedAt", page: 1, pageSize: 25 });
    const unknown = (await call(ANALYST, `/migration/projects?companyId=${acme.id}&status=Nope`, list.loader)) as any;
    expect(unknown.search.status).toEqual([]);
  });
});

describe("wizard step 1: create", () => {
  it("lists the company's applications", async () => {
    const result = (await call(ANALYST, `/migration/projects/create?companyId=${acme.id}`, create.loader)) as any;
    expect(result.applications).toContainEqual({ value: acmeApp.id, label: "Legacy Billing" });
  });

  it("says there is none when the company has no application", async () => {
    const result = (await call(SUPER, `/migration/projects/create?companyId=${DEMO_COMPANIES[0].id}`, create.loader)) as any;
    expect(result.applications).toEqual([]);
  });

  it("creates the project and continues at the data dictionary step, keeping the company", async () => {
    const result = await call(ANALYST, `/migration/projects/create?companyId=${acme.id}`, create.action, {
      form: { name: "Wizard one", applicationId: acmeApp.id, sourceType: "FlatFile", description: "From the test" },
    });
    expect(isRedirect(result, new RegExp(`^/migration/projects/create/[^/]+/data-dictionary\\?companyId=${acme.id}$`))).toBe(true);
    const id = (result as Response).headers.get("Location")!.split("/")[4]!;
    const project = await api<Project>(ANALYST, "GET", `/api/v1/projects/${id}`);
    expect(project).toMatchObject({ name: "Wizard one", companyId: acme.id, sourceType: "FlatFile", status: "SetupDataDictionaryIncomplete" });
  });

  it("sent twice (a double click without JavaScript, a reload that resends it, Back and submit) makes one project and both continue at its next step; the page read again makes another", async () => {
    const url = `/migration/projects/create?companyId=${acme.id}`;
    const page = (await call(ANALYST, url, create.loader)) as any;
    const form = { id: page.madeId, name: "Sent twice", applicationId: acmeApp.id, sourceType: "BackUp", description: "" };
    const first = await call(ANALYST, url, create.action, { form });
    const again = await call(ANALYST, url, create.action, { form });
    // Never the 409 "A project with this name already exists in this company" for the project the first one made.
    expect(unwrap(again)?.data?.result?.error).toBeUndefined();
    const next = new RegExp(`^/migration/projects/create/${page.madeId}/data-dictionary\\?companyId=${acme.id}$`);
    expect(isRedirect(first, next)).toBe(true);
    expect(isRedirect(again, next)).toBe(true);
    const named = async (name: string) =>
      (await api<{ items: Project[] }>(ANALYST, "GET", `/api/v1/projects/search?companyId=${acme.id}&name=${encodeURIComponent(name)}`)).items.filter((p) => p.name === name);
    expect((await named("Sent twice")).map((p) => p.id)).toEqual([page.madeId]);
    // Read again, the page gives its form a new id: another project is made.
    const reloaded = (await call(ANALYST, url, create.loader)) as any;
    expect(reloaded.madeId).not.toBe(page.madeId);
    expect(isRedirect(await call(ANALYST, url, create.action, { form: { ...form, id: reloaded.madeId, name: "Sent once" } }), /data-dictionary/)).toBe(true);
    expect((await named("Sent once")).map((p) => p.id)).toEqual([reloaded.madeId]);
    // The first form sent again with another name (Back, the name changed) is refused at the top, naming what it made.
    const refused = unwrap(await call(ANALYST, url, create.action, { form: { ...form, name: "Sent twice again" } }));
    expect(refused?.status).toBe(409);
    expect(refused?.data.result.error).toEqual({ "": [expect.stringMatching(/^This form was sent already: the project Sent twice was made by it at /)] });
    expect(await named("Sent twice again")).toEqual([]);
  });

  it("shows a duplicate name next to the name field, and changes nothing", async () => {
    await newProject(ANALYST, acme.id, acmeApp.id, "Taken name");
    const result = unwrap(
      await call(ANALYST, `/migration/projects/create?companyId=${acme.id}`, create.action, {
        form: { name: "taken NAME", applicationId: acmeApp.id, sourceType: "BackUp", description: "" },
      }),
    );
    expect(result?.status).toBe(409);
    expect(result?.data.result.error.name?.[0]).toMatch(/already|taken|exists/i);
  });

  it("offers the company's unfinished projects to continue, newest first, at most ten, and none of another company's", async () => {
    const names = [..."ABCDEFGHIJK"].map((letter) => `Unfinished ${letter}`);
    for (const name of names) await newProject(ANALYST, acme.id, acmeApp.id, name);
    await newProject(ANALYST, birch.id, birchApp.id, "Birch unfinished");
    const result = (await call(ANALYST, `/migration/projects/create?companyId=${acme.id}`, create.loader)) as any;
    // Newest first (ties of the same millisecond fall back to the id, so the set is compared).
    expect(new Set(result.unfinished.items.map((p: { name: string }) => p.name))).toEqual(new Set(names.slice(1)));
    // Their creator writes them: the card's links resume each setup (paths.resume).
    expect(result.unfinished.items[0]).toMatchObject({ status: "SetupDataDictionaryIncomplete", canWrite: true });
    expect(result.unfinished.total).toBeGreaterThanOrEqual(11);
    const birchResult = (await call(ANALYST, `/migration/projects/create?companyId=${birch.id}`, create.loader)) as any;
    expect(birchResult.unfinished.items.map((p: { name: string }) => p.name)).toContain("Birch unfinished");
    expect(birchResult.unfinished.items.map((p: { name: string }) => p.name)).not.toContain("Unfinished K");
  });

  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("offers to continue a project whose databases are made and its source not loaded yet", async () => {
    const project = await loadableProject("Databases made, nothing loaded", birch.id, birchApp.id);
    expect((await api(ANALYST, "GET", `/api/v1/projects/${project.id}`)).status).toBe("SetupRestoreDatabaseIncomplete");
    const result = (await call(ANALYST, `/migration/projects/create?companyId=${birch.id}`, create.loader)) as any;
    expect(result.unfinished.items).toContainEqual(expect.objectContaining({ id: project.id, status: "SetupRestoreDatabaseIncomplete", canWrite: true }));
  });

  it("answers 400 with field errors for empty and unknown values", async () => {
    const result = unwrap(
      await call(ANALYST, `/migration/projects/create?companyId=${acme.id}`, create.action, { form: { name: " ", applicationId: "", sourceType: "Tape" } }),
    );
    expect(result?.status).toBe(400);
    expect(Object.keys(result?.data.result.error)).toEqual(expect.arrayContaining(["name", "applicationId", "sourceType"]));
  });
});

describe("project pages", () => {
  it("load the project and the caller's access once, in the layout's middleware", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "Layout project");
    const result = (await call(ANALYST, projectUrl(project.id, "details"), projectLayout.loader, {
      params: { projectId: project.id },
      middleware: projectLayout.middleware,
    })) as any;
    expect(result.project).toMatchObject({ id: project.id, name: "Layout project" });
    expect(result.access).toEqual({ canRead: true, canWrite: true });
  });

  it("answer 404 for a project of another company than the selected one", async () => {
    const project = await newProject(ANALYST, birch.id, birchApp.id, "Birch only");
    const result = unwrap(
      await call(ANALYST, projectUrl(project.id, "details", acme.id), details.loader, {
        params: { projectId: project.id },
        middleware: projectLayout.middleware,
      }),
    );
    expect(result?.status).toBe(404);
  });

  it("answer 404 for a project the user may not read", async () => {
    const project = await newProject(ANALYST, birch.id, birchApp.id, "Not shared");
    const result = unwrap(
      await call(CLIENT_ADMIN, projectUrl(project.id, "details", birch.id), details.loader, {
        params: { projectId: project.id },
        middleware: projectLayout.middleware,
      }),
    );
    expect(result?.status).toBe(404);
  });
});

describe("wizard steps", () => {
  it("a post to a step the project's status does not open (a tab left open) changes nothing and says so", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "Stale step");
    const result = await call(ANALYST, wizardUrl(project.id, "templates"), templatesStep.action, {
      params: { projectId: project.id },
      middleware: wizardLayout.middleware,
      form: { intent: "assign", selected: "t1" },
    });
    expect(isRedirect(result, wizardUrl(project.id, "data-dictionary"))).toBe(true);
    expect((await flashOf(result))?.text).toContain("Nothing was changed: the “Templates” step is not open for this project");
    // Opening it (a GET) still just resumes the setup where it is.
    const opened = await call(ANALYST, wizardUrl(project.id, "templates"), templatesStep.loader, {
      params: { projectId: project.id },
      middleware: wizardLayout.middleware,
    });
    expect(isRedirect(opened, wizardUrl(project.id, "data-dictionary"))).toBe(true);
    expect((opened as Response).headers.get("Set-Cookie")).toBeNull();
  });
});

describe("details: edit and status", () => {
  it("saves the name and description based on the version", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "Before edit");
    const result = await call(ANALYST, projectUrl(project.id, "details"), details.action, {
      params: { projectId: project.id },
      middleware: projectLayout.middleware,
      form: { intent: "update", version: String(project.version), name: "After edit", description: "Changed" },
    });
    expect(isRedirect(result, projectUrl(project.id, "details"))).toBe(true);
    expect(await api<Project>(ANALYST, "GET", `/api/v1/projects/${project.id}`)).toMatchObject({ name: "After edit", description: "Changed" });
  });

  it("offers a name stored with a tab (before names refused them) cleaned, with a note, so that a save of the description goes through; a tab posted is still refused", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "Tabbed name");
    await live.dataApiDb.updateTable("projects").set({ name: "Tabbed\tname" }).where("id", "=", project.id).execute();
    const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };
    const page = (await call(ANALYST, projectUrl(project.id, "details"), details.loader, opts)) as any;
    expect(page.project.name).toBe("Tabbed\tname");
    expect(page.name).toEqual({ name: "Tabbed name", note: CLEANED_NAME_NOTE });

    const save = (name: string) =>
      call(ANALYST, projectUrl(project.id, "details"), details.action, { ...opts, form: { intent: "update", version: String(project.version), name, description: "Now described" } });
    const refused = unwrap(await save("Tabbed\tname"));
    expect(refused?.status).toBe(400);
    expect(refused?.data.result.error.name).toEqual([INVISIBLE_CHARACTERS_MESSAGE]);
    expect(isRedirect(await save(page.name.name), projectUrl(project.id, "details"))).toBe(true);
    expect(await api<Project>(ANALYST, "GET", `/api/v1/projects/${project.id}`)).toMatchObject({ name: "Tabbed name", description: "Now described" });
    const again = (await call(ANALYST, projectUrl(project.id, "details"), details.loader, opts)) as any;
    expect(again.name).toEqual({ name: "Tabbed name", note: null });
  });

  it("refuses a stale save with a conflict message and changes nothing", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "Stale target");
    await api(ANALYST, "PATCH", `/api/v1/projects/${project.id}`, { version: project.version, description: "someone else" });
    const result = unwrap(
      await call(ANALYST, projectUrl(project.id, "details"), details.action, {
        params: { projectId: project.id },
        middleware: projectLayout.middleware,
        form: { intent: "update", version: String(project.version), name: "Mine", description: "" },
      }),
    );
    expect(result?.status).toBe(409);
    expect(result?.data.result.error[""]?.join(" ")).toMatch(/changed|reload/i);
    expect(await api<Project>(ANALYST, "GET", `/api/v1/projects/${project.id}`)).toMatchObject({ name: "Stale target", description: "someone else" });
  });

  it("refuses a save posted without its hidden version, or with one that is no number, at the top in words, and changes nothing", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "Versionless");
    for (const version of [undefined, "abc", "99999999999999999999"]) {
      const result = unwrap(
        await call(ANALYST, projectUrl(project.id, "details"), details.action, {
          params: { projectId: project.id },
          middleware: projectLayout.middleware,
          form: { intent: "update", ...(version === undefined ? {} : { version }), name: "Forged", description: "" },
        }),
      );
      expect(result?.status, version).toBe(400);
      expect(result?.data.result.error[""], version).toEqual([INCOMPLETE_REQUEST]);
    }
    expect(await api<Project>(ANALYST, "GET", `/api/v1/projects/${project.id}`)).toMatchObject({ name: "Versionless" });
  });

  /** The details page's Status form as posted for `status`, from a page that showed `project`. */
  const postStatus = (project: Project, status: string) =>
    call(ANALYST, projectUrl(project.id, "details"), details.action, {
      params: { projectId: project.id },
      middleware: projectLayout.middleware,
      form: { intent: "status", version: String(project.version), status },
    }).then(unwrap);

  it("refuses a status change DOMAIN.md does not allow, or a status that is none (a forged post), next to the status in words", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "No status change");
    await live.dataApiDb.updateTable("projects").set({ status: "Active" }).where("id", "=", project.id).execute();
    const post = (status: string) => postStatus(project, status);
    const forged = await post("Archived");
    expect(forged?.status).toBe(400);
    expect(forged?.data.result.error.status).toEqual(["Choose a status"]);
    const refused = await post("Active");
    expect(refused?.status).toBe(409);
    expect(refused?.data.result.error.status).toEqual(["A project that is Active cannot change to that status."]);
    // A tab left open on the Active project posts "Mark as inactive" after another made it inactive: refused as a
    // conflict, so that the page is read again (with JavaScript too), showing Inactive and its Reactivate with the words.
    await live.dataApiDb.updateTable("projects").set({ status: "Inactive" }).where("id", "=", project.id).execute();
    const stale = await post("Inactive");
    expect(stale?.status).toBe(409);
    expect(stale?.data.result.error.status).toEqual(["A project that is Inactive cannot change to that status."]);
    expect(details.shouldRevalidate({ actionStatus: stale?.status, defaultShouldRevalidate: false } as never)).toBe(true);
    const now = await call(ANALYST, projectUrl(project.id, "details"), details.loader, { params: { projectId: project.id }, middleware: projectLayout.middleware });
    const page = renderPage("/migration/projects/:projectId/details", projectUrl(project.id, "details"), details.default, now, stale?.data);
    expect(new RegExp(`<form[^>]*id="project-status"[^]*?</form>`).exec(page)?.[0]).toMatch(/Reactivate[^]*A project that is Inactive cannot change to that status\./);
    expect(await api<Project>(ANALYST, "GET", `/api/v1/projects/${project.id}`)).toMatchObject({ status: "Inactive", version: project.version });
  });

  it("refuses a status change of a project whose page draws no Status form (completed in another tab, still in setup) at the top of the page", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "Completed meanwhile");
    const post = (status: string) => postStatus(project, status);
    const inSetup = await post("Completed");
    expect(inSetup).toMatchObject({ status: 409, data: { errors: ["Nothing was changed: a project that is Setup: data dictionary cannot change its status."] } });
    // A tab left open on the Active project posts "Mark as inactive" after another completed it.
    await live.dataApiDb.updateTable("projects").set({ status: "Completed" }).where("id", "=", project.id).execute();
    const completed = await post("Inactive");
    expect(completed).toMatchObject({ status: 409, data: { errors: ["Nothing was changed: a project that is Completed cannot change its status."] } });
    // The page shown with it (the Completed project, no Status form) says it, once, as an alert.
    const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };
    const after = await call(ANALYST, projectUrl(project.id, "details"), details.loader, opts);
    const page = renderPage("/migration/projects/:projectId/details", projectUrl(project.id, "details"), details.default, after, completed?.data);
    expect(page).not.toContain('value="status"');
    expect(page.match(/<div[^>]*role="alert"[^>]*>([^<]*)</)?.[1]).toBe("Nothing was changed: a project that is Completed cannot change its status.");
    expect(await api<Project>(ANALYST, "GET", `/api/v1/projects/${project.id}`)).toMatchObject({ status: "Completed", version: project.version });
  });

  it("answers 400 to an unknown intent", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "Unknown intent");
    const result = unwrap(
      await call(ANALYST, projectUrl(project.id, "details"), details.action, {
        params: { projectId: project.id },
        middleware: projectLayout.middleware,
        form: { intent: "explode" },
      }),
    );
    expect(result?.status).toBe(400);
  });
});

/** Pretends the project is locked by a running job, after the real middleware loaded it. */
const lockedBy = (reason: Project["lockReason"]) => async (args: any, next: () => Promise<unknown>) => {
  const loading = args.context.get(projectContext);
  const scope = loading.scope.then((s: any) => ("project" in s ? { ...s, project: { ...s.project, isLocked: true, lockReason: reason } } : s));
  args.context.set(projectContext, { ...loading, scope });
  return next();
};

describe("lock guard", () => {
  it("sends lock-sensitive pages and writes of a locked project to its background-process page", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "Locked one");
    const bg = projectUrl(project.id, "background-process");
    const params = { projectId: project.id };
    const edit = await call(ANALYST, projectUrl(project.id, "details"), details.action, {
      params,
      middleware: [...projectLayout.middleware, lockedBy("Backup")],
      form: { intent: "update", version: String(project.version), name: "x", description: "" },
    });
    expect(isRedirect(edit, bg)).toBe(true);
    const step2 = await call(ANALYST, wizardUrl(project.id, "data-dictionary"), dictionaryStep.loader, {
      params,
      middleware: [...wizardLayout.middleware, lockedBy("Backup")],
    });
    expect(isRedirect(step2, bg)).toBe(true);
    const step3 = await call(ANALYST, wizardUrl(project.id, "databases"), databasesStep.loader, {
      params,
      middleware: [...wizardLayout.middleware, lockedBy("Restore")],
    });
    expect(isRedirect(step3, bg)).toBe(true);
    // Its own database creation is what the databases step shows; writes still wait for the lock.
    const write3 = await call(ANALYST, wizardUrl(project.id, "databases"), databasesStep.action, {
      params,
      middleware: [...wizardLayout.middleware, lockedBy("DatabaseCreation")],
      form: { intent: "create-databases" },
    });
    expect(isRedirect(write3, bg)).toBe(true);
    // The details page itself stays readable.
    const view = (await call(ANALYST, projectUrl(project.id, "details"), details.loader, {
      params,
      middleware: [...projectLayout.middleware, lockedBy("Backup")],
    })) as any;
    expect(view.project.isLocked).toBe(true);
  });
});

describe("write guard", () => {
  let shared: Project;
  beforeAll(async () => {
    shared = await newProject(ANALYST, birch.id, birchApp.id, "Read only for Carl");
    await api(ANALYST, "PUT", `/api/v1/projects/${shared.id}/users/${CLIENT_ADMIN_ID}`, { canRead: true, canWrite: false });
  });
  const params = () => ({ projectId: shared.id });

  it("shows a read-only user the details without the edit forms", async () => {
    const result = (await call(CLIENT_ADMIN, projectUrl(shared.id, "details", birch.id), details.loader, {
      params: params(),
      middleware: projectLayout.middleware,
    })) as any;
    expect(result.canWrite).toBe(false);
  });

  it("sends a read-only user's writes and the wizard's edit pages to the parent page", async () => {
    const detailsUrl = projectUrl(shared.id, "details", birch.id);
    const write = await call(CLIENT_ADMIN, detailsUrl, details.action, {
      params: params(),
      middleware: projectLayout.middleware,
      form: { intent: "update", version: String(shared.version), name: "Hijacked", description: "" },
    });
    expect(isRedirect(write, detailsUrl)).toBe(true);
    expect(await flashOf(write)).toEqual({ kind: "error", text: READ_ONLY_MESSAGE });
    const step2 = await call(CLIENT_ADMIN, wizardUrl(shared.id, "data-dictionary", birch.id), dictionaryStep.loader, {
      params: params(),
      middleware: wizardLayout.middleware,
    });
    expect(isRedirect(step2, detailsUrl)).toBe(true);
    const grant = await call(CLIENT_ADMIN, projectUrl(shared.id, "users/project-access", birch.id), access.action, {
      params: params(),
      middleware: projectLayout.middleware,
      form: { intent: "set", userId: CLIENT_ADMIN_ID, canRead: "on", canWrite: "on" },
    });
    expect(isRedirect(grant, projectUrl(shared.id, "users/project-access", birch.id))).toBe(true);
    expect(await flashOf(grant)).toEqual({ kind: "error", text: READ_ONLY_MESSAGE });
    expect((await api<Project>(ANALYST, "GET", `/api/v1/projects/${shared.id}`)).name).toBe("Read only for Carl");
  });
});

describe("project access", () => {
  it("lists users with their names from the client portal, and grants, changes and removes access", async () => {
    const project = await newProject(ANALYST, birch.id, birchApp.id, "Shared project");
    const url = projectUrl(project.id, "users/project-access", birch.id);
    const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };

    const before = (await call(ANALYST, url, access.loader, opts)) as any;
    expect(before.canWrite).toBe(true);
    expect(before.users.map((u: any) => u.user?.name)).toEqual(["Ann Analyst"]);
    expect(before.people.candidates.map((u: any) => u.name)).toContain("Carl Client");

    // Read only: the "Can write" box left unchecked sends nothing.
    const granted = await call(ANALYST, url, access.action, { ...opts, form: { intent: "set", formKey: "add", userId: CLIENT_ADMIN_ID, canRead: "on" } });
    expect(isRedirect(granted, url)).toBe(true);
    let after = (await call(ANALYST, url, access.loader, opts)) as any;
    expect(after.users.find((u: any) => u.userId === CLIENT_ADMIN_ID)).toMatchObject({ canRead: true, canWrite: false, user: { name: "Carl Client" } });

    // Write implies read (the row's Save: Add is for users without access).
    await call(ANALYST, url, access.action, { ...opts, form: { intent: "change", userId: CLIENT_ADMIN_ID, canWrite: "on" } });
    after = (await call(ANALYST, url, access.loader, opts)) as any;
    expect(after.users.find((u: any) => u.userId === CLIENT_ADMIN_ID)).toMatchObject({ canRead: true, canWrite: true });

    const none = unwrap(await call(ANALYST, url, access.action, { ...opts, form: { intent: "set", userId: CLIENT_ADMIN_ID } }));
    expect(none?.status).toBe(400);
    expect(none?.data.result.error.canRead).toBeTruthy();

    expect(isRedirect(await call(ANALYST, url, access.action, { ...opts, form: { intent: "remove", userId: CLIENT_ADMIN_ID } }), url)).toBe(true);
    after = (await call(ANALYST, url, access.loader, opts)) as any;
    expect(after.users.map((u: any) => u.userId)).toEqual([ANALYST_ID]);
  });
});

describe("a change of access from a tab left open", () => {
  it("never gives back an access another tab removed: 404 'This user has no access to the project.', nothing granted", async () => {
    const project = await newProject(ANALYST, birch.id, birchApp.id, "Access changed twice");
    const url = projectUrl(project.id, "users/project-access", birch.id);
    const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };
    const usersNow = async () => ((await call(ANALYST, url, access.loader, opts)) as any).users.map((u: any) => u.userId);
    await call(ANALYST, url, access.action, { ...opts, form: { intent: "set", formKey: "add", userId: CLIENT_ADMIN_ID, canRead: "on" } });
    // The other tab removes Carl; the first still shows his row and saves "Can write" there.
    expect(isRedirect(await call(ANALYST, url, access.action, { ...opts, form: { intent: "remove", userId: CLIENT_ADMIN_ID } }), url)).toBe(true);

    const stale = unwrap(
      await call(ANALYST, url, access.action, {
        ...opts,
        form: { intent: "change", formKey: `change-${CLIENT_ADMIN_ID}`, userId: CLIENT_ADMIN_ID, canRead: "on", canWrite: "on" },
      }),
    );
    expect(stale?.status).toBe(404);
    expect(stale?.data.result.error[""]).toEqual(["This user has no access to the project."]);
    expect(await usersNow()).toEqual([ANALYST_ID]);

    // The row's Save still changes a grant the user has.
    await call(ANALYST, url, access.action, { ...opts, form: { intent: "set", formKey: "add", userId: CLIENT_ADMIN_ID, canRead: "on" } });
    const changed = await call(ANALYST, url, access.action, {
      ...opts,
      form: { intent: "change", formKey: `change-${CLIENT_ADMIN_ID}`, userId: CLIENT_ADMIN_ID, canWrite: "on" },
    });
    expect(isRedirect(changed, url)).toBe(true);
    expect(((await call(ANALYST, url, access.loader, opts)) as any).users.find((u: any) => u.userId === CLIENT_ADMIN_ID)).toMatchObject({ canWrite: true });
  });
});

/** The project access page of a new project of Birch made by the analyst, and Carl's row on it as the page lists it now. */
async function accessPageOfNewProject(name: string) {
  const project = await newProject(ANALYST, birch.id, birchApp.id, name);
  const url = projectUrl(project.id, "users/project-access", birch.id);
  const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };
  const carl = async () => ((await call(ANALYST, url, access.loader, opts)) as any).users.find((u: any) => u.userId === CLIENT_ADMIN_ID);
  return { url, opts, carl };
}

describe("an Add user from a tab left open", () => {
  it("never changes the access of a user given it meanwhile: 409 at the top of the Add form, their access kept, the list read again", async () => {
    const { url, opts, carl } = await accessPageOfNewProject("Access added twice");
    // Both tabs offer Carl among the people to add; the other tab gives him read and write.
    expect(((await call(ANALYST, url, access.loader, opts)) as any).people.candidates.map((u: any) => u.id)).toContain(CLIENT_ADMIN_ID);
    const first = await call(ANALYST, url, access.action, { ...opts, form: { intent: "set", formKey: "add", userId: CLIENT_ADMIN_ID, canWrite: "on" } });
    expect(isRedirect(first, url)).toBe(true);
    const given = await carl();
    expect(given).toMatchObject({ canRead: true, canWrite: true });

    // The first tab's Add, read only, comes after.
    const stale = unwrap(
      await call(ANALYST, url, access.action, { ...opts, form: { intent: "set", formKey: "add", userId: CLIENT_ADMIN_ID, canRead: "on" } }),
    );
    expect(stale?.status).toBe(409);
    expect(stale?.data.result.error[""]).toEqual([
      "Carl Client was given access to this project meanwhile (read and write), in another tab or by someone else: nothing was changed. Change it in the list of users with access.",
    ]);
    expect(stale?.data.result.initialValue.formKey).toBe("add");
    expect(await carl()).toEqual(given);
    // With JavaScript the page is read again, so Carl's row shows his access and he leaves the people to add.
    expect(access.shouldRevalidate({ actionStatus: stale?.status, defaultShouldRevalidate: false } as never)).toBe(true);
    expect(((await call(ANALYST, url, access.loader, opts)) as any).people.candidates.map((u: any) => u.id)).not.toContain(CLIENT_ADMIN_ID);
  });
});

describe("a row's Save from a tab left open", () => {
  it("never overwrites an access another tab changed: 409 at the top of the page, the access as the other tab left it", async () => {
    const { url, opts, carl } = await accessPageOfNewProject("Access changed meanwhile");
    await call(ANALYST, url, access.action, { ...opts, form: { intent: "set", formKey: "add", userId: CLIENT_ADMIN_ID, canRead: "on" } });
    const save = (fields: Record<string, string>) =>
      call(ANALYST, url, access.action, {
        ...opts,
        form: { intent: "change", formKey: `change-${CLIENT_ADMIN_ID}-read`, userId: CLIENT_ADMIN_ID, was: "read", ...fields },
      });
    // Both tabs show Carl read only; the other tab gives him write.
    expect(isRedirect(await save({ canWrite: "on" }), url)).toBe(true);
    // This tab, still showing read only, ticks nothing new and saves.
    const stale = unwrap(await save({ canRead: "on" }));
    expect(stale?.status).toBe(409);
    expect(stale?.data.result.error[""]).toEqual([
      "Carl Client's access to this project was changed meanwhile, in another tab or by someone else: it is read and write now. Nothing was changed: look at it again, then save.",
    ]);
    expect(await carl()).toMatchObject({ canRead: true, canWrite: true });
    expect(access.shouldRevalidate({ actionStatus: stale?.status, defaultShouldRevalidate: false } as never)).toBe(true);
    // A forged access shown is an incomplete request, said at the top.
    const forged = unwrap(await save({ canRead: "on", was: "admin" }));
    expect(forged).toMatchObject({ status: 400, data: { result: { error: { "": [INCOMPLETE_REQUEST] } } } });
    expect(await carl()).toMatchObject({ canWrite: true });
  });
});

describe("a user removing their own access on the project access page", () => {
  it("lands on the list of projects, which says so, never on a 'Project not found.' of the page they were on; SuperAdmin stays", async () => {
    const project = await newProject(ANALYST, birch.id, birchApp.id, "Left by its maker");
    const url = projectUrl(project.id, "users/project-access", birch.id);
    const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };
    // Carl keeps write access, so Ann may leave.
    await call(ANALYST, url, access.action, { ...opts, form: { intent: "set", formKey: "add", userId: CLIENT_ADMIN_ID, canWrite: "on" } });
    const left = await call(ANALYST, url, access.action, { ...opts, form: { intent: "remove", formKey: `remove-${ANALYST_ID}`, userId: ANALYST_ID } });
    expect(isRedirect(left, `/migration/projects?companyId=${birch.id}`)).toBe(true);
    expect(await flashOf(left)).toEqual({ kind: "success", text: "Access removed: you no longer see the project Left by its maker." });
    // The page she left is not hers any more: that is why she is not sent back to it.
    expect(thrownData(await call(ANALYST, url, access.loader, opts).catch((thrown: unknown) => thrown))).toMatchObject({ status: 404 });

    // SuperAdmin always sees the project: taken off the list, they stay on its page.
    const staff = await newProject(SUPER, birch.id, birchApp.id, "Left by staff");
    const staffUrl = projectUrl(staff.id, "users/project-access", birch.id);
    const staffOpts = { params: { projectId: staff.id }, middleware: projectLayout.middleware };
    const superId = ((await call(SUPER, staffUrl, access.loader, staffOpts)) as any).users[0].userId;
    await call(SUPER, staffUrl, access.action, { ...staffOpts, form: { intent: "set", formKey: "add", userId: CLIENT_ADMIN_ID, canWrite: "on" } });
    const stayed = await call(SUPER, staffUrl, access.action, { ...staffOpts, form: { intent: "remove", formKey: `remove-${superId}`, userId: superId } });
    expect(isRedirect(stayed, staffUrl)).toBe(true);
  });
});

describe("a change on the project access page", () => {
  it("goes back to the access list's page and page size and the people picker's search, which the forms post under", async () => {
    const project = await newProject(ANALYST, birch.id, birchApp.id, "Access kept in place");
    const url = projectUrl(project.id, "users/project-access", birch.id);
    const listed = `${url}&page=2&pageSize=10&name=carl&usersPage=2`;
    const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };
    const granted = await call(ANALYST, listed, access.action, { ...opts, form: { intent: "set", formKey: "add", userId: CLIENT_ADMIN_ID, canRead: "on" } });
    expect(isRedirect(granted, listed)).toBe(true);
    const changed = await call(ANALYST, listed, access.action, { ...opts, form: { intent: "change", userId: CLIENT_ADMIN_ID, canWrite: "on" } });
    expect(isRedirect(changed, listed)).toBe(true);
    const removed = await call(ANALYST, listed, access.action, { ...opts, form: { intent: "remove", userId: CLIENT_ADMIN_ID } });
    expect(isRedirect(removed, listed)).toBe(true);
  });
});

describe("a forged Remove on the project access page", () => {
  it("without the user it removes is refused at the top in words, with a 400, and everyone keeps their access", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "Remove nobody");
    const url = projectUrl(project.id, "users/project-access");
    const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };
    const before = ((await call(ANALYST, url, access.loader, opts)) as any).users.map((u: any) => u.userId);
    const forms: Record<string, string>[] = [{ intent: "remove" }, { intent: "remove", formKey: `remove-${before[0]}`, userId: "" }];
    for (const form of forms) {
      const refused = unwrap(await call(ANALYST, url, access.action, { ...opts, form }));
      expect(refused?.status).toBe(400);
      expect(refused?.data.result.error).toEqual({ "": [INCOMPLETE_REQUEST] });
    }
    expect(((await call(ANALYST, url, access.loader, opts)) as any).users.map((u: any) => u.userId)).toEqual(before);
  });
});

describe("a staff user on the project access page", () => {
  it("is named in words, not by the user id: SuperAdmin and Support are none of the company's people", async () => {
    const project = await newProject(SUPER, birch.id, birchApp.id, "Made by staff");
    const url = projectUrl(project.id, "users/project-access", birch.id);
    const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };
    const page = (await call(SUPER, url, access.loader, opts)) as any;
    expect(page.namesMissing).toBe(false);
    expect(page.users).toMatchObject([{ user: null, name: `Someone outside ${birch.name} (staff)` }]);
  });
});

describe("a project's assigned templates", () => {
  it("Remove names the template it deleted, and a template of another project is not found there and stays", async () => {
    const [project, other] = [
      await newProject(ANALYST, acme.id, acmeApp.id, "Own templates"),
      await newProject(ANALYST, acme.id, acmeApp.id, "Other templates"),
    ];
    const newTemplate = (p: Project, name: string): Promise<{ id: string; version: number }> =>
      api(ANALYST, "POST", `/api/v1/projects/${p.id}/templates`, { name, description: null, type: "Core" });
    const [own, elsewhere] = [await newTemplate(project, "Cleanup"), await newTemplate(other, "Elsewhere")];
    const remove = (templateId: string, version: number) =>
      call(ANALYST, projectUrl(project.id, "templates/assigned"), assignedTemplates.action, {
        params: { projectId: project.id },
        middleware: projectLayout.middleware,
        form: { intent: "remove", templateId, version: String(version) },
      });

    const refused = unwrap(await remove(elsewhere.id, elsewhere.version));
    expect(refused?.status).toBe(404);
    const otherList = await api(ANALYST, "GET", `/api/v1/projects/${other.id}/templates?page=1&pageSize=10`);
    expect(otherList.items.map((t: { name: string }) => t.name)).toEqual(["Elsewhere"]);

    const removed = await remove(own.id, own.version);
    expect(isRedirect(removed, projectUrl(project.id, "templates/assigned"))).toBe(true);
    expect((await flashOf(removed))?.text).toContain("Template Cleanup deleted with its levels and scripts.");
  });
});

describe("the people to add on the project access page", () => {
  it("are a page of the company's people, searched and counted by the client portal in SQL through the URL, never the whole company", async () => {
    const project = await newProject(ANALYST, birch.id, birchApp.id, "Access of a big company");
    const url = projectUrl(project.id, "users/project-access", birch.id);
    const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    try {
      const found = (await call(ANALYST, `${url}&name=CARL&usersPageSize=10`, access.loader, opts)) as any;
      expect(found.search).toEqual({ name: "CARL", sort: "name", page: 1, pageSize: 10 });
      expect(found.people).toMatchObject({ total: 1, onPage: 1, candidates: [{ name: "Carl Client", email: "clientadmin@demo.test" }] });
      // The granted user keeps a name, asked by id; the company's whole list is never asked.
      expect(found.users.map((u: any) => u.user?.name)).toEqual(["Ann Analyst"]);
      const asked = fetchSpy.mock.calls.map(([u]) => new URL(String(u))).filter((u) => u.pathname.startsWith(`/api/v1/companies/${birch.id}/users`));
      expect(asked.map((u) => u.pathname)).not.toContain(`/api/v1/companies/${birch.id}/users`);
      expect(asked.map((u) => Object.fromEntries(u.searchParams))).toContainEqual({ name: "CARL", page: "1", pageSize: "10", include: "roles" });
    } finally {
      fetchSpy.mockRestore();
    }
    // Past the end: nobody on the page, said so; a bad page size falls back to the default.
    const past = (await call(ANALYST, `${url}&usersPage=3&usersPageSize=nope`, access.loader, opts)) as any;
    expect(past.search).toMatchObject({ page: 3, pageSize: 25 });
    expect(past.people).toMatchObject({ total: 2, onPage: 0, candidates: [] });
  });
});

describe("the users with access on the project access page", () => {
  it("are a page of the access list, paged by the data API, the latest grant first, named by asking for that page's ids", async () => {
    const project = await newProject(ANALYST, birch.id, birchApp.id, "Access of many");
    const url = projectUrl(project.id, "users/project-access", birch.id);
    const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };
    // Eleven more people of Birch, each given read access in turn: twelve on the list with the analyst.
    const grantees = Array.from({ length: 11 }, (_, i) => {
      const n = String(i).padStart(2, "0");
      return { id: `b0000000-0000-4000-8000-0000000000${n}`, name: `Grantee ${n}`, email: `grantee${n}@demo.test` };
    });
    const createdAt = new Date().toISOString();
    await live.clientPortalDb
      .insertInto("users")
      .values(grantees.map((g) => ({ ...g, password_hash: "-", roles: "DataTransformation_Analyst", created_at: createdAt })))
      .execute();
    await live.clientPortalDb
      .insertInto("permissions")
      .values(grantees.map((g) => ({ user_id: g.id, company_id: birch.id, product_role_name: "DataTransformation_Analyst" })))
      .execute();
    for (const g of grantees) {
      await api(ANALYST, "PUT", `/api/v1/projects/${project.id}/users/${g.id}`, { canRead: true });
      await new Promise((r) => setTimeout(r, 2));
    }

    const fetchSpy = vi.spyOn(globalThis, "fetch");
    try {
      const first = (await call(ANALYST, `${url}&pageSize=10`, access.loader, opts)) as any;
      expect(first.grants).toEqual({ page: 1, pageSize: 10, total: 12 });
      expect(first.users.map((u: any) => u.user?.name)).toEqual(
        grantees
          .slice(1)
          .reverse()
          .map((g) => g.name),
      );
      // The people to add leave out everybody with access, on this page of the list or another.
      expect(first.people.candidates.map((u: any) => u.name)).toEqual(["Carl Client"]);
      const second = (await call(ANALYST, `${url}&page=2&pageSize=10`, access.loader, opts)) as any;
      expect(second.users.map((u: any) => u.user?.name)).toEqual(["Grantee 00", "Ann Analyst"]);
      // The names are asked by id, for the page's grants only.
      const byId = fetchSpy.mock.calls
        .map(([u]) => new URL(String(u)))
        .filter((u) => u.pathname === `/api/v1/companies/${birch.id}/users/page` && u.searchParams.has("id"));
      expect(byId.map((u) => u.searchParams.getAll("id").length)).toEqual([10, 2]);
    } finally {
      fetchSpy.mockRestore();
    }
    // A page size not offered falls back to the default (25), as every list's does: the twelve on one page.
    const unoffered = (await call(ANALYST, `${url}&pageSize=7`, access.loader, opts)) as any;
    expect(unoffered.grants).toEqual({ page: 1, pageSize: 25, total: 12 });
    // Past the end: nobody on the page, the count still said.
    const past = (await call(ANALYST, `${url}&page=3&pageSize=10`, access.loader, opts)) as any;
    expect(past).toMatchObject({ users: [], grants: { page: 3, total: 12 } });
  });
});

describe("wizard steps 2 and 3", () => {
  it("sends a project to its first incomplete step, and a step it has not reached there", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "Too early");
    const step3 = await call(ANALYST, wizardUrl(project.id, "databases"), databasesStep.loader, {
      params: { projectId: project.id },
      middleware: wizardLayout.middleware,
    });
    expect(isRedirect(step3, wizardUrl(project.id, "data-dictionary"))).toBe(true);
  });

  it("says an Assign refused for a master holding a table without columns under that row's Assign, and copies nothing", async () => {
    // An application of its own: the other tests of the step count the masters of acmeApp.
    const application = await newApplication(ANALYST, acme.id, "Half-done Billing");
    const project = await newProject(ANALYST, acme.id, application.id, "Incomplete master");
    const master = await api(ANALYST, "POST", "/api/v1/data-dictionaries", {
      companyId: acme.id,
      applicationId: application.id,
      name: "Billing half done",
      description: null,
    });
    const { table: customers } = await api(ANALYST, "POST", `/api/v1/data-dictionaries/${master.id}/tables`, {
      version: master.version,
      name: "Customers",
      description: null,
      columns: [{ name: "Id", type: "int", nullable: false, isKey: true }],
    });
    // A master's table can no longer be saved without columns: one stored before that rule.
    await live.dataApiDb.deleteFrom("dictionary_columns").where("table_id", "=", customers.id).execute();
    const opts = { params: { projectId: project.id }, middleware: wizardLayout.middleware };
    const step = (await call(ANALYST, wizardUrl(project.id, "data-dictionary"), dictionaryStep.loader, opts)) as any;
    const refused = unwrap(
      await call(ANALYST, wizardUrl(project.id, "data-dictionary"), dictionaryStep.action, {
        ...opts,
        form: { intent: "assign", dictionaryId: master.id, version: String(step.dictionary.version) },
      }),
    );
    const words =
      "A table of this master dictionary has no columns: give it its columns first (its data definition), or assign another one. The project's tables are unchanged.";
    expect(refused?.status).toBe(409);
    expect(refused?.data.result.error).toEqual({ "": [words] });
    // The page the user pressed Assign on, shown again with the refusal: the words under that row's Assign, once.
    const after = (await call(ANALYST, wizardUrl(project.id, "data-dictionary"), dictionaryStep.loader, opts)) as any;
    const page = renderPage(wizardPath(project.id), wizardUrl(project.id, "data-dictionary"), dictionaryStep.default, after, refused?.data);
    const shown = words.replace("'", "&#x27;");
    expect(page.split(shown)).toHaveLength(2);
    expect(new RegExp(`<form[^>]*id="assign-${master.id}"[^]*?</form>`).exec(page)?.[0]).toContain(shown);
    expect(after.dictionary).toMatchObject({ sourceDictionaryId: null, tableCount: 0 });
  });

  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("assigns a master dictionary of the application, then reads and saves the flat-file settings", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "Assigned", "FlatFile");
    const master = await api(ANALYST, "POST", "/api/v1/data-dictionaries", {
      companyId: acme.id,
      applicationId: acmeApp.id,
      name: "Billing v1",
      description: null,
    });
    await api(ANALYST, "POST", `/api/v1/data-dictionaries/${master.id}/tables`, {
      version: master.version,
      name: "Customers",
      description: null,
      columns: [{ name: "Id", type: "int", nullable: false, isKey: true }],
    });
    const opts = { params: { projectId: project.id }, middleware: wizardLayout.middleware };

    const step2 = (await call(ANALYST, wizardUrl(project.id, "data-dictionary"), dictionaryStep.loader, opts)) as any;
    expect(step2.masters.items.map((d: any) => d.name)).toEqual(["Billing v1"]);
    // An analyst's role opens Migrations' list of master dictionaries: the step links it when an application has none.
    expect(step2.mastersListHref).toBe("/migration/data-dictionary");
    // A post without its dictionary (forged or cut short) is refused in words, which the step shows above the list.
    const forged = unwrap(
      await call(ANALYST, wizardUrl(project.id, "data-dictionary"), dictionaryStep.action, {
        ...opts,
        form: { intent: "assign", version: String(step2.dictionary.version) },
      }),
    );
    expect(forged?.status).toBe(400);
    expect(forged?.data.result.error).toEqual({ "": [INCOMPLETE_REQUEST] });
    const assigned = await call(ANALYST, wizardUrl(project.id, "data-dictionary"), dictionaryStep.action, {
      ...opts,
      form: { intent: "assign", dictionaryId: master.id, version: String(step2.dictionary.version) },
    });
    expect(isRedirect(assigned, wizardUrl(project.id, "data-dictionary"))).toBe(true);
    const after = (await call(ANALYST, wizardUrl(project.id, "data-dictionary"), dictionaryStep.loader, opts)) as any;
    expect(after.tables.items.map((t: any) => t.name)).toEqual(["Customers"]);
    expect(after.project.status).toBe("SetupUploadTypeIncomplete");

    const shown = (await call(ANALYST, wizardUrl(project.id, "databases"), databasesStep.loader, opts)) as any;
    // The step shows its form: the settings' words, shown once the databases are being created, are not read.
    expect(shown.settings).toBeNull();
    const version = String(shown.project.version);
    const bad = unwrap(
      await call(ANALYST, wizardUrl(project.id, "databases"), databasesStep.action, {
        ...opts,
        form: { intent: "save", version, uploadType: "SingleFile", extension: ".csv", delimiter: "Excel", textQualifier: "DoubleQuote", encoding: "UTF-8" },
      }),
    );
    expect(bad?.status).toBe(400);
    expect(bad?.data.result.error.delimiter).toBeTruthy();

    const saved = await call(ANALYST, wizardUrl(project.id, "databases"), databasesStep.action, {
      ...opts,
      form: { intent: "save", version, uploadType: "MultipleFiles", extension: ".txt", delimiter: "Pipe", textQualifier: "None", encoding: "UTF-8" },
    });
    expect(isRedirect(saved, wizardUrl(project.id, "databases"))).toBe(true);
    const settings = {
      uploadType: "MultipleFiles",
      flatFileParameters: { extension: ".txt", delimiter: "Pipe", hasHeaderRow: false, textQualifier: "None", encoding: "UTF-8" },
    };
    expect(await api<Project>(ANALYST, "GET", `/api/v1/projects/${project.id}`)).toMatchObject(settings);
    // Another tab, opened at the same version, saves its own settings: refused at the top, its choices kept, nothing changed.
    const stale = unwrap(
      await call(ANALYST, wizardUrl(project.id, "databases"), databasesStep.action, {
        ...opts,
        form: { intent: "save", version, uploadType: "SingleFile", extension: ".txt", delimiter: "Comma", textQualifier: "None", encoding: "UTF-16LE" },
      }),
    );
    expect(stale?.status).toBe(409);
    expect(stale?.data.result.error[""]).toEqual([expect.stringMatching(/^You changed this project in another tab or window at .* Nothing was saved.$/)]);
    expect(stale?.data.result.initialValue).toMatchObject({ uploadType: "SingleFile", delimiter: "Comma", encoding: "UTF-16LE" });
    expect(await api<Project>(ANALYST, "GET", `/api/v1/projects/${project.id}`)).toMatchObject(settings);

    const unknown = unwrap(await call(ANALYST, wizardUrl(project.id, "databases"), databasesStep.action, { ...opts, form: { intent: "nope" } }));
    expect(unknown?.status).toBe(400);

    // The stale tab's Create databases, at the version it showed: the settings it showed are not those saved now, so it is
    // refused at the top of its step in a stale save's words, nothing started, and the step is read again.
    const create = (form: Record<string, string>) => call(ANALYST, wizardUrl(project.id, "databases"), databasesStep.action, { ...opts, form });
    const before = await api<Project>(ANALYST, "GET", `/api/v1/projects/${project.id}`);
    const staleCreate = unwrap(await create({ intent: "create-databases", version }));
    expect(staleCreate?.status).toBe(409);
    expect(staleCreate?.data.result.error).toEqual({
      "": [
        expect.stringMatching(
          /^You changed this project in another tab or window at .* The databases were not created: check its settings as they are now, then create them\.$/,
        ),
      ],
    });
    expect(staleCreate?.data.result.initialValue).toMatchObject({ intent: "create-databases" });
    expect(databasesStep.shouldRevalidate({ actionStatus: staleCreate?.status, defaultShouldRevalidate: false } as never)).toBe(true);
    // A post without the version (forged, truncated) is incomplete: refused at the top, nothing started either.
    const noVersion = unwrap(await create({ intent: "create-databases" }));
    expect(noVersion?.status).toBe(400);
    expect(noVersion?.data.result.error).toMatchObject({ "": [INCOMPLETE_REQUEST] });
    expect((await api<any>(ANALYST, "GET", `/api/v1/projects/${project.id}/jobs`)).jobs).toEqual([]);
    expect(await api<Project>(ANALYST, "GET", `/api/v1/projects/${project.id}`)).toEqual(before);

    // Create the databases from the step read again: the job runs, the page follows it to its end.
    const reread = (await call(ANALYST, wizardUrl(project.id, "databases"), databasesStep.loader, opts)) as any;
    const started = await create({ intent: "create-databases", version: String(reread.project.version) });
    expect(isRedirect(started, wizardUrl(project.id, "databases"))).toBe(true);
    const step3 = await databasesStepOnceCreationEnded(project.id);
    expect(step3.project.status).toBe("SetupRestoreDatabaseIncomplete");
    expect(step3.job).toMatchObject({ kind: "DatabaseCreation", status: "SUCCESS", progress: 100 });
    expect(step3.startedBy).toBe("Ann Analyst");
    // The databases created, the step shows the settings in words instead of its form.
    expect(step3.settings).toEqual(expect.arrayContaining([["Upload type", "Multiple files"], ["Delimiter", "pipe"]]));

    // The dictionary step is behind it now; a second creation is refused with the API's reason.
    const back = await call(ANALYST, wizardUrl(project.id, "data-dictionary"), dictionaryStep.loader, opts);
    expect(isRedirect(back, projectUrl(project.id, "details"))).toBe(true);
    const again = await create({ intent: "create-databases", version: String(step3.project.version) });
    expect(unwrap(again)?.status).toBe(409);

    const bg = (await call(ANALYST, projectUrl(project.id, "background-process"), background.loader, {
      params: { projectId: project.id },
      middleware: projectLayout.middleware,
    })) as any;
    expect(bg.jobs.map((j: any) => [j.kind, j.status])).toEqual([["DatabaseCreation", "SUCCESS"]]);
    expect(bg.names[bg.jobs[0].createdBy]).toBe("Ann Analyst");
  });

  it("refuses a backup project's upload type saved from a stale tab at the top, keeps its choice and leaves the other tab's", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "Two tabs of backups");
    await addTable(project, "Customers");
    const opts = { params: { projectId: project.id }, middleware: wizardLayout.middleware };
    // Tabs A and B show the step at one version.
    const shown = (await call(ANALYST, wizardUrl(project.id, "databases"), databasesStep.loader, opts)) as any;
    const save = (uploadType: string) =>
      call(ANALYST, wizardUrl(project.id, "databases"), databasesStep.action, {
        ...opts,
        form: { intent: "save", version: String(shown.project.version), uploadType },
      });
    expect(isRedirect(await save("MultipleFiles"), wizardUrl(project.id, "databases"))).toBe(true);
    const stale = unwrap(await save("SingleFile"));
    expect(stale?.status).toBe(409);
    expect(stale?.data.result.error[""]).toEqual([expect.stringMatching(/^You changed this project in another tab or window at .* Nothing was saved.$/)]);
    expect(stale?.data.result.initialValue).toMatchObject({ uploadType: "SingleFile" });
    expect(await api<Project>(ANALYST, "GET", `/api/v1/projects/${project.id}`)).toMatchObject({ uploadType: "MultipleFiles" });
  });
});

/** A table of one column in the project's own dictionary and an upload type: "Create databases" may start. */
async function readyForDatabases(project: Project) {
  await addTable(project, "Customers");
  const { version } = await api<Project>(ANALYST, "GET", `/api/v1/projects/${project.id}`);
  await api(ANALYST, "POST", `/api/v1/projects/${project.id}/upload-type`, { uploadType: "SingleFile", version });
}

/** A table of one column (Id, its key) added to the project's dictionary. */
async function addTable(project: Project, name: string) {
  const own = await api<any>(ANALYST, "GET", `/api/v1/projects/${project.id}/data-dictionary`);
  await api(ANALYST, "POST", `/api/v1/projects/${project.id}/data-dictionary/tables`, {
    version: own.version,
    name,
    description: null,
    columns: [{ name: "Id", type: "int", nullable: false, isKey: true }],
  });
}

/** Orders01, Orders02, … `count` tables after the project's own: a dictionary of many tables. */
async function addOrdersTables(project: Project, count: number) {
  for (let i = 1; i <= count; i++) await addTable(project, `Orders${String(i).padStart(2, "0")}`);
}

describe("cancelling a running job from the background-process page", () => {
  it("a writer's Cancel stops it: the job ends cancelled, the lock goes, the page says so", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "Cancelled once");
    await readyForDatabases(project);
    const release = holdJobsOf(live.jobs, project.id);
    const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };
    try {
      const job = await api<any>(ANALYST, "POST", `/api/v1/projects/${project.id}/try-create-databases`);
      const page = (await call(ANALYST, projectUrl(project.id, "background-process", acme.id), background.loader, opts)) as any;
      expect(page).toMatchObject({ isLocked: true, canCancel: true });
      const answer = await call(ANALYST, projectUrl(project.id, "background-process", acme.id), background.action, {
        ...opts,
        form: { intent: "cancel", jobId: job.id },
      });
      expect(isRedirect(answer, projectUrl(project.id, "background-process", acme.id))).toBe(true);
    } finally {
      release();
      live.jobs.hooks.beforeStep = undefined;
    }
    await live.jobs.idle();
    const after = (await call(ANALYST, projectUrl(project.id, "background-process", acme.id), background.loader, opts)) as any;
    expect(after).toMatchObject({ isLocked: false });
    expect(after.jobs[0]).toMatchObject({ kind: "DatabaseCreation", status: "ERROR", error: "Cancelled: nothing it did was kept." });
  });
});

/** A project whose databases exist (table Customers), ready for a load. */
async function loadableProject(name: string, companyId: string = acme.id, applicationId: string = acmeApp.id) {
  const project = await newProject(ANALYST, companyId, applicationId, name);
  await readyForDatabases(project);
  await api(ANALYST, "POST", `/api/v1/projects/${project.id}/try-create-databases`);
  await live.jobs.idle();
  return project;
}

/** The source data page's loader for the project, at a query added to its URL (after its companyId). */
function sourceRowsOf(project: Project) {
  const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };
  return async (query: string) => (await call(ANALYST, `${projectUrl(project.id, "data-dictionary/source-data")}${query}`, sourceData.loader, opts)) as any;
}

/** Uploads `text` as a file into Customers through the load page's action, as its form would; answers its redirect. */
async function submitLoad(project: Project, name: string, text: string) {
  const form = new FormData();
  form.set("file", new Blob([text]), name);
  form.set("table", "Customers");
  const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware, form };
  return (await call(ANALYST, projectUrl(project.id, "databases/flat-file/update-source"), loadPage.action, opts)) as Response;
}

describe("loading a flat file through the portal", () => {
  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("the upload streams through to a load whose page follows its job until it is done", async () => {
    const project = await loadableProject("Loaded once");
    const release = holdJobsOf(live.jobs, project.id);
    try {
      const answer = await submitLoad(project, "ids.csv", "Id\n1\n2\n");
      const location = answer.headers.get("location")!;
      const historyId = /history\/([^/]+)\/details/.exec(location)![1]!;
      const entryOpts = { params: { projectId: project.id, historyId }, middleware: projectLayout.middleware };
      const loading = (await call(ANALYST, location, loadEntry.loader, entryOpts)) as any;
      expect(loading.entry).toMatchObject({ status: "Loading", fileName: "ids.csv", tableName: "Customers" });
      expect(loading.job).toMatchObject({ kind: "FlatFile", status: "IN_PROGRESS" });
      release();
      await live.jobs.idle();
      const done = (await call(ANALYST, location, loadEntry.loader, entryOpts)) as any;
      expect(done.entry).toMatchObject({
        status: "Loaded",
        rowsLoaded: 2,
        tables: [{ table: "Customers", fileName: "ids.csv", rowsRead: 2, rowsLoaded: 2, rowsRejected: 0 }],
      });
      // The parameters it read with, and its job's steps with their times, stay on the page after the load; the
      // parameters (and the entry an undo or a comparison is about) reach the page once, as the words it shows.
      expect(done.said.parameters).toEqual(expect.arrayContaining([["File extension", ".csv"], ["Header row", "Yes"]]));
      expect(done).not.toHaveProperty("parameters");
      expect(done).not.toHaveProperty("about");
      expect(done.job).toMatchObject({
        status: "SUCCESS",
        steps: [
          { name: "Back up the current data", status: "Completed" },
          { name: "Load ids.csv into Customers", status: "Completed", startedAt: expect.any(String), finishedAt: expect.any(String) },
        ],
      });
    } finally {
      release();
      live.jobs.hooks.beforeStep = undefined;
    }
  });
});

describe("a refused upload on the load page", () => {
  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("keeps the form's choices (table, mode, when rows are rejected), to load or to preview, which the page puts back without JavaScript", async () => {
    const project = await loadableProject("Refused upload");
    const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };
    const choices = { uploadType: "SingleFile", table: "Customers", mode: "append", onRejected: "loadOthers" };
    for (const query of ["", "&intent=preview"]) {
      // As the browser sends the form: its choices, then the (empty) file.
      const form = new FormData();
      for (const [name, value] of Object.entries(choices)) form.set(name, value);
      form.set("file", new Blob([]), "orders.csv");
      const refused = unwrap(await call(ANALYST, `${projectUrl(project.id, "databases/flat-file/update-source")}${query}`, loadPage.action, { ...opts, form }));
      expect(refused?.status).toBe(400);
      expect(refused?.data.result.error.file).toEqual(["The file is empty"]);
      expect(refused?.data.result.initialValue).toEqual(choices);
    }
  });
});

/** A loadable project's load page: its URL, the options its loader and action are called with, and how many entries its history has. */
async function loadPageOf(name: string) {
  const project = await loadableProject(name);
  return {
    url: projectUrl(project.id, "databases/flat-file/update-source"),
    opts: { params: { projectId: project.id }, middleware: projectLayout.middleware },
    history: async () => (await api(ANALYST, "GET", `/api/v1/projects/${project.id}/history`)).total,
  };
}

describe("a refused load under a preview", () => {
  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("says at the top of the form what the data API refuses of the upload's files, which the form has no field for; loads nothing", async () => {
    const { url, opts, history } = await loadPageOf("Preview of no table");
    // Multiple files, none named after a table: previewed (each "no table"), then Load, as the form under the preview posts it (no Table select).
    const form = new FormData();
    form.set("uploadType", "MultipleFiles");
    form.append("file", new Blob(["Id\n1\n"]), "notes.csv");
    form.append("file", new Blob(["Id\n2\n"]), "readme.csv");
    const previewed = (await call(ANALYST, `${url}&intent=preview`, loadPage.action, { ...opts, form })) as Response;
    const uploadId = new URL(previewed.headers.get("location")!, "http://portal").searchParams.get("upload")!;
    expect(uploadId).toBeTruthy();
    const refused = unwrap(await call(ANALYST, url, loadPage.action, { ...opts, form: { uploadId, mode: "replace", onRejected: "loadNothing" } }));
    expect(refused?.status).toBe(400);
    expect(refused?.data.result.error).toEqual({ "": ["No file of this upload is named after a table of the dictionary: name each file after its table"] });
    await live.jobs.idle();
    expect(await history()).toBe(0);
  });
});

describe("the load page's forged posts", () => {
  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("an intent its forms do not send is a 400 saying so, never a load; a load without its upload is said incomplete at the top", async () => {
    const { url, opts, history } = await loadPageOf("Load forged");
    const before = await history();
    // The upload form with a file that would load, under an intent of the URL that is neither Preview's nor Load's (none).
    for (const [intent, words] of [
      ["bogus", "Unknown action: bogus."],
      ["", "Unknown action."],
      ["save-parameters", "Unknown action: save-parameters."],
    ]) {
      const form = new FormData();
      form.set("table", "Customers");
      form.set("file", new Blob(["Id\n1\n"]), "ids.csv");
      expect(unwrap(await call(ANALYST, `${url}&intent=${intent}`, loadPage.action, { ...opts, form })), intent).toEqual({ status: 400, data: { errors: [words] } });
    }
    // A plain post with another form's intent (the wizard's), or one of nothing: not taken for the load under a preview.
    for (const [intent, words] of [
      ["create-databases", "Unknown action: create-databases."],
      ["bogus", "Unknown action: bogus."],
      ["", "Unknown action."],
    ]) {
      const form = { intent: intent!, uploadId: "u1", table: "Customers", mode: "replace", onRejected: "loadNothing" };
      expect(unwrap(await call(ANALYST, url, loadPage.action, { ...opts, form })), intent).toEqual({ status: 400, data: { errors: [words] } });
    }
    // The load under a preview without the upload it loads (a hidden field): at the top in words, not at a field the page lacks.
    const incomplete = unwrap(await call(ANALYST, url, loadPage.action, { ...opts, form: { table: "Customers", mode: "replace", onRejected: "loadNothing" } }));
    expect(incomplete?.status).toBe(400);
    expect(incomplete?.data.result.error).toMatchObject({ "": [INCOMPLETE_REQUEST] });
    await live.jobs.idle();
    expect(await history()).toBe(before);
  });
});

describe("the Table select of the load and source data pages", () => {
  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("offers the first 50 source tables whose name contains the search, found by the data API, and keeps the table chosen", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "Many tables");
    await readyForDatabases(project);
    await addOrdersTables(project, 52);
    await api(ANALYST, "POST", `/api/v1/projects/${project.id}/try-create-databases`);
    await live.jobs.idle();
    const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };
    const load = async (query: string) =>
      (await call(ANALYST, `${projectUrl(project.id, "databases/flat-file/update-source")}${query}`, loadPage.loader, opts)) as any;
    const rowsPage = async (query: string) =>
      (await call(ANALYST, `${projectUrl(project.id, "data-dictionary/source-data")}${query}`, sourceData.loader, opts)) as any;

    // 53 tables: the select offers the first 50 and says how many there are; the data API answered no more.
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    try {
      const all = await load("");
      expect(all.tables).toMatchObject({ search: "", matching: 53 });
      expect(all.tables.names).toHaveLength(50);
      expect(all.tables.names.slice(0, 2)).toEqual(["Customers", "Orders01"]);
      const asked = fetchSpy.mock.calls.map(([url]) => new URL(String(url))).find((u) => u.pathname === `/api/v1/projects/${project.id}/databases`);
      expect(Object.fromEntries(asked!.searchParams)).toMatchObject({ database: "source", rows: "estimated", page: "1", pageSize: "50" });
    } finally {
      fetchSpy.mockRestore();
    }
    // A search (any case) narrows them; a table chosen in the link stays chosen.
    expect((await load("&name=ORDERS5")).tables).toEqual({ search: "ORDERS5", names: ["Orders50", "Orders51", "Orders52"], matching: 3 });
    expect(await load("&name=orders5&table=Customers")).toMatchObject({ chosenTable: "Customers", tables: { matching: 3 } });
    expect((await load("&name=nothing")).tables).toEqual({ search: "nothing", names: [], matching: 0 });

    // Source data: the first table the search finds, or the one asked for, whose rows are shown.
    expect(await rowsPage("&name=orders5")).toMatchObject({ table: "Orders50", tables: { names: ["Orders50", "Orders51", "Orders52"] } });
    const customers = await rowsPage("&name=orders5&table=Customers");
    expect(customers).toMatchObject({ table: "Customers", rows: { columns: [{ name: "Id" }] } });
    expect((await rowsPage("")).tables.names).toHaveLength(50);
  });
});

describe("the data page of a workspace", () => {
  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("shows the destination database's rows with ?database=destination, and the source's without it", async () => {
    const project = await loadableProject("Destination rows");
    await submitLoad(project, "ids.csv", "Id\n1\n2\n");
    await live.jobs.idle();
    const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };
    const rowsPage = async (query: string) =>
      (await call(ANALYST, `${projectUrl(project.id, "data-dictionary/source-data")}${query}`, sourceData.loader, opts)) as any;
    // The load filled the source; no run has filled the destination yet.
    expect(await rowsPage("&table=Customers")).toMatchObject({ database: "source", table: "Customers", rows: { total: 2 } });
    expect(await rowsPage("&database=destination&table=Customers")).toMatchObject({
      database: "destination",
      table: "Customers",
      tables: { names: ["Customers"] },
      rows: { total: 0, columns: [{ name: "Id" }] },
    });
    // An unknown database is the source's.
    expect(await rowsPage("&database=elsewhere")).toMatchObject({ database: "source", rows: { total: 2 } });
    // A table the database lacks is said, a 404, rather than the first table's rows shown in its place.
    for (const [query, words] of [
      ["&table=Nope", "The source database has no table 'Nope'."],
      ["&database=destination&table=Nope", "The destination database has no table 'Nope'."],
    ]) {
      expect(unwrap(await rowsPage(query!)), query).toMatchObject({ status: 404, data: { errors: [words] } });
    }
  });
});

describe("the data page of a workspace whose databases are not created yet", () => {
  it("says so with a table asked for in the URL (an old link, a bookmark), as without one: never 'has no table'", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "Databases not created");
    await readyForDatabases(project);
    const rowsPage = sourceRowsOf(project);
    for (const database of ["", "&database=destination"]) {
      const without = await rowsPage(database);
      expect(without).toMatchObject({ created: false, table: null, rows: null });
      // The page's normal state (200), the same as without ?table.
      expect(await rowsPage(`${database}&table=Customers`), database).toEqual(without);
      expect(await rowsPage(`${database}&table=Nope&page=2`), database).toEqual(without);
    }
  });
});

describe("the data page's filter", () => {
  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("searches every column for a column the table lacks (kept from another table's page), and says so: never every row as if it matched", async () => {
    const project = await loadableProject("Kept filter");
    await submitLoad(project, "ids.csv", "Id\n1\n21\n3\n");
    await live.jobs.idle();
    const rowsPage = sourceRowsOf(project);
    // Orders' OrderDate, kept in the Find rows form when its Table select changed to Customers.
    const kept = await rowsPage("&table=Customers&column=OrderDate&contains=1");
    expect(kept).toMatchObject({ table: "Customers", rows: { total: 2, column: null }, filter: { contains: "1" }, missingColumn: "OrderDate" });
    expect(kept.filter.column).toBeUndefined();
    expect((await rowsPage("&table=Customers&column=OrderDate&contains=zzz")).rows).toMatchObject({ total: 0, items: [] });
    // The table's own column: searched there, nothing to say.
    expect(await rowsPage("&table=Customers&column=Id&contains=1")).toMatchObject({ rows: { total: 2, column: "Id" }, filter: { column: "Id" }, missingColumn: null });
  });

  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("reads a search, column or sort longer than the data API takes as cut to it, and a table name longer than any as a 404 in words: never a failed page", async () => {
    const project = await loadableProject("Long search");
    await submitLoad(project, "ids.csv", "Id\n1\n2\n");
    await live.jobs.idle();
    const rowsPage = sourceRowsOf(project);
    // A search longer than the data API takes (pasted, or a hand-made link): cut to it, as the Contains field then shows; a
    // sort or column longer than any column's name: none of the table's. Never the page failed with the contract's words.
    const long = await rowsPage(`&table=Customers&contains=${"2".repeat(250)}&column=${"C".repeat(200)}&sort=${"S".repeat(200)}`);
    expect(long).toMatchObject({ table: "Customers", filter: { contains: "2".repeat(200) }, rows: { total: 0, sort: "Id" } });
    // A table name longer than any table's: the same 404 in words as a table the database lacks.
    const name = "T".repeat(200);
    expect(unwrap(await rowsPage(`&table=${name}`))).toMatchObject({ status: 404, data: { errors: [`The source database has no table '${name}'.`] } });
  });
});

describe("a forged save of a project's SQL permissions", () => {
  it("without its rows, a row's credential or the level it showed, is refused at the top in words, with a 400", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "SQL forged");
    const url = projectUrl(project.id, "users/sql-permissions");
    const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };
    const forms: Record<string, string>[] = [
      { intent: "save" },
      { intent: "save", "entries[0].level": "read", "entries[0].was": "none" },
      { intent: "save", "entries[0].credentialId": "c1", "entries[0].level": "read", "entries[0].was": "bogus" },
    ];
    for (const form of forms) {
      const refused = unwrap(await call(ANALYST, url, sqlPermissions.action, { ...opts, form }));
      expect(refused?.status, JSON.stringify(form)).toBe(400);
      expect(refused?.data.result.error[""], JSON.stringify(form)).toEqual([INCOMPLETE_REQUEST]);
    }
    // A level the form does not offer stays next to its select, in the codebase's words.
    const level = unwrap(
      await call(ANALYST, url, sqlPermissions.action, { ...opts, form: { intent: "save", "entries[0].credentialId": "c1", "entries[0].level": "all", "entries[0].was": "none" } }),
    );
    expect(level?.data.result.error).toEqual({ "entries[0].level": ["Choose None, Read or Write"] });
  });
});

describe("a project's SQL permissions saved again", () => {
  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("once saved (a double submit, Back and resend), say that nothing changed, not that they were saved", async () => {
    const project = await loadableProject("SQL saved twice");
    const expiresOn = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const made = await api(SUPER, "POST", "/api/v1/sql-credentials", { companyId: acme.id, serviceName: `Saved twice ${Date.now()}`, expiresOn });
    const url = projectUrl(project.id, "users/sql-permissions");
    const form = { intent: "save", "entries[0].credentialId": made.credential.id, "entries[0].level": "read", "entries[0].was": "none" };
    const save = () => call(ANALYST, url, sqlPermissions.action, { params: { projectId: project.id }, middleware: projectLayout.middleware, form });
    const saved = await save();
    expect(isRedirect(saved, url)).toBe(true);
    expect(await flashOf(saved)).toEqual({ kind: "success", text: "SQL permissions saved: 1 credential changed." });
    const again = await save();
    expect(isRedirect(again, url)).toBe(true);
    expect(await flashOf(again)).toEqual({ kind: "success", text: "Nothing changed: each credential had the level chosen already." });
  });
});

describe("another company's id posted to a project's page", () => {
  const opts = (project: Project) => ({ params: { projectId: project.id }, middleware: projectLayout.middleware });

  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("a SQL permission for another company's credential is not found, said at the top, and no level changes", async () => {
    const project = await loadableProject("SQL of Acme");
    const expiresOn = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const birchCredential = await api(SUPER, "POST", "/api/v1/sql-credentials", { companyId: birch.id, serviceName: "Birch ETL", expiresOn });
    const url = projectUrl(project.id, "users/sql-permissions");
    const form = { intent: "save", "entries[0].credentialId": birchCredential.credential.id, "entries[0].level": "write", "entries[0].was": "none" };
    const refused = unwrap(await call(ANALYST, url, sqlPermissions.action, { ...opts(project), form }));
    expect(refused?.status).toBe(404);
    expect(refused?.data.result.error).toEqual({ "": ["A SQL credential was not found: it may have been revoked meanwhile. Nothing was saved."] });
    const credentials = await api(SUPER, "GET", "/api/v1/sql-credentials", undefined, { companyId: birch.id, pageSize: "100" });
    expect(credentials.items.find((c: { id: string }) => c.id === birchCredential.credential.id).databases).toEqual([]);
  });

  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("a SQL permission for a credential revoked since the page showed it is not found, and the page, read again, lists it no more", async () => {
    const project = await loadableProject("SQL revoked meanwhile");
    const expiresOn = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const made = await api(SUPER, "POST", "/api/v1/sql-credentials", { companyId: acme.id, serviceName: "Acme revoked meanwhile", expiresOn });
    const url = projectUrl(project.id, "users/sql-permissions");
    const listed = async () => ((await call(ANALYST, url, sqlPermissions.loader, opts(project))) as any).permissions.items.map((i: any) => i.credentialId);
    expect(await listed()).toContain(made.credential.id);
    // Another tab revokes it; this one still offers it and saves a level for it.
    await api(SUPER, "POST", `/api/v1/sql-credentials/${made.credential.id}/revoke`, {}, { companyId: acme.id });
    const form = { intent: "save", "entries[0].credentialId": made.credential.id, "entries[0].level": "read", "entries[0].was": "none" };
    const refused = unwrap(await call(ANALYST, url, sqlPermissions.action, { ...opts(project), form }));
    expect(refused?.status).toBe(404);
    expect(refused?.data.result.error).toEqual({ "": ["A SQL credential was not found: it may have been revoked meanwhile. Nothing was saved."] });
    // With JavaScript the page is read again after that refusal too, as a page posted without it is: the credential is gone.
    expect(sqlPermissions.shouldRevalidate({ actionStatus: 404, defaultShouldRevalidate: false } as never)).toBe(true);
    expect(await listed()).not.toContain(made.credential.id);
  });

  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("restoring another company's backup is not found, said at the top, and nothing starts", async () => {
    const project = await loadableProject("Restored from elsewhere");
    const elsewhere = await loadableProject("Backed up in Birch", birch.id, birchApp.id);
    await api(ANALYST, "POST", `/api/v1/projects/${elsewhere.id}/backups`, {});
    await live.jobs.idle();
    const [backup] = (await api(ANALYST, "GET", `/api/v1/projects/${elsewhere.id}/backups`)).items;
    expect(backup).toMatchObject({ status: "Ready" });
    const history = async () => (await api(ANALYST, "GET", `/api/v1/projects/${project.id}/history`)).total;
    const before = await history();
    const url = projectUrl(project.id, "databases/backup/update-source");
    const refused = unwrap(await call(ANALYST, url, restorePage.action, { ...opts(project), form: { intent: "restore-backup", backupId: backup.id } }));
    expect(refused?.status).toBe(404);
    expect(refused?.data.result.error).toEqual({ "": ["No such backup."] });
    expect(await history()).toBe(before);
  });
});

describe("the restore page's posts", () => {
  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("one with an intent its forms do not send is a 400 saying so, and nothing starts", async () => {
    const project = await loadableProject("Restore forged");
    await api(ANALYST, "POST", `/api/v1/projects/${project.id}/backups`, {});
    await live.jobs.idle();
    const [backup] = (await api(ANALYST, "GET", `/api/v1/projects/${project.id}/backups`)).items;
    const history = async () => (await api(ANALYST, "GET", `/api/v1/projects/${project.id}/history`)).total;
    const before = await history();
    const url = projectUrl(project.id, "databases/backup/update-source");
    for (const [intent, words] of [
      ["bogus", "Unknown action: bogus."],
      ["", "Unknown action."],
    ]) {
      const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware, form: { intent: intent!, backupId: backup.id } };
      expect(unwrap(await call(ANALYST, url, restorePage.action, opts)), intent).toEqual({ status: 400, data: { errors: [words] } });
    }
    expect(await history()).toBe(before);
  });
});

describe("the restore page's file form", () => {
  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("with a reason longer than the audit log keeps, is refused next to Reason, giving back what was typed and ticked; nothing starts", async () => {
    const project = await loadableProject("Restore with a long reason");
    const history = async () => (await api(ANALYST, "GET", `/api/v1/projects/${project.id}/history`)).total;
    const before = await history();
    const long = "r".repeat(RESTORE_REASON_MAX + 1);
    // As the browser sends the form, without JavaScript: its file, then Compare and Reason.
    const form = new FormData();
    form.set("file", new Blob(["not an archive"]), "delivery.backup.tar");
    form.set("compare", "on");
    form.set("reason", long);
    const url = projectUrl(project.id, "databases/backup/update-source");
    const refused = unwrap(await call(ANALYST, url, restorePage.action, { params: { projectId: project.id }, middleware: projectLayout.middleware, form }));
    expect(refused?.status).toBe(400);
    expect(refused?.data.result.error).toEqual({ reason: [`At most ${RESTORE_REASON_MAX} characters`] });
    expect(refused?.data.result.initialValue).toEqual({ compare: "on", reason: long });
    expect(await history()).toBe(before);
  });
});

describe("the restore page's backups", () => {
  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("are those ready to restore; a post naming one that failed says it is not ready, next to Backup, and nothing starts", async () => {
    const project = await loadableProject("Restore only what is ready");
    await api(ANALYST, "POST", `/api/v1/projects/${project.id}/backups`, {});
    await live.jobs.idle();
    const failed = await insertBackup(live.dataApiDb, {
      projectId: project.id,
      name: "failed.backup.tar",
      kind: "Manual",
      userId: ANALYST_ID,
      now: new Date(),
    });
    await failBackup(live.dataApiDb, failed, new Date());
    const url = projectUrl(project.id, "databases/backup/update-source");
    const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };
    const shown = (await call(ANALYST, url, restorePage.loader, opts)) as any;
    expect(shown.backups.items.map((b: { status: string }) => b.status)).toEqual(["Ready"]);
    expect(shown.backups.items.map((b: { id: string }) => b.id)).not.toContain(failed);
    const history = async () => (await api(ANALYST, "GET", `/api/v1/projects/${project.id}/history`)).total;
    const before = await history();
    const refused = unwrap(await call(ANALYST, url, restorePage.action, { ...opts, form: { intent: "restore-backup", backupId: failed } }));
    expect(refused?.status).toBe(400);
    expect(refused?.data.result.error).toEqual({ backupId: ["This backup is not ready to restore."] });
    expect(await history()).toBe(before);
  });
});

describe("the undo page", () => {
  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("sent again (Back, another tab) is refused at the top as undone already, 409, and nothing more is restored", async () => {
    const project = await loadableProject("Undone twice");
    await submitLoad(project, "first.csv", "Id\n1\n");
    await live.jobs.idle();
    await submitLoad(project, "second.csv", "Id\n2\n");
    await live.jobs.idle();
    const history = async () => (await api(ANALYST, "GET", `/api/v1/projects/${project.id}/history`)).items;
    const second = (await history()).find((e: { fileName: string }) => e.fileName === "second.csv");
    const url = `${projectUrl(project.id, "databases/backup/update-source")}&undo=${second.id}`;
    const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };
    const shown = (await call(ANALYST, url, restorePage.loader, opts)) as any;
    const form = { intent: "undo", undo: second.id, version: String(shown.version), reason: "" };
    expect(isRedirect(await call(ANALYST, url, restorePage.action, { ...opts, form }))).toBe(true);
    await live.jobs.idle();
    const entries = (await history()).length;
    const refused = unwrap(await call(ANALYST, url, restorePage.action, { ...opts, form }));
    expect(refused?.status).toBe(409);
    const undoneAlready = /^This flat-file load of second\.csv was undone already, by you on .* UTC\. Nothing more was restored\.$/;
    expect(refused?.data.result.error).toEqual({ "": [expect.stringMatching(undoneAlready)] });
    expect((await history()).length).toBe(entries);
    // Read again after the refusal with JavaScript too, as a page posted without it is.
    expect(restorePage.shouldRevalidate({ actionStatus: 409, defaultShouldRevalidate: false } as never)).toBe(true);
  });
});

describe("who started a load or a job", () => {
  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("is named by asking the client portal for the people the page shows, by id, never the company's whole list", async () => {
    const project = await loadableProject("Named loads");
    const answer = await submitLoad(project, "named.csv", "Id\n1\n");
    await live.jobs.idle();
    const historyId = /history\/([^/]+)\/details/.exec(answer.headers.get("location")!)![1]!;
    const opts = { params: { projectId: project.id, historyId }, middleware: projectLayout.middleware };
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    try {
      // SuperAdmin looks at what the analyst started: the analyst's name is not the caller's own.
      const pages = [
        await call(SUPER, projectUrl(project.id, "databases/history/list"), historyList.loader, opts),
        await call(SUPER, projectUrl(project.id, `databases/history/${historyId}/details`), loadEntry.loader, opts),
        await call(SUPER, projectUrl(project.id, "background-process"), background.loader, opts),
      ] as any[];
      expect(pages.map((p) => p.names[ANALYST_ID])).toEqual(["Ann Analyst", "Ann Analyst", "Ann Analyst"]);
      // The people asked for (the session's list of companies, asked again when its cache of 30 s ends on a slow machine, is not people).
      const asked = fetchSpy.mock.calls
        .map(([u]) => new URL(u instanceof Request ? u.url : String(u)))
        .filter((u) => /^\/api\/v1\/companies\/[^/]+\/users/.test(u.pathname));
      expect(asked.map((u) => [u.pathname, u.searchParams.getAll("id")])).toEqual(Array(3).fill([`/api/v1/companies/${acme.id}/users/page`, [ANALYST_ID]]));
    } finally {
      fetchSpy.mockRestore();
    }
  });
});

describe("the history of loads", () => {
  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("filters by type and status and sorts through the URL (unknown values left out), and a table's page lists its rejected rows and downloads them", async () => {
    const project = await loadableProject("History once");
    const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };
    const loadFile = async (name: string, text: string) => {
      const answer = await submitLoad(project, name, text);
      await live.jobs.idle();
      return /history\/([^/]+)\/details/.exec(answer.headers.get("location")!)![1]!;
    };
    const good = await loadFile("good.csv", "Id\n1\n");
    const bad = await loadFile("bad.csv", "Id\n1\nx\n");

    const page = async (query: string) => (await call(ANALYST, `${projectUrl(project.id, "databases/history/list")}${query}`, historyList.loader, opts)) as any;
    const all = await page("");
    expect(all.history.items.map((e: any) => e.id)).toEqual([bad, good]);
    // Who: a name, not an id.
    expect(all.names[all.history.items[0].createdBy]).toBe("Ann Analyst");
    const refused = await page("&type=FlatFile&status=Refused&status=Nope&type=Tape&sort=-file");
    expect(refused.search).toMatchObject({ type: ["FlatFile"], status: ["Refused"], sort: "-file" });
    expect(refused.history.items.map((e: any) => [e.id, e.tables[0].rowsRejected])).toEqual([[bad, 1]]);
    // A filter that matches nothing: an empty page, which the page says.
    expect((await page("&type=Restore")).history).toMatchObject({ total: 0, items: [] });

    const tableOpts = { params: { projectId: project.id, historyId: bad, tableId: "Customers" }, middleware: projectLayout.middleware };
    const tablePage = (await call(ANALYST, projectUrl(project.id, `databases/history/${bad}/table/Customers/details`), historyTable.loader, tableOpts)) as any;
    expect(tablePage.table).toMatchObject({ table: "Customers", fileName: "bad.csv", rowsRead: 2, rowsLoaded: 0, rowsRejected: 1 });
    expect(tablePage.rejected.items).toEqual([{ line: 3, column: "Id", value: "x", reason: "not a whole number" }]);
    const csv = (await call(ANALYST, projectUrl(project.id, `databases/history/${bad}/table/Customers/rejected-rows.csv`), rejectedCsv.loader, {
      ...tableOpts,
      middleware: [...projectLayout.middleware, ...rejectedCsv.middleware],
    })) as Response;
    expect(csv.headers.get("content-disposition")).toContain("bad-rejected-rows.csv");
    // The BOM kept (for Excel): the bytes as the data API wrote them.
    expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(await csv.arrayBuffer())).toBe("\uFEFFId,Rejected row,Rejection reason\r\nx,3,Id: not a whole number\r\n");
    // A table the load did not fill is not found.
    const missing = await call(ANALYST, projectUrl(project.id, `databases/history/${bad}/table/Orders/details`), historyTable.loader, {
      ...tableOpts,
      params: { ...tableOpts.params, tableId: "Orders" },
    });
    expect(unwrap(missing)?.status).toBe(404);
  });
});

describe("flat-file parameters on the load page", () => {
  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("saves every parameter, the column widths per table once Fixed Length is saved, each checked at its field", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "Fixed widths", "FlatFile");
    await api(ANALYST, "POST", `/api/v1/projects/${project.id}/updateFlatFileParameters`, {
      version: project.version,
      extension: ".csv",
      delimiter: "AutoDetect",
      hasHeaderRow: true,
    });
    await readyForDatabases(project);
    await api(ANALYST, "POST", `/api/v1/projects/${project.id}/try-create-databases`);
    await live.jobs.idle();
    const url = projectUrl(project.id, "databases/flat-file/update-source");
    const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };
    const widths = async () => ((await call(ANALYST, url, loadPage.loader, opts)) as any).widths;
    // The widths' fields show once Fixed Length is saved: not asked before.
    expect(await widths()).toBeNull();
    // Each save from the page as it is now (its version).
    const save = async (form: Record<string, string>) => {
      const { version } = (await call(ANALYST, url, loadPage.loader, opts)) as any;
      return call(ANALYST, url, loadPage.action, {
        ...opts,
        form: { intent: "save-parameters", version: String(version), extension: ".txt", textQualifier: "None", ...form },
      });
    };
    const parameters = async () => (await api<Project>(ANALYST, "GET", `/api/v1/projects/${project.id}`)).flatFileParameters;

    expect(isRedirect(await save({ delimiter: "FixedLength", encoding: "UTF-16BE", dateOrder: "DMY" }), url)).toBe(true);
    expect(await widths()).toEqual({ items: [{ name: "Customers", columns: ["Id"], defaultWidths: [11] }], total: 1, page: 1, pageSize: 10 });
    expect(await parameters()).toEqual({
      extension: ".txt",
      delimiter: "FixedLength",
      hasHeaderRow: false,
      textQualifier: "None",
      encoding: "UTF-16BE",
      dateOrder: "DMY",
      worksheet: "",
      columnWidths: {},
    });
    const wrongCount = unwrap(await save({ delimiter: "FixedLength", "columnWidths.Customers": "5, 6" }));
    expect(wrongCount).toMatchObject({
      status: 400,
      data: { result: { error: { "columnWidths.Customers": ["Customers has 1 columns: give 1 widths (2 given)"] } } },
    });
    const notNumbers = unwrap(await save({ delimiter: "FixedLength", "columnWidths.Customers": "five" }));
    expect(notNumbers?.data.result.error["columnWidths.Customers"]).toEqual([COLUMN_WIDTHS_MESSAGE]);
    expect(isRedirect(await save({ delimiter: "FixedLength", "columnWidths.Customers": "8" }), url)).toBe(true);
    expect((await parameters())?.columnWidths).toEqual({ Customers: [8] });
    // A form without the widths (another delimiter: the fields are not shown) keeps them; Excel only with .xlsx.
    expect(isRedirect(await save({ delimiter: "Pipe" }), url)).toBe(true);
    expect(await parameters()).toMatchObject({ delimiter: "Pipe", columnWidths: { Customers: [8] } });
    expect(unwrap(await save({ delimiter: "Excel" }))?.data.result.error.delimiter).toEqual(["Use the Excel delimiter for .xlsx files, and only for them"]);
    expect(unwrap(await call(ANALYST, url, loadPage.action, { ...opts, form: { intent: "nope" } }))?.status).toBe(400);
  });

  it("edits the widths of a page of the tables the table search finds, asked of the data API a page at a time, and keeps the others' widths", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "Many fixed widths", "FlatFile");
    const fixed = { extension: ".txt", delimiter: "FixedLength", hasHeaderRow: false, textQualifier: "None" };
    await api(ANALYST, "POST", `/api/v1/projects/${project.id}/updateFlatFileParameters`, { version: project.version, ...fixed });
    await readyForDatabases(project);
    await addOrdersTables(project, 12);
    const url = projectUrl(project.id, "databases/flat-file/update-source");
    const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };
    const load = async (query: string) => (await call(ANALYST, `${url}${query}`, loadPage.loader, opts)) as any;
    const names = (page: { widths: { items: { name: string }[] } }) => page.widths.items.map((t) => t.name);

    // 13 tables: the form shows the first 10, in the dictionary's order, and the data API answered no more.
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    try {
      const first = await load("");
      expect(first).toMatchObject({ widthsPaged: false, widths: { total: 13, page: 1, pageSize: 10 } });
      expect(names(first)).toEqual(["Customers", ...Array.from({ length: 9 }, (_, i) => `Orders0${i + 1}`)]);
      const asked = fetchSpy.mock.calls.map(([u]) => new URL(String(u))).find((u) => u.pathname.endsWith("/flat-file/column-widths"));
      expect(Object.fromEntries(asked!.searchParams)).toEqual({ page: "1", pageSize: "10" });
    } finally {
      fetchSpy.mockRestore();
    }
    // The next page through the URL (the form stays open), and the Find a table search narrows them too.
    const second = await load("&widthsPage=2");
    expect(second).toMatchObject({ widthsPaged: true, widths: { total: 13, page: 2 } });
    expect(names(second)).toEqual(["Orders10", "Orders11", "Orders12"]);
    const found = await load("&name=ORDERS1");
    expect(found.widths.total).toBe(3);
    expect(names(found)).toEqual(["Orders10", "Orders11", "Orders12"]);
    // Another page size through the URL (the form stays open); one not offered is the default 10.
    const bigger = await load("&widthsPageSize=25");
    expect(bigger).toMatchObject({ widthsPaged: true, widths: { total: 13, page: 1, pageSize: 25 } });
    expect(names(bigger)).toHaveLength(13);
    expect((await load("&widthsPageSize=7")).widths).toMatchObject({ page: 1, pageSize: 10 });

    // Save posts the tables shown: the widths saved for the others stay; back to the same search and page.
    const save = async (query: string, form: Record<string, string>) => {
      const { version } = await load(query);
      return call(ANALYST, `${url}${query}`, loadPage.action, {
        ...opts,
        form: { intent: "save-parameters", version: String(version), ...fixed, hasHeaderRow: "", ...form },
      });
    };
    expect(isRedirect(await save("", { "columnWidths.Customers": "8" }), url)).toBe(true);
    expect(isRedirect(await save("&name=orders1&widthsPage=1", { "columnWidths.Orders11": "7" }), `${url}&name=orders1&widthsPage=1`)).toBe(true);
    expect(isRedirect(await save("&widthsPageSize=25", {}), `${url}&widthsPageSize=25`)).toBe(true);
    const saved = await api<Project>(ANALYST, "GET", `/api/v1/projects/${project.id}`);
    expect(saved.flatFileParameters?.columnWidths).toEqual({ Customers: [8], Orders11: [7] });
  });

  it("saves again once a table whose widths were saved is renamed, and says at the top a kept table's widths that its columns no longer fit", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "Widths left behind", "FlatFile");
    const fixed = { extension: ".txt", delimiter: "FixedLength", hasHeaderRow: false, textQualifier: "None" };
    await api(ANALYST, "POST", `/api/v1/projects/${project.id}/updateFlatFileParameters`, { version: project.version, ...fixed });
    await readyForDatabases(project);
    await addTable(project, "Orders");
    const url = projectUrl(project.id, "databases/flat-file/update-source");
    const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };
    const save = async (query: string, form: Record<string, string>) => {
      const { version } = (await call(ANALYST, `${url}${query}`, loadPage.loader, opts)) as any;
      return call(ANALYST, `${url}${query}`, loadPage.action, {
        ...opts,
        form: { intent: "save-parameters", version: String(version), ...fixed, hasHeaderRow: "", ...form },
      });
    };
    const widths = async () => (await api<Project>(ANALYST, "GET", `/api/v1/projects/${project.id}`)).flatFileParameters?.columnWidths;
    const id = { name: "Id", type: "int", length: null as number | null, precision: null, scale: null, nullable: false, isKey: true, description: null };
    const change = async (name: string, to: string, columns: (typeof id)[]) => {
      const { version } = await api<any>(ANALYST, "GET", `/api/v1/projects/${project.id}/data-dictionary`);
      const { items } = await api<any>(ANALYST, "GET", `/api/v1/projects/${project.id}/data-dictionary/tables?name=${name}`);
      await api(ANALYST, "PATCH", `/api/v1/projects/${project.id}/data-dictionary/tables`, { version, tableId: items[0].id, name: to, description: null, columns });
    };
    expect(isRedirect(await save("", { "columnWidths.Customers": "8", "columnWidths.Orders": "7" }), url)).toBe(true);
    // Orders renamed SalesOrders: a form that shows Customers alone sends Orders' widths back as saved, and saves.
    await change("Orders", "SalesOrders", [id]);
    expect(isRedirect(await save("&name=cust", { "columnWidths.Customers": "9" }), `${url}&name=cust`)).toBe(true);
    expect(await widths()).toEqual({ Customers: [9] });
    // Customers gains a column: its widths, kept by a form that does not show them, are said at the top, nothing saved.
    await change("Customers", "Customers", [id, { ...id, name: "Name", type: "nvarchar", length: 20, nullable: true, isKey: false }]);
    const refused = unwrap(await save("&name=sales", { "columnWidths.SalesOrders": "5" }));
    expect(refused).toMatchObject({ status: 400, data: { result: { error: { "": ["Customers has 2 columns: give 2 widths (1 given)"] } } } });
    expect(await widths()).toEqual({ Customers: [9] });
  });

  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("refuses a save from a stale tab at the top, keeps what it chose and leaves the parameters as the other tab saved them", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "Two tabs", "FlatFile");
    await api(ANALYST, "POST", `/api/v1/projects/${project.id}/updateFlatFileParameters`, { version: project.version, extension: ".csv", delimiter: "Comma" });
    await readyForDatabases(project);
    await api(ANALYST, "POST", `/api/v1/projects/${project.id}/try-create-databases`);
    await live.jobs.idle();
    const url = projectUrl(project.id, "databases/flat-file/update-source");
    const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };
    // Tabs A and B show the page at one version.
    const { version } = (await call(ANALYST, url, loadPage.loader, opts)) as any;
    const save = (form: Record<string, string>) =>
      call(ANALYST, url, loadPage.action, {
        ...opts,
        form: { intent: "save-parameters", version: String(version), extension: ".csv", hasHeaderRow: "on", encoding: "AutoDetect", ...form },
      });
    expect(isRedirect(await save({ delimiter: "Pipe" }), url)).toBe(true);
    const stale = unwrap(await save({ delimiter: "Comma", encoding: "UTF-8" }));
    expect(stale?.status).toBe(409);
    expect(stale?.data.result.error[""]).toEqual([expect.stringMatching(/^You changed this project in another tab or window at .* Nothing was saved.$/)]);
    expect(stale?.data.result.initialValue).toMatchObject({ intent: "save-parameters", delimiter: "Comma", encoding: "UTF-8" });
    expect((await api<Project>(ANALYST, "GET", `/api/v1/projects/${project.id}`)).flatFileParameters).toMatchObject({
      delimiter: "Pipe",
      encoding: "AutoDetect",
    });
    // The page is read again after the refusal, at the version that holds the pipe.
    expect(loadPage.shouldRevalidate({ actionStatus: 409, defaultShouldRevalidate: false } as never)).toBe(true);
  });
});

describe("force-unlocking from the background-process page", () => {
  it("a SuperAdmin gives a reason (required, said at the field) and the project is free; an analyst is neither offered it nor may post it (403)", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "Stuck once");
    await readyForDatabases(project);
    const release = holdJobsOf(live.jobs, project.id);
    const opts = { params: { projectId: project.id }, middleware: projectLayout.middleware };
    const here = projectUrl(project.id, "background-process", acme.id);
    try {
      await api<any>(ANALYST, "POST", `/api/v1/projects/${project.id}/try-create-databases`);
      expect(await call(ANALYST, here, background.loader, opts)).toMatchObject({ isLocked: true, canForceUnlock: false });
      expect(await call(SUPER, here, background.loader, opts)).toMatchObject({ isLocked: true, canForceUnlock: true });
      // An analyst's forged post is refused at the top of the page, and the lock stays.
      const byAnalyst = unwrap(await call(ANALYST, here, background.action, { ...opts, form: { intent: "force-unlock", reason: "mine now" } })) as any;
      expect(byAnalyst).toMatchObject({ status: 403, data: { errors: [background.FORCE_UNLOCK_REFUSED] } });
      expect(await call(ANALYST, here, background.loader, opts)).toMatchObject({ isLocked: true, lockState: "Locked" });
      const noReason = (await call(SUPER, here, background.action, { ...opts, form: { intent: "force-unlock", reason: " " } })) as any;
      expect(unwrap(noReason)).toMatchObject({ status: 400, data: { result: { error: { reason: ["Say why the lock is forced"] } } } });
      const done = await call(SUPER, here, background.action, { ...opts, form: { intent: "force-unlock", reason: "stuck since Monday" } });
      expect(isRedirect(done, here)).toBe(true);
      const after = (await call(ANALYST, here, background.loader, opts)) as any;
      expect(after).toMatchObject({ isLocked: false, lockState: "ForceUnlocked" });
      expect(after.jobs[0]).toMatchObject({ status: "ERROR", error: expect.stringMatching(/: stuck since Monday$/) });
      // Sent again (Back and resend, or a second tab's form): the page, unlocked, draws no Force unlock form, so the
      // refusal is said at its top, and nothing more is recorded.
      const unlocked = await api<Project>(ANALYST, "GET", `/api/v1/projects/${project.id}`);
      const again = unwrap(await call(SUPER, here, background.action, { ...opts, form: { intent: "force-unlock", reason: "stuck since Monday" } })) as any;
      expect(again).toMatchObject({ status: 409, data: { errors: ["The project is not locked."] } });
      // With JavaScript, the page is read again after it: the lock as it is now, no Force unlock form.
      expect(background.shouldRevalidate({ actionStatus: 409, defaultShouldRevalidate: false } as never)).toBe(true);
      expect(await api<Project>(ANALYST, "GET", `/api/v1/projects/${project.id}`)).toMatchObject({ isLocked: false, version: unlocked.version });
    } finally {
      release();
      live.jobs.hooks.beforeStep = undefined;
    }
    await live.jobs.idle();
  });
});

describe("database creation that fails", () => {
  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("shows the failure reason and a Retry that starts it again", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "Fails once");
    const opts = { params: { projectId: project.id }, middleware: wizardLayout.middleware };
    await readyForDatabases(project);

    live.jobs.hooks.beforeStep = (step) => {
      if (step.projectId === project.id && step.name === "Create destination database") throw new Error("disk full");
    };
    // Each post sends the version its page showed, as the step's form does.
    const shown = (await call(ANALYST, wizardUrl(project.id, "databases"), databasesStep.loader, opts)) as any;
    let failed: any;
    try {
      await call(ANALYST, wizardUrl(project.id, "databases"), databasesStep.action, {
        ...opts,
        form: { intent: "create-databases", version: String(shown.project.version) },
      });
      failed = await databasesStepOnceCreationEnded(project.id);
      expect(failed.project).toMatchObject({ status: "DatabaseCreationFailed", isLocked: false });
      expect(failed.job.status).toBe("ERROR");
      expect(failed.job.error).toMatch(/disk full/);
      expect(failed.job.steps.find((s: any) => s.status === "Failed")?.name).toBe("Create destination database");
    } finally {
      live.jobs.hooks.beforeStep = undefined;
    }

    // "Retry" posts the same intent, from the step read again once the job ended; this time the job succeeds.
    const retried = await call(ANALYST, wizardUrl(project.id, "databases"), databasesStep.action, {
      ...opts,
      form: { intent: "create-databases", version: String(failed.project.version) },
    });
    expect(isRedirect(retried, wizardUrl(project.id, "databases"))).toBe(true);
    const done = await databasesStepOnceCreationEnded(project.id);
    expect(done.job, JSON.stringify(done.job)).toMatchObject({ status: "SUCCESS" });
    expect(done.project.status).toBe("SetupRestoreDatabaseIncomplete");
    expect(done.job.status).toBe("SUCCESS");
  });
});

describe("background process", () => {
  it("shows the lock and the project's jobs", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "No jobs yet");
    const result = (await call(ANALYST, projectUrl(project.id, "background-process"), background.loader, {
      params: { projectId: project.id },
      middleware: projectLayout.middleware,
    })) as any;
    expect(result).toMatchObject({ isLocked: false, lockReason: null, lockState: "Unlocked", jobs: [] });
  });
});

describe("wizard step 2: define tables", () => {
  it("adds a table from the TableEditor's form, answers a list intent without JavaScript, and refuses a bad column", async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "Defined here");
    const url = wizardUrl(project.id, "data-dictionary");
    const opts = { params: { projectId: project.id }, middleware: wizardLayout.middleware };
    const step = (await call(ANALYST, url, dictionaryStep.loader, opts)) as any;
    expect(step.tables.items).toEqual([]);
    expect(step.newTable.version).toBe(String(step.dictionary.version));

    // "Add column" without JavaScript: Conform's list intent comes back as a changed form, nothing saved.
    const insert = unwrap(
      await call(ANALYST, url, dictionaryStep.action, {
        ...opts,
        form: [
          ["version", String(step.dictionary.version)],
          ["name", "Orders"],
          ["columns[0].name", "Id"],
          ["columns[0].type", "int"],
          ["__intent__", JSON.stringify({ type: "insert", payload: { name: "columns" } })],
        ],
      }),
    );
    expect(insert?.status).toBe(200);
    expect(insert?.data.result.initialValue.columns).toHaveLength(2);

    const bad = unwrap(
      await call(ANALYST, url, dictionaryStep.action, {
        ...opts,
        form: [
          ["version", String(step.dictionary.version)],
          ["name", "Orders"],
          ["columns[0].name", "Amount"],
          ["columns[0].type", "decimal"],
          ["columns[0].precision", "5"],
          ["columns[0].scale", "9"],
          ["columns[0].nullable", "true"],
        ],
      }),
    );
    expect(bad?.status).toBe(400);
    expect(bad?.data.result.error["columns[0].scale"]).toEqual(["Scale cannot be greater than precision"]);

    const added = await call(ANALYST, url, dictionaryStep.action, {
      ...opts,
      form: [
        ["version", String(step.dictionary.version)],
        ["name", "Orders"],
        ["columns[0].name", "Id"],
        ["columns[0].type", "int"],
        ["columns[0].nullable", "false"],
        ["columns[0].isKey", "on"],
      ],
    });
    expect(isRedirect(added, url)).toBe(true);
    const after = (await call(ANALYST, url, dictionaryStep.loader, opts)) as any;
    expect(after.tables.items).toMatchObject([{ name: "Orders", columnCount: 1 }]);
    expect(after.project.status).toBe("SetupUploadTypeIncomplete");
  });
});

describe("wizard step 2: the master dictionaries and the tables, a page of each", () => {
  it("finds the application's master dictionaries by name a page at a time and pages the project's tables, each list keeping the other", async () => {
    const app = await newApplication(ANALYST, acme.id, "Paged Ledger");
    const project = await newProject(ANALYST, acme.id, app.id, "Many of each");
    for (const name of [...Array.from({ length: 11 }, (_, i) => `Ledger ${String(i + 1).padStart(2, "0")}`), "Payroll"]) {
      await api(ANALYST, "POST", "/api/v1/data-dictionaries", { companyId: acme.id, applicationId: app.id, name, description: null });
    }
    await addOrdersTables(project, 11);
    const opts = { params: { projectId: project.id }, middleware: wizardLayout.middleware };
    const step = async (query: string) => (await call(ANALYST, `${wizardUrl(project.id, "data-dictionary")}&${query}`, dictionaryStep.loader, opts)) as any;

    // The second page of each list at once: the data API counts and pages both.
    const second = await step("pageSize=10&page=2&tablesPageSize=10&tablesPage=2");
    expect(second.masters).toMatchObject({ page: 2, pageSize: 10, total: 12 });
    expect(second.masters.items.map((d: any) => d.name)).toEqual(["Ledger 11", "Payroll"]);
    expect(second.tables).toMatchObject({ page: 2, pageSize: 10, total: 11 });
    expect(second.tables.items.map((t: any) => t.name)).toEqual(["Orders11"]);
    // The tables' page size is their own: a size not offered falls back to the default (25), which lists all eleven, and leaves the dictionaries' size alone.
    const unoffered = await step("pageSize=10&tablesPageSize=7");
    expect(unoffered.tables).toMatchObject({ page: 1, pageSize: 25, total: 11 });
    expect(unoffered.tables.items).toHaveLength(11);
    expect(unoffered.masters).toMatchObject({ pageSize: 10 });

    // A name search, any case, on its second page; the tables stay on their first.
    const found = await step("name=LEDGER&pageSize=10&page=2");
    expect(found.masters).toMatchObject({ page: 2, total: 11 });
    expect(found.masters.items.map((d: any) => d.name)).toEqual(["Ledger 11"]);
    expect(found.tables.items.map((t: any) => t.name)).toEqual(Array.from({ length: 11 }, (_, i) => `Orders${String(i + 1).padStart(2, "0")}`));
    expect((await step("name=nothing-like-it")).masters).toMatchObject({ total: 0, items: [] });
  });
});

describe("the project's own data dictionary", () => {
  let project: Project;
  const params = () => ({ projectId: project.id });
  const mw = () => [...projectLayout.middleware, ...dictionaryLayout.middleware];
  const tablesUrl = () => projectUrl(project.id, "data-dictionary/data-definition/tables");

  beforeAll(async () => {
    project = await newProject(ANALYST, acme.id, acmeApp.id, "Own dictionary");
  });

  it("adds, lists with a name filter, edits and deletes tables, based on the dictionary's version", async () => {
    const fresh = (await call(ANALYST, projectUrl(project.id, "data-dictionary/data-definition/tables/new"), tableNew.loader, {
      params: params(),
      middleware: mw(),
    })) as any;
    for (const name of ["Invoices", "InvoiceLines", "Vendors"]) {
      const version = ((await call(ANALYST, tablesUrl(), dictionaryLayout.loader, { params: params(), middleware: mw() })) as any).dictionary.version;
      const added = await call(ANALYST, projectUrl(project.id, "data-dictionary/data-definition/tables/new"), tableNew.action, {
        params: params(),
        middleware: mw(),
        form: [
          ["version", String(version)],
          ["name", name],
          ["columns[0].name", "Id"],
          ["columns[0].type", "int"],
          ["columns[0].nullable", "false"],
        ],
      });
      expect(isRedirect(added, tablesUrl())).toBe(true);
    }
    expect(fresh.defaultValue.columns).toHaveLength(1);

    const filtered = (await call(ANALYST, `${tablesUrl()}&name=invoice`, tablesPage.loader, { params: params(), middleware: mw() })) as any;
    expect(filtered.page.items.map((t: any) => t.name)).toEqual(["Invoices", "InvoiceLines"]);
    expect(filtered.canEdit).toBe(true);
    const invoices = filtered.page.items[0];

    // A stale save is refused and changes nothing.
    const table = (await call(ANALYST, projectUrl(project.id, `data-dictionary/tables/${invoices.id}/details`), tableDetails.loader, {
      params: { ...params(), tableId: invoices.id },
      middleware: mw(),
    })) as any;
    expect(table.table.columns.map((c: any) => c.name)).toEqual(["Id"]);
    const editForm = (version: string): [string, string][] => [
      ["version", version],
      ["tableId", invoices.id],
      ["name", "Invoices"],
      ["columns[0].name", "Id"],
      ["columns[0].type", "int"],
      ["columns[0].nullable", "false"],
      ["columns[1].name", "Total"],
      ["columns[1].type", "decimal"],
      ["columns[1].precision", "18"],
      ["columns[1].scale", "2"],
      ["columns[1].nullable", "true"],
    ];
    const stale = unwrap(
      await call(ANALYST, projectUrl(project.id, `data-dictionary/tables/${invoices.id}/details`), tableDetails.action, {
        params: { ...params(), tableId: invoices.id },
        middleware: mw(),
        form: editForm(String(Number(table.defaultValue.version) - 1)),
      }),
    );
    expect(stale?.status).toBe(409);
    // A forged Nullable (a checkbox sends "on", "true" or nothing) is refused at its box, in words, before anything is sent.
    const forged = unwrap(
      await call(ANALYST, projectUrl(project.id, `data-dictionary/tables/${invoices.id}/details`), tableDetails.action, {
        params: { ...params(), tableId: invoices.id },
        middleware: mw(),
        form: editForm(table.defaultValue.version).map(([k, v]): [string, string] => [k, k === "columns[0].nullable" ? "maybe" : v]),
      }),
    );
    expect(forged?.status).toBe(400);
    expect(forged?.data.result.error).toEqual({ "columns[0].nullable": ["Tick or untick this box."] });
    // The URL names the table: Invoices' page posted a form naming InvoiceLines is refused at the top, and changes neither.
    const invoiceLines = filtered.page.items[1];
    const otherTable = unwrap(
      await call(ANALYST, projectUrl(project.id, `data-dictionary/tables/${invoices.id}/details`), tableDetails.action, {
        params: { ...params(), tableId: invoices.id },
        middleware: mw(),
        form: editForm(table.defaultValue.version).map(([k, v]): [string, string] => [k, k === "tableId" ? invoiceLines.id : v]),
      }),
    );
    expect(otherTable?.status).toBe(400);
    expect(otherTable?.data.result.error[""]).toEqual([OTHER_TABLE]);
    for (const { id } of [invoices, invoiceLines])
      expect((await api(ANALYST, "GET", `/api/v1/projects/${project.id}/data-dictionary/tables/${id}/table-details`)).columns.map((c: any) => c.name)).toEqual(["Id"]);
    const saved = await call(ANALYST, projectUrl(project.id, `data-dictionary/tables/${invoices.id}/details`), tableDetails.action, {
      params: { ...params(), tableId: invoices.id },
      middleware: mw(),
      form: editForm(table.defaultValue.version),
    });
    expect(isRedirect(saved, tablesUrl())).toBe(true);
    const master = await api(ANALYST, "GET", `/api/v1/projects/${project.id}/data-dictionary/tables/${invoices.id}/table-details`);
    expect(master.columns.map((c: any) => c.name)).toEqual(["Id", "Total"]);

    // Delete, through the confirmation (?delete=).
    const confirm = (await call(ANALYST, `${tablesUrl()}&delete=${invoices.id}`, tablesPage.loader, { params: params(), middleware: mw() })) as any;
    expect(confirm.deleting).toMatchObject({ id: invoices.id, name: "Invoices" });
    const deleted = await call(ANALYST, tablesUrl(), tablesPage.action, {
      params: params(),
      middleware: mw(),
      form: { intent: "delete-table", tableId: invoices.id, version: String(confirm.version) },
    });
    expect(isRedirect(deleted, tablesUrl())).toBe(true);
    const left = (await call(ANALYST, tablesUrl(), tablesPage.loader, { params: params(), middleware: mw() })) as any;
    expect(left.page.items.map((t: any) => t.name)).toEqual(["InvoiceLines", "Vendors"]);
  });

  it("lists the tables a chosen page size at a time, a size not offered falling back to the default (25)", async () => {
    const many = await newProject(ANALYST, acme.id, acmeApp.id, "Own dictionary of many");
    await addOrdersTables(many, 11);
    const url = projectUrl(many.id, "data-dictionary/data-definition/tables");
    const load = async (query: string) =>
      (await call(ANALYST, `${url}&${query}`, tablesPage.loader, { params: { projectId: many.id }, middleware: mw() })) as any;
    const names = (data: any) => data.page.items.map((t: any) => t.name);

    const first = await load("pageSize=10");
    expect(first.page).toMatchObject({ page: 1, pageSize: 10, total: 11 });
    expect(names(first)).toHaveLength(10);
    expect(names(await load("pageSize=10&page=2"))).toEqual(["Orders11"]);
    const unoffered = await load("pageSize=7");
    expect(unoffered.query).toMatchObject({ page: 1, pageSize: 25 });
    expect(names(unoffered)).toHaveLength(11);
  });

  it("saves a column whose new type takes no Length, Precision or Scale, though a form without JavaScript still posts them", async () => {
    const newUrl = projectUrl(project.id, "data-dictionary/data-definition/tables/new");
    const version = ((await call(ANALYST, tablesUrl(), dictionaryLayout.loader, { params: params(), middleware: mw() })) as any).dictionary.version;
    // A new column: int, with the Length typed while it was nvarchar.
    const added = await call(ANALYST, newUrl, tableNew.action, {
      params: params(),
      middleware: mw(),
      form: [
        ["version", String(version)],
        ["name", "Payments"],
        ["columns[0].name", "Ref"],
        ["columns[0].type", "int"],
        ["columns[0].length", "50"],
        ["columns[0].nullable", "true"],
        ["columns[1].name", "Amount"],
        ["columns[1].type", "decimal"],
        ["columns[1].precision", "10"],
        ["columns[1].scale", "2"],
        ["columns[1].nullable", "true"],
      ],
    });
    expect(isRedirect(added, tablesUrl())).toBe(true);
    const [payments] = ((await call(ANALYST, `${tablesUrl()}&name=Payments`, tablesPage.loader, { params: params(), middleware: mw() })) as any).page.items;
    const detailsUrl = projectUrl(project.id, `data-dictionary/tables/${payments.id}/details`);
    const columnsOf = async () =>
      (await api(ANALYST, "GET", `/api/v1/projects/${project.id}/data-dictionary/tables/${payments.id}/table-details`)).columns.map((c: any) => [
        c.name,
        c.type,
        c.length,
        c.precision,
        c.scale,
      ]);
    expect(await columnsOf()).toEqual([
      ["Ref", "int", null, null, null],
      ["Amount", "decimal", null, 10, 2],
    ]);

    // An edit: Ref back to nvarchar(20), Amount to int with its precision and scale still in the form.
    const details = (await call(ANALYST, detailsUrl, tableDetails.loader, { params: { ...params(), tableId: payments.id }, middleware: mw() })) as any;
    const saved = await call(ANALYST, detailsUrl, tableDetails.action, {
      params: { ...params(), tableId: payments.id },
      middleware: mw(),
      form: [
        ["version", details.defaultValue.version],
        ["tableId", payments.id],
        ["name", "Payments"],
        ["columns[0].name", "Ref"],
        ["columns[0].type", "nvarchar"],
        ["columns[0].length", "20"],
        ["columns[0].nullable", "true"],
        ["columns[1].name", "Amount"],
        ["columns[1].type", "int"],
        ["columns[1].precision", "10"],
        ["columns[1].scale", "2"],
        ["columns[1].nullable", "true"],
      ],
    });
    expect(isRedirect(saved, tablesUrl())).toBe(true);
    expect(await columnsOf()).toEqual([
      ["Ref", "nvarchar", 20, null, null],
      ["Amount", "int", null, null, null],
    ]);
    // The data API itself still refuses a length with a type that takes none.
    await expect(
      api(ANALYST, "PATCH", `/api/v1/projects/${project.id}/data-dictionary/tables`, {
        version: Number(details.defaultValue.version) + 1,
        tableId: payments.id,
        name: "Payments",
        description: null,
        columns: [{ name: "Ref", type: "int", length: 20, precision: null, scale: null, nullable: true, isKey: false, description: null }],
      }),
    ).rejects.toMatchObject({ init: { status: 400 } });
  });

  it("uploads a file for review, and applies it", async () => {
    const form = new FormData();
    form.set("file", new File(["table,column,type,length\nVendors,Name,nvarchar,80\n"], "vendors.csv", { type: "text/csv" }));
    const uploaded = await call(ANALYST, projectUrl(project.id, "data-dictionary/bulk-update/upload-data"), uploadPage.action, {
      params: params(),
      middleware: mw(),
      form,
    });
    expect(isRedirect(uploaded, new RegExp(`/data-dictionary/bulk-update/review/tables\\?companyId=${acme.id}&review=`))).toBe(true);
    const reviewUrl = (uploaded as Response).headers.get("Location")!;
    const review = (await call(ANALYST, reviewUrl, reviewPage.loader, { params: params(), middleware: mw() })) as any;
    expect(review.tables.items).toMatchObject([{ name: "Vendors", status: "changed" }]);
    // The table's own page, named in any case (table names are one name in any case): the file's table, under its own name; a table the upload lacks is a 404.
    const reviewId = new URL(reviewUrl, "http://portal.test").searchParams.get("review")!;
    const tablePage = (name: string) =>
      call(ANALYST, `${projectUrl(project.id, `data-dictionary/bulk-update/review/tables/${name}/details`)}&review=${reviewId}`, reviewTablePage.loader, {
        params: { ...params(), tableName: name },
        middleware: mw(),
      });
    for (const name of ["Vendors", "vendors", "VENDORS"]) {
      const shown = (await tablePage(name)) as any;
      expect(shown.tableName, name).toBe("Vendors");
      expect(shown.tables.items, name).toMatchObject([{ name: "Vendors", status: "changed" }]);
    }
    expect(thrownData(await tablePage("Nope"))).toEqual({ status: 404, body: { errors: ["The upload has no table Nope."] } });
    // A name longer than any table's (a hand-edited or cut link): the same 404 in words, never the data API's 400 in Zod's.
    const long = "V".repeat(129);
    expect(thrownData(await tablePage(long))).toEqual({ status: 404, body: { errors: [`The upload has no table ${long}.`] } });
    // Left without applying, the upload is found again from the dictionary's pages.
    for (const page of [tablesPage, uploadPage]) {
      const shown = (await call(ANALYST, tablesUrl(), page.loader, { params: params(), middleware: mw() })) as any;
      expect(shown.pending).toMatchObject({ review: { fileName: "vendors.csv" }, to: { search: { review: review.review.id } } });
      expect(shown.pending.to.path).toBe(`/migration/projects/${project.id}/data-dictionary/bulk-update/review/tables`);
    }
    // A post without its review (forged or cut short) is refused at the top, in words; nothing is applied.
    const forged = unwrap(await call(ANALYST, reviewUrl, reviewPage.action, { params: params(), middleware: mw(), form: { intent: "apply" } }));
    expect(forged?.status).toBe(400);
    expect(forged?.data.result.error).toEqual({ "": [INCOMPLETE_REQUEST] });
    const applied = await call(ANALYST, reviewUrl, reviewPage.action, {
      params: params(),
      middleware: mw(),
      form: { intent: "apply", reviewId: review.review.id },
    });
    expect(isRedirect(applied, tablesUrl())).toBe(true);
    const after = (await call(ANALYST, tablesUrl(), tablesPage.loader, { params: params(), middleware: mw() })) as any;
    expect(after.pending).toBeNull();
  });

  it("sends edit pages of a locked project to its background-process page, and of a read-only user to the tables", async () => {
    const bg = projectUrl(project.id, "background-process");
    for (const page of [tableNew, uploadPage]) {
      const result = await call(ANALYST, projectUrl(project.id, "data-dictionary/data-definition/tables/new"), page.loader, {
        params: params(),
        middleware: [...projectLayout.middleware, lockedBy("FlatFileCreation"), ...dictionaryLayout.middleware],
      });
      expect(isRedirect(result, bg)).toBe(true);
    }
    const locked = (await call(ANALYST, tablesUrl(), tablesPage.loader, {
      params: params(),
      middleware: [...projectLayout.middleware, lockedBy("FlatFileCreation"), ...dictionaryLayout.middleware],
    })) as any;
    expect(locked.canEdit).toBe(false);

    const birchProject = await newProject(ANALYST, birch.id, birchApp.id, "Dictionary read only");
    await api(ANALYST, "PUT", `/api/v1/projects/${birchProject.id}/users/${CLIENT_ADMIN_ID}`, { canRead: true, canWrite: false });
    const birchParams = { projectId: birchProject.id };
    const birchTables = projectUrl(birchProject.id, "data-dictionary/data-definition/tables", birch.id);
    for (const page of [tableNew, uploadPage]) {
      const result = await call(CLIENT_ADMIN, projectUrl(birchProject.id, "data-dictionary/bulk-update/upload-data", birch.id), page.loader, {
        params: birchParams,
        middleware: mw(),
      });
      expect(isRedirect(result, birchTables)).toBe(true);
    }
    const readOnly = (await call(CLIENT_ADMIN, birchTables, tablesPage.loader, { params: birchParams, middleware: mw() })) as any;
    expect(readOnly.canEdit).toBe(false);
  });
});

describe("changing the dictionary after the databases exist", () => {
  it.skipIf(!TEST_POSTGRES_ADMIN_URL)('a save that deletes loaded values lists them at the top; "Apply and delete this data" posts it again, confirmed', async () => {
    const project = await newProject(ANALYST, acme.id, acmeApp.id, "Dictionary follows");
    await readyForDatabases(project);
    await api(ANALYST, "POST", `/api/v1/projects/${project.id}/try-create-databases`);
    await live.jobs.idle();
    const params = { projectId: project.id };
    const mw = [...projectLayout.middleware, ...dictionaryLayout.middleware];
    const tablesUrl = projectUrl(project.id, "data-dictionary/data-definition/tables");
    const customers = ((await call(ANALYST, tablesUrl, tablesPage.loader, { params, middleware: mw })) as any).page.items[0];
    const detailsUrl = projectUrl(project.id, `data-dictionary/tables/${customers.id}/details`);
    const save = async (columns: [string, string][], extra: [string, string][] = []) => {
      const { defaultValue } = (await call(ANALYST, detailsUrl, tableDetails.loader, { params: { ...params, tableId: customers.id }, middleware: mw })) as any;
      const form: [string, string][] = [
        ["version", defaultValue.version],
        ["tableId", customers.id],
        ["name", "Customers"],
        ["columns[0].name", "Id"],
        ["columns[0].type", "int"],
        ["columns[0].nullable", "false"],
        ["columns[0].isKey", "on"],
        ...columns,
        ...extra,
      ];
      return call(ANALYST, detailsUrl, tableDetails.action, { params: { ...params, tableId: customers.id }, middleware: mw, form });
    };

    // A new column: the databases get it, and a load fills it.
    expect(
      isRedirect(
        await save([
          ["columns[1].name", "Name"],
          ["columns[1].type", "nvarchar"],
          ["columns[1].length", "20"],
          ["columns[1].nullable", "true"],
        ]),
        tablesUrl,
      ),
    ).toBe(true);
    const file = new FormData();
    file.set("file", new Blob(["Id,Name\n1,Ann\n2,Bob\n"]), "customers.csv");
    file.set("table", "Customers");
    await call(ANALYST, projectUrl(project.id, "databases/flat-file/update-source"), loadPage.action, {
      params,
      middleware: projectLayout.middleware,
      form: file,
    });
    await live.jobs.idle();

    // Without Name: refused, the page lists what would go and carries the form to send again.
    const refused = unwrap(await save([]));
    expect(refused?.status).toBe(409);
    expect(refused?.data.dataLoss.lines).toEqual(["Dropping column Name of Customers deletes 2 values in the source database"]);
    expect(refused?.data.result.error[""]).toEqual([
      "Nothing was saved: this change deletes data from the databases. Confirm it at the top of the page, or change it.",
    ]);
    const detailsNow = (await call(ANALYST, detailsUrl, tableDetails.loader, { params: { ...params, tableId: customers.id }, middleware: mw })) as any;
    expect(detailsNow.table.columns.map((c: any) => c.name)).toEqual(["Id", "Name"]);

    // The confirmation's button: the same fields again, with confirmDataLoss.
    const confirmed = await call(ANALYST, detailsUrl, tableDetails.action, {
      params: { ...params, tableId: customers.id },
      middleware: mw,
      form: [...(refused?.data.dataLoss.resubmit as [string, string][]), ["confirmDataLoss", "true"]],
    });
    expect(isRedirect(confirmed, tablesUrl)).toBe(true);
    const after = (await call(ANALYST, detailsUrl, tableDetails.loader, { params: { ...params, tableId: customers.id }, middleware: mw })) as any;
    expect(after.table.columns.map((c: any) => c.name)).toEqual(["Id"]);
    const databases = await api<any>(ANALYST, "GET", `/api/v1/projects/${project.id}/databases/source/tables/Customers/rows`);
    expect(databases.columns.map((c: any) => c.name)).toEqual(["Id"]);
    expect(databases.items).toEqual([["1"], ["2"]]);
  });
});
