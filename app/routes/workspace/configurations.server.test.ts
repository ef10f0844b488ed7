import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES, demoAdminDataSources } from "../../../scripts/demo-data";
import { isRedirect, startLiveServices } from "~/test/live-services";
import { SENT_MORE_THAN_ONCE } from "~/lib/forms.server";
import { unpackRows } from "~/lib/packed-rows";
import { TEST_POSTGRES_ADMIN_URL } from "../../../services/shared/testing/databases";

/**
 * The workspace modules serving onboarding configurations (the migration side is projects.server.test.ts):
 * the same loaders and actions, reached under /onboarding/configurations, talk to /api/v1/audit-projects.
 */
const live = await startLiveServices();
afterAll(() => live.stop());

const { createHarness, unwrap } = await import("./test-support");
const { call, api } = await createHarness();
const list = await import("./list");
const create = await import("./create/details");
const wizardLayout = await import("./create/layout");
const dictionaryStep = await import("./create/data-dictionary");
const templatesStep = await import("./create/templates");
const workspaceLayout = await import("./project/layout");
const details = await import("./project/details");
const databases = await import("./project/databases-current");
const loadPage = await import("./project/databases-load");
const comparePage = await import("./project/databases-compare");

const [, acme, birch] = DEMO_COMPANIES;
const ANALYST = "analyst@demo.test";
const [benefit, contribution] = demoAdminDataSources(acme.id);
const base = "/onboarding/configurations";
const at = (path: string, companyId: string = acme.id) => `${base}${path}?companyId=${companyId}`;

let application: { id: string };
beforeAll(async () => {
  application = await api(ANALYST, "POST", "/api/v1/applications", { companyId: acme.id, name: "Payroll system", description: null });
});

async function createConfiguration(name: string, schemeIds: string[]) {
  const form: [string, string][] = [["name", name], ["applicationId", application.id], ...schemeIds.map((id): [string, string] => ["schemeIds", id])];
  return call(ANALYST, at("/create"), create.action, { form });
}

describe("onboarding configurations through the workspace pages", () => {
  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("creates one with two schemes, resumes its wizard, creates its databases and opens the templates step", async () => {
    const loaded = (await call(ANALYST, at("/create"), create.loader)) as any;
    expect(loaded.schemes.map((s: any) => s.label)).toEqual(
      demoAdminDataSources(acme.id)
        .map((s) => s.name)
        .sort(),
    );

    const created = await createConfiguration("Quarterly members", [benefit!.id, contribution!.id]);
    expect(isRedirect(created, new RegExp(`^${base}/create/[^/]+/data-dictionary\\?companyId=${acme.id}$`))).toBe(true);
    const id = /create\/([^/]+)\//.exec((created as Response).headers.get("Location")!)![1]!;
    const opts = { params: { configurationId: id }, middleware: wizardLayout.middleware };

    const found = (await call(ANALYST, at(""), list.loader)) as any;
    const row = unpackRows<any>(found.result.items).find((c) => c.id === id);
    // The list returns what its rows show: the schemes' names.
    expect(row.schemes).toEqual([benefit!.name, contribution!.name]);

    // No table yet: the step stays, and creating the databases is refused with the reason.
    const step = (await call(ANALYST, at(`/create/${id}/data-dictionary`), dictionaryStep.loader, opts)) as any;
    expect(step.createsDatabases).toBe(true);
    const refused = unwrap(await call(ANALYST, at(`/create/${id}/data-dictionary`), dictionaryStep.action, { ...opts, form: { intent: "create-databases" } }));
    expect(refused?.status).toBe(409);
    expect(refused?.data.createError).toMatch(/no tables/);

    const own = await api<any>(ANALYST, "GET", `/api/v1/audit-projects/${id}/data-dictionary`);
    await api(ANALYST, "POST", `/api/v1/audit-projects/${id}/data-dictionary/tables`, {
      version: own.version,
      name: "Members",
      description: null,
      columns: [{ name: "MemberId", type: "int", nullable: false, isKey: true }],
    });
    const started = await call(ANALYST, at(`/create/${id}/data-dictionary`), dictionaryStep.action, { ...opts, form: { intent: "create-databases" } });
    expect(isRedirect(started, at(`/${id}/background-process`))).toBe(true);

    let status = "";
    for (let i = 0; i < 100 && status !== "SetupAssignTemplatesIncomplete"; i++) {
      status = (await api<any>(ANALYST, "GET", `/api/v1/audit-projects/${id}`)).status;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe("SetupAssignTemplatesIncomplete");

    // The dictionary step has closed: it resumes at templates, which opens.
    const resumed = await call(ANALYST, at(`/create/${id}/data-dictionary`), dictionaryStep.loader, opts);
    expect(isRedirect(resumed, at(`/create/${id}/templates`))).toBe(true);
    expect(await call(ANALYST, at(`/create/${id}/templates`), templatesStep.loader, opts)).toMatchObject({ project: { id } });

    const current = (await call(ANALYST, at(`/${id}/databases/current`), databases.loader, {
      params: { configurationId: id },
      middleware: workspaceLayout.middleware,
    })) as any;
    expect(current.databases.map((d: any) => [d.name, d.exists, d.tables.map((t: any) => t.name)])).toEqual([
      ["Source database", true, ["Members"]],
      ["Destination database", true, ["Members"]],
    ]);

    // Its deliveries are read as its load page says, saved through /audit-projects as a project's are.
    const loadOpts = { params: { configurationId: id }, middleware: workspaceLayout.middleware };
    const loadUrl = at(`/${id}/databases/flat-file/update-source`);
    const shown = (await call(ANALYST, loadUrl, loadPage.loader, loadOpts)) as any;
    expect(shown.parameters).toBeNull();
    const form = {
      intent: "save-parameters",
      version: String(shown.version),
      extension: ".xlsx",
      delimiter: "Excel",
      worksheet: "Members",
      hasHeaderRow: "on",
      encoding: "AutoDetect",
      dateOrder: "MDY",
    };
    expect(isRedirect(await call(ANALYST, loadUrl, loadPage.action, { ...loadOpts, form }), loadUrl)).toBe(true);
    expect(((await call(ANALYST, loadUrl, loadPage.loader, loadOpts)) as any).parameters).toMatchObject({
      extension: ".xlsx",
      worksheet: "Members",
      dateOrder: "MDY",
    });
  });

  it("refuses a duplicate name and a configuration without a scheme at the field, and changes nothing", async () => {
    await createConfiguration("Annual statements", [benefit!.id]);
    const before = (await api<any>(ANALYST, "GET", "/api/v1/audit-projects/search", undefined, { companyId: acme.id, pageSize: "100" })).total;

    const duplicate = unwrap(await createConfiguration("annual STATEMENTS", [benefit!.id]));
    expect(duplicate?.status).toBe(409);
    expect(duplicate?.data.result.error.name).toEqual(["A configuration with this name already exists in this company"]);

    const noScheme = unwrap(await createConfiguration("No schemes", []));
    expect(noScheme?.status).toBe(400);
    expect(noScheme?.data.result.error.schemeIds).toEqual(["Choose at least one scheme"]);

    const otherCompany = unwrap(await createConfiguration("Other company's scheme", [demoAdminDataSources(birch.id)[0]!.id]));
    expect(otherCompany?.status).toBe(400);
    expect(otherCompany?.data.result.error.schemeIds).toEqual(["A chosen scheme is no longer one of this company's: choose again."]);

    expect((await api<any>(ANALYST, "GET", "/api/v1/audit-projects/search", undefined, { companyId: acme.id, pageSize: "100" })).total).toBe(before);
  });

  it("asks for an earlier delivery at its field when a comparison is posted without one (a history entry's id is not what the page offers)", async () => {
    const created = await createConfiguration("Compared deliveries", [benefit!.id]);
    const id = /create\/([^/]+)\//.exec((created as Response).headers.get("Location")!)![1]!;
    const opts = { params: { configurationId: id }, middleware: workspaceLayout.middleware };
    const forms: Record<string, string>[] = [{ historyId: "h1" }, { backupId: " " }];
    for (const form of forms) {
      const refused = unwrap(await call(ANALYST, at(`/${id}/databases/compare-source`), comparePage.action, { ...opts, form }));
      expect(refused?.status).toBe(400);
      expect(refused?.data.result.error).toEqual({ backupId: ["Choose the earlier data to compare with"] });
    }
  });

  it("refuses a field sent more than once (a forged or mangled post) at that field in words, on the compare and create pages, and changes nothing", async () => {
    const created = await createConfiguration("Compared twice", [benefit!.id]);
    const id = /create\/([^/]+)\//.exec((created as Response).headers.get("Location")!)![1]!;
    const opts = { params: { configurationId: id }, middleware: workspaceLayout.middleware };
    const backups: [string, string][] = [
      ["backupId", "A"],
      ["backupId", "x"],
    ];
    const twice = unwrap(await call(ANALYST, at(`/${id}/databases/compare-source`), comparePage.action, { ...opts, form: backups }));
    expect(twice?.status).toBe(400);
    expect(twice?.data.result.error).toEqual({ backupId: [SENT_MORE_THAN_ONCE] });

    const before = (await api<any>(ANALYST, "GET", "/api/v1/audit-projects/search", undefined, { companyId: acme.id, pageSize: "100" })).total;
    const form: [string, string][] = [
      ["name", "Sent twice"],
      ["name", "Sent twice, again"],
      ["applicationId", application.id],
      ["schemeIds", benefit!.id],
      ["schemeIds", contribution!.id],
    ];
    const refused = unwrap(await call(ANALYST, at("/create"), create.action, { form }));
    expect(refused?.status).toBe(400);
    // The schemes are a list: two of them are two schemes, not a field sent twice.
    expect(refused?.data.result.error).toEqual({ name: [SENT_MORE_THAN_ONCE] });
    expect((await api<any>(ANALYST, "GET", "/api/v1/audit-projects/search", undefined, { companyId: acme.id, pageSize: "100" })).total).toBe(before);
  });

  it("moves the default when another configuration is marked default on its details page", async () => {
    const created = await createConfiguration("Becomes default", [contribution!.id]);
    const id = /create\/([^/]+)\//.exec((created as Response).headers.get("Location")!)![1]!;
    const opts = { params: { configurationId: id }, middleware: workspaceLayout.middleware };
    const page = (await call(ANALYST, at(`/${id}/details`), details.loader, opts)) as any;
    expect(page.project.isDefault).toBe(false);
    const form: [string, string][] = [
      ["intent", "update"],
      ["version", String(page.project.version)],
      ["name", "Becomes default"],
      ["schemeIds", contribution!.id],
      ["isDefault", "on"],
    ];
    expect(isRedirect(await call(ANALYST, at(`/${id}/details`), details.action, { ...opts, form }), at(`/${id}/details`))).toBe(true);
    const check = await api<any>(ANALYST, "GET", `/api/v1/audit-projects/checkdefaultproject/${acme.id}`);
    expect(check.defaultConfiguration).toEqual({ id, name: "Becomes default" });
  });

  it("answers 404 for another company's configuration, and for a configuration under /migration/projects", async () => {
    const birchApp = await api<any>(ANALYST, "POST", "/api/v1/applications", { companyId: birch.id, name: "Birch payroll", description: null });
    const other = await api<any>(ANALYST, "POST", "/api/v1/audit-projects", {
      companyId: birch.id,
      name: "Birch only",
      applicationId: birchApp.id,
      schemeIds: [demoAdminDataSources(birch.id)[0]!.id],
    });
    const inAcme = unwrap(
      await call(ANALYST, at(`/${other.id}/details`), details.loader, { params: { configurationId: other.id }, middleware: workspaceLayout.middleware }),
    );
    expect(inAcme?.status).toBe(404);
    expect(inAcme?.data.errors).toEqual(["Configuration not found."]);

    const asProject = unwrap(
      await call(ANALYST, `/migration/projects/${other.id}/details?companyId=${birch.id}`, details.loader, {
        params: { projectId: other.id },
        middleware: workspaceLayout.middleware,
      }),
    );
    expect(asProject?.status).toBe(404);
    expect(asProject?.data.errors).toEqual(["Project not found."]);
  });
});
