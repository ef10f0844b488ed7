/**
 * A script's save through the portal's action against the live services: a save refused as stale is
 * answered on the page, even when the version it was based on is none the script has; so is a restore
 * of an earlier version posted from a page that showed an older newest version. A version's page for a
 * version the script has not answers 404, whatever the number in its URL.
 */
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../scripts/demo-data";
import { startLiveServices } from "~/test/live-services";

const live = await startLiveServices();
afterAll(() => live.stop());

const { createHarness, unwrap } = await import("../workspace/test-support");
const { call, api, masterTemplate } = await createHarness();
const scriptEdit = await import("./script-edit");
const scriptVersion = await import("./script-version");
const scriptDetails = await import("./script-details");
const { middleware: templateMiddleware } = await import("./template-layout");
const { middleware: scriptMiddleware } = await import("./script-layout");

const [, acme] = DEMO_COMPANIES;
const ANALYST = "analyst@demo.test";

/** A master template with one level and one script of two versions, locked for the analyst. */
async function lockedScript() {
  const template = await masterTemplate(ANALYST, acme.id, `Saves ${crypto.randomUUID()}`);
  const base = `/api/v1/master-templates/${template.id}`;
  await api(ANALYST, "POST", `${base}/scripts/${template.scriptId}/lock`);
  await api(ANALYST, "PUT", `${base}/scripts/${template.scriptId}`, { baseVersion: 1, sql: "select 2;", comment: "Second" });
  const path = `/migration/master-templates/${template.id}/edit/level/${template.levelId}/script/edit/${template.scriptId}?companyId=${acme.id}`;
  return { path, params: { templateId: template.id, levelId: template.levelId, scriptId: template.scriptId } };
}

const save = (path: string, params: Record<string, string>, baseVersion: string) =>
  call(ANALYST, path, scriptEdit.action, {
    params,
    middleware: [...templateMiddleware, ...scriptMiddleware] as never[],
    form: { intent: "save", baseVersion, sql: "select 'mine';", comment: "Mine" },
  });

/** A post of the script's details page (rename, delete). */
const postDetails = (path: string, params: Record<string, string>, form: Record<string, string>) =>
  call(ANALYST, path.replace("?", "/details?"), scriptDetails.action, { params, middleware: [...templateMiddleware, ...scriptMiddleware] as never[], form });

describe("a script's save refused as stale", () => {
  it("shows what changed since the version the user edited, with the user's text kept", async () => {
    const { path, params } = await lockedScript();
    const answer = (await save(path, params, "1")) as { init: { status: number }; data: { stale: { from: number; to: number }; staleMessage: string } };
    expect(answer.init.status).toBe(409);
    expect(answer.data.stale).toMatchObject({ from: 1, to: 2 });
    expect(answer.data.staleMessage).toMatch(/Version 2 was saved after the version 1 you edited/);
  });

  it.each(["0", "7"])("based on version %s, which the script does not have, says it was refused at the top, with the user's text kept", async (baseVersion) => {
    const { path, params } = await lockedScript();
    const answer = (await save(path, params, baseVersion)) as {
      init: { status: number };
      data: { errors: string[]; stale?: unknown; result: { initialValue: { sql: string } } };
    };
    expect(answer.init.status).toBe(409);
    expect(answer.data.stale).toBeUndefined();
    expect(answer.data.errors.join(" ")).toMatch(/nothing was saved/);
    expect(answer.data.result.initialValue.sql).toBe("select 'mine';");
  });
});

describe("a restore of an earlier version", () => {
  /** The action's answer: its status and, when it answered on the page, what it said (a redirect is a Response). */
  const restore = async (path: string, params: Record<string, string>, form: Record<string, string>) => {
    const answer = await call(ANALYST, path.replace("?", "/version/1?"), scriptVersion.action, {
      params: { ...params, version: "1" },
      middleware: [...templateMiddleware, ...scriptMiddleware] as never[],
      form: { intent: "restore", ...form },
    });
    return answer instanceof Response ? { status: answer.status, data: null } : unwrap(answer);
  };
  const versionsOf = async (params: Record<string, string>) =>
    (await api(ANALYST, "GET", `/api/v1/master-templates/${params.templateId}/scripts/${params.scriptId}/versions`)).items.map(
      (v: { version: number }) => v.version,
    );

  it("posted from a page that showed an older newest version (a save since, in another tab) is refused at the top, restoring nothing", async () => {
    const { path, params } = await lockedScript();
    const answer = await restore(path, params, { version: "1" });
    expect(answer?.status).toBe(409);
    expect(answer?.data.errors.join(" ")).toMatch(
      /^You changed this script in another tab or window at \d\d:\d\d UTC\. Version 2 was saved after the version 1 your restore was based on: version 1 was not restored\.$/,
    );
    expect(await versionsOf(params)).toEqual([2, 1]);
  });

  it("without the version its page showed (a forged or truncated post) is refused at the top, restoring nothing; with it, restores", async () => {
    const { path, params } = await lockedScript();
    const forged = await restore(path, params, {});
    expect(forged?.status).toBe(400);
    expect(forged?.data.errors).toEqual(["The request was incomplete: reload the page and try again."]);
    expect(await versionsOf(params)).toEqual([2, 1]);
    expect((await restore(path, params, { version: "2" }))?.status).toBe(302);
    expect(await versionsOf(params)).toEqual([3, 2, 1]);
  });
});

describe("a version's page for a version the script has not", () => {
  it("answers 404 Version not found, for a number past what a version can be too, never Zod's words; the restore restores nothing", async () => {
    const { path, params } = await lockedScript();
    const at = (version: string) => ({
      url: path.replace("?", `/version/${version}?`),
      options: { params: { ...params, version }, middleware: [...templateMiddleware, ...scriptMiddleware] as never[] },
    });
    for (const version of ["0", "3", "abc", "1.5", "2147483648", "99999999999999999999"]) {
      const page = at(version);
      expect(unwrap(await call(ANALYST, page.url, scriptVersion.loader, page.options)), version).toMatchObject({
        status: 404,
        data: { errors: ["Version not found."] },
      });
      const restored = unwrap(await call(ANALYST, page.url, scriptVersion.action, { ...page.options, form: { intent: "restore", version: "2" } }));
      expect(restored, version).toMatchObject({ status: 404, data: { errors: ["Version not found."] } });
    }
    // Its breadcrumb names no version the page did not find.
    const crumb = (version: string, loaderData?: object) => scriptVersion.handle.breadcrumb({ params: { version }, loaderData } as never);
    expect([crumb("abc"), crumb("2", { version: { version: 2 } })]).toEqual([null, "Version 2"]);
    const versions = await api(ANALYST, "GET", `/api/v1/master-templates/${params.templateId}/scripts/${params.scriptId}/versions`);
    expect(versions.items.map((v: { version: number }) => v.version)).toEqual([2, 1]);
  });
});

describe("a script's rename on a template archived meanwhile (another tab)", () => {
  it("is refused at the top of the page, which shows no rename form for it, and renames nothing", async () => {
    const { path, params } = await lockedScript();
    const base = `/api/v1/master-templates/${params.templateId}`;
    const template = await api(ANALYST, "GET", base);
    const available = await api(ANALYST, "POST", `${base}/status`, { version: template.version, status: "Available" });
    const archived = await api(ANALYST, "POST", `${base}/status`, { version: available.version, status: "Archived" });
    const rename = async (form: Record<string, string>) => unwrap(await postDetails(path, params, { intent: "rename", ...form }));
    expect(await rename({ version: String(archived.version), name: "Renamed" })).toMatchObject({
      status: 409,
      data: { errors: ["This template is archived: it is read-only."] },
    });
    expect(await rename({ version: String(archived.version), name: "" })).toMatchObject({ status: 400, data: { errors: [expect.any(String)] } });
    expect((await api(ANALYST, "GET", `${base}/scripts/${params.scriptId}`)).name).toBe("Customers");
  });
});

describe("a script's delete from its details page", () => {
  it("without the template's version (a forged or truncated post) is refused at the top as incomplete, never as a change in another tab; deletes nothing", async () => {
    const { path, params } = await lockedScript();
    const base = `/api/v1/master-templates/${params.templateId}`;
    const forms: Record<string, string>[] = [{}, { version: "" }, { version: "abc" }];
    for (const form of forms) {
      expect(unwrap(await postDetails(path, params, { intent: "delete", ...form })), JSON.stringify(form)).toEqual({
        status: 400,
        data: { errors: ["The request was incomplete: reload the page and try again."] },
      });
    }
    expect((await api(ANALYST, "GET", `${base}/scripts/${params.scriptId}`)).name).toBe("Customers");
    // With the version its page shows, it is deleted.
    const { version } = await api(ANALYST, "GET", base);
    expect(((await postDetails(path, params, { intent: "delete", version: String(version) })) as Response).status).toBe(302);
    expect((await api(ANALYST, "GET", base)).levels[0].scripts).toEqual([]);
  });
});
