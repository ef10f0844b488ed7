/**
 * A workspace's templates while a job holds its lock, through the portal's loaders and actions against
 * the live services: a script's text is still saved (a run keeps the versions it started with), and
 * the save says which run uses it; a write the lock stops says why where it lands.
 */
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../scripts/demo-data";
import { flashOf } from "~/test/flash-of";
import { isRedirect, startLiveServices } from "~/test/live-services";

const live = await startLiveServices();
afterAll(() => live.stop());

const { createHarness, unwrap } = await import("../workspace/test-support");
const { call, api, migrationProject } = await createHarness();
const projectLayout = await import("../workspace/project/layout");
const templateLayout = await import("./template-layout");
const scriptLayout = await import("./script-layout");
const scriptEdit = await import("./script-edit");
const templateEdit = await import("./template-edit");
const scriptCreate = await import("./script-create");
const details = await import("../workspace/project/details");

const [, acme] = DEMO_COMPANIES;
const ANALYST = "analyst@demo.test";

/** A project of acme with a template of its own (level "Load", script "Customers" locked for editing by the analyst), locked by a run. */
async function projectUnderRun() {
  const project = await migrationProject(ANALYST, acme.id, "Under run");
  const templates = `/api/v1/projects/${project.id}/templates`;
  const template = await api(ANALYST, "POST", templates, { name: "Main", type: "Core" });
  const withLevel = await api(ANALYST, "POST", `${templates}/${template.id}/levels`, { version: template.version, name: "Load" });
  const levelId = withLevel.levels[0].id as string;
  const script = await api(ANALYST, "POST", `${templates}/${template.id}/levels/${levelId}/scripts`, {
    version: withLevel.version,
    name: "Customers",
    sql: "select 1;",
  });
  await api(ANALYST, "POST", `${templates}/${template.id}/scripts/${script.id}/lock`);
  await live.dataApiDb.updateTable("projects").set({ is_locked: 1, lock_reason: "ProjectRun", lock_state: "Locked" }).where("id", "=", project.id).execute();
  const templatePath = `/migration/projects/${project.id}/templates/${template.id}/edit`;
  return {
    projectId: project.id,
    template: { id: template.id as string, version: (await api(ANALYST, "GET", `${templates}/${template.id}`)).version as number },
    scriptPath: `${templatePath}/level/${levelId}/script/edit/${script.id}?companyId=${acme.id}`,
    templatePath: `${templatePath}?companyId=${acme.id}`,
    params: { projectId: project.id, templateId: template.id as string, levelId, scriptId: script.id as string },
  };
}

const scriptMiddleware = [...projectLayout.middleware, ...templateLayout.middleware, ...scriptLayout.middleware] as never[];

describe("a workspace locked by a run", () => {
  it("answers 404 to a script's create page for a level its template has not, before the lock's redirect, every time; its own level's goes to the background-process page", async () => {
    const { projectId, params } = await projectUnderRun();
    const create = (levelId: string, action = false) =>
      call(
        ANALYST,
        `/migration/projects/${projectId}/templates/${params.templateId}/edit/level/${levelId}/script/create?companyId=${acme.id}`,
        action ? scriptCreate.action : scriptCreate.loader,
        {
          params: { ...params, levelId },
          middleware: [...projectLayout.middleware, ...templateLayout.middleware] as never[],
          ...(action ? { form: { version: "1", name: "During the run", sql: "select 1;" } } : {}),
        },
      );
    for (let i = 0; i < 5; i++) {
      expect(unwrap(await create(crypto.randomUUID()))?.status).toBe(404);
      expect(unwrap(await create(crypto.randomUUID(), true))?.status).toBe(404);
    }
    expect(isRedirect(await create(params.levelId), new RegExp(`/migration/projects/${projectId}/background-process\\?`))).toBe(true);
  });

  it("keeps its scripts' editor open, saves a new version and says the run under way keeps the one it started with", async () => {
    const { scriptPath, params } = await projectUnderRun();
    const page = (await call(ANALYST, scriptPath, scriptEdit.loader, { params, middleware: scriptMiddleware })) as { editable: boolean; runUnderWay: boolean };
    expect(page).toMatchObject({ editable: true, runUnderWay: true });
    const saved = await call(ANALYST, scriptPath, scriptEdit.action, {
      params,
      middleware: scriptMiddleware,
      form: { intent: "save", baseVersion: "1", sql: "select 2;", comment: "During the run" },
    });
    expect(isRedirect(saved, new RegExp(`/script/edit/${params.scriptId}\\?companyId=`))).toBe(true);
    expect(await flashOf(saved)).toEqual({ kind: "success", text: scriptEdit.savedDuringRunMessage(2) });
  });

  it("sends a template's other change and the project's details to the background-process page, saying why and that nothing was changed", async () => {
    const { projectId, template, templatePath, params } = await projectUnderRun();
    const renamed = await call(ANALYST, templatePath, templateEdit.action, {
      params,
      middleware: [...projectLayout.middleware, ...templateLayout.middleware] as never[],
      form: { intent: "update", version: String(template.version), name: "Renamed", description: "", type: "Core" },
    });
    expect(isRedirect(renamed, new RegExp(`/migration/projects/${projectId}/background-process\\?companyId=`))).toBe(true);
    const said = {
      kind: "error",
      text: "Nothing was changed: the project is locked (Project run) while a background job runs. This page follows it: try again when it has finished.",
    };
    expect(await flashOf(renamed)).toEqual(said);
    expect((await api(ANALYST, "GET", `/api/v1/projects/${projectId}/templates/${template.id}`)).name).toBe("Main");

    const saved = await call(ANALYST, `/migration/projects/${projectId}/details?companyId=${acme.id}`, details.action, {
      params: { projectId },
      middleware: projectLayout.middleware as never[],
      form: { intent: "update", name: "Renamed", description: "" },
    });
    expect(isRedirect(saved, /\/background-process\?companyId=/)).toBe(true);
    expect(await flashOf(saved)).toEqual(said);
  });
});
