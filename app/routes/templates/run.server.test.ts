/**
 * "Run the templates" against the live services: the templates to choose from, with their levels and
 * scripts, come a page at a time from one call of the data API, so the 101st and past can be chosen (the
 * page read the first 100 and one call per template); what was chosen on one page goes along to the next in
 * the URL and is posted with the page's; a tick of a template deleted meanwhile is refused at the top.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RunChoice } from "../../../contracts/templates";
import { DEMO_COMPANIES } from "../../../scripts/demo-data";
import { createTemplate } from "../../../services/data-api/src/repositories/templates";
import { isRedirect, startLiveServices } from "~/test/live-services";
import { TEST_POSTGRES_ADMIN_URL } from "../../../services/shared/testing/databases";

const live = await startLiveServices();
afterAll(() => live.stop());

const { createHarness, unwrap } = await import("../workspace/test-support");
const { call, api } = await createHarness();
const run = await import("./run");
const { middleware: projectMiddleware } = await import("../workspace/project/layout");

const [, acme] = DEMO_COMPANIES;
const ANALYST = "analyst@demo.test";

type Offered = {
  search: { name: string; page: number; pageSize: number; type: string; scope: string; templateIds: string[]; levelIds: string[]; scriptId: string | null };
  templates: { items: RunChoice[]; total: number; page: number; pageSize: number; chosenTemplates: unknown; chosenLevels: unknown };
};

/**
 * An Active project of Acme whose databases exist, with `count` templates named `<prefix> 001`… in that run
 * order (written directly: the API would need a call each); those of `withScripts` (1-based) get a level
 * Load and a script `Script <n>` (select <n>;).
 */
async function projectWithTemplates(count: number, withScripts: number[]) {
  const application = await api(ANALYST, "POST", "/api/v1/applications", { companyId: acme.id, name: `Run app ${crypto.randomUUID()}`, description: null });
  const project = await api(ANALYST, "POST", "/api/v1/projects", {
    companyId: acme.id,
    name: `Run ${crypto.randomUUID().slice(0, 8)}`,
    applicationId: application.id,
    sourceType: "BackUp",
    description: null,
  });
  const base = `/api/v1/projects/${project.id}`;
  const dictionary = await api(ANALYST, "GET", `${base}/data-dictionary`);
  await api(ANALYST, "POST", `${base}/data-dictionary/tables`, {
    version: dictionary.version,
    name: "Customers",
    description: null,
    columns: [{ name: "Id", type: "int", nullable: false, isKey: true }],
  });
  const { version } = await api(ANALYST, "GET", base);
  await api(ANALYST, "POST", `${base}/upload-type`, { uploadType: "SingleFile", version });
  await api(ANALYST, "POST", `${base}/try-create-databases`);
  await live.jobs.idle();
  const prefix = `Run ${crypto.randomUUID().slice(0, 8)}`;
  const ids: string[] = [];
  for (let i = 1; i <= count; i++)
    ids.push(
      await createTemplate(live.dataApiDb, {
        userId: "seed",
        userName: null,
        companyId: acme.id,
        area: "migration",
        projectId: project.id,
        name: `${prefix} ${String(i).padStart(3, "0")}`,
        description: null,
        type: "Core",
        status: "Available",
      }),
    );
  for (const n of withScripts) {
    const template = `${base}/templates/${ids[n - 1]}`;
    const withLevel = await api(ANALYST, "POST", `${template}/levels`, { version: 1, name: "Load" });
    await api(ANALYST, "POST", `${template}/levels/${withLevel.levels[0].id}/scripts`, {
      version: withLevel.version,
      name: `Script ${n}`,
      sql: `select ${n};`,
      comment: null,
    });
  }
  // As assigning its first template would have made it.
  await live.dataApiDb.updateTable("projects").set({ status: "Active" }).where("id", "=", project.id).execute();
  return { projectId: project.id as string, prefix, ids };
}

const pageUrl = (projectId: string, search: string) => `/migration/projects/${projectId}/templates/run?companyId=${acme.id}&${search}`;
const route = (projectId: string) => ({ params: { projectId }, middleware: projectMiddleware as never[] });
/** "Start the run" posted from the page without a search: the refusal it answers. */
const refusedStart = async (projectId: string, form: [string, string][]) =>
  unwrap(await call(ANALYST, pageUrl(projectId, ""), run.action, { ...route(projectId), form: [...form, ["intent", "start"]] }));

describe("the templates a run may be narrowed to", () => {
  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("offers the 101st template with its levels and scripts on page 2, keeps page 1's tick, and runs both", async () => {
    const { projectId, prefix, ids } = await projectWithTemplates(105, [1, 101]);
    // Page 1 (100 a page): the user chose a Test run of Chosen templates and ticked the first, then pressed Next.
    const search = `type=Test&scope=templates&templateIds=${ids[0]}&pageSize=100&page=2&onError=continue`;
    const offered = (await call(ANALYST, pageUrl(projectId, search), run.loader, route(projectId))) as Offered;
    expect(offered.search).toMatchObject({ name: "", page: 2, pageSize: 100, type: "Test", scope: "templates", templateIds: [ids[0]], onError: "continue" });
    expect(offered.templates).toMatchObject({ total: 105, page: 2, pageSize: 100 });
    expect(offered.templates.items.map((t) => t.name)).toEqual([101, 102, 103, 104, 105].map((i) => `${prefix} ${i}`));
    // Page 1's tick named in the same answer, for the sentence under Templates.
    expect(offered.templates).toMatchObject({ chosenTemplates: [{ id: ids[0], name: `${prefix} 001` }], chosenLevels: [] });
    expect(offered.templates.items[0]!.levels).toEqual([{ id: expect.any(String), name: "Load", scripts: [{ id: expect.any(String), name: "Script 101" }] }]);
    // The 101st's script chosen, back on page 1: named for its option there.
    const script101 = offered.templates.items[0]!.levels[0]!.scripts[0]!.id;
    const back = (await call(ANALYST, pageUrl(projectId, `scope=script&scriptId=${script101}&pageSize=100`), run.loader, route(projectId))) as Offered & {
      templates: { chosenScript: unknown };
    };
    expect(back.templates.items.map((t) => t.name)).not.toContain(`${prefix} 101`);
    expect(back.templates.chosenScript).toEqual({ id: script101, templateName: `${prefix} 101`, levelName: "Load", name: "Script 101" });
    // Found by name as well.
    const found = (await call(ANALYST, pageUrl(projectId, `name=${encodeURIComponent(`${prefix} 10`)}`), run.loader, route(projectId))) as Offered;
    expect(found.templates.items.map((t) => t.name)).toEqual([100, 101, 102, 103, 104, 105].map((i) => `${prefix} ${i}`));

    // On page 2 the user ticks the 101st: the post carries page 1's tick (a hidden field of the form) with it.
    const posted = await call(ANALYST, pageUrl(projectId, search), run.action, {
      ...route(projectId),
      form: [
        ["companyId", acme.id],
        ["templateIds", ids[0]!],
        ["pageSize", "100"],
        ["name", ""],
        ["type", "Test"],
        ["scope", "templates"],
        ["templateIds", ids[100]!],
        ["onError", "continue"],
        ["intent", "start"],
      ],
    });
    const location = posted instanceof Response ? (posted.headers.get("Location") ?? "") : "";
    expect(isRedirect(posted, new RegExp(`^/migration/projects/${projectId}/templates/run-history/[^/]+/details\\?companyId=${acme.id}$`))).toBe(true);
    await live.jobs.idle();
    const runId = /run-history\/([^/]+)\//.exec(location)![1];
    const started = await api(ANALYST, "GET", `/api/v1/projects/${projectId}/runs/${runId}`);
    expect(started).toMatchObject({ type: "Test", onError: "continue", status: "SUCCESS" });
    expect(started.steps.map((s: { templateName: string; scriptName: string }) => [s.templateName, s.scriptName])).toEqual([
      [`${prefix} 001`, "Script 1"],
      [`${prefix} 101`, "Script 101"],
    ]);
  });

  it("clears the search and keeps every choice the form sent, back at page 1", async () => {
    const { projectId, ids } = await projectWithTemplates(2, []);
    const sent = `name=zz&pageSize=10&page=2&type=Full&scope=levels&levelIds=l1&templateIds=${ids[0]}&onError=stop&clear=search`;
    const cleared = await call(ANALYST, pageUrl(projectId, sent), run.loader, route(projectId));
    expect(isRedirect(cleared, pageUrl(projectId, `pageSize=10&type=Full&scope=levels&levelIds=l1&templateIds=${ids[0]}&onError=stop`))).toBe(true);
  });

  it("carries at most 100 templates and 100 levels to the next page, saying the rest were dropped; a post of more is refused next to the field, nothing started", async () => {
    const { projectId, ids } = await projectWithTemplates(1, []);
    const ticks = (name: string, n: number) => Array.from({ length: n }, (_, i) => `${name}=${name}-${i}`);
    // A page of 100 templates each ticked, on top of the first page's 100, and as many levels: the URL would outgrow what a server reads.
    const url = pageUrl(projectId, ["type=Full", "scope=templates", ...ticks("templateIds", 150), ...ticks("levelIds", 101)].join("&"));
    const offered = (await call(ANALYST, url, run.loader, route(projectId))) as Offered & { search: { dropped: object } };
    expect(offered.search.templateIds).toEqual(ticks("templateIds", 100).map((t) => t.split("=")[1]));
    expect(offered.search.levelIds).toHaveLength(100);
    expect(offered.search.dropped).toEqual({ templateIds: true, levelIds: true });
    const within = (await call(ANALYST, pageUrl(projectId, ticks("templateIds", 100).join("&")), run.loader, route(projectId))) as Offered & {
      search: { dropped: object };
    };
    expect(within.search.dropped).toEqual({ templateIds: false, levelIds: false });
    expect(within.search.templateIds).toHaveLength(100);

    // Started with the first page's 100 and one more ticked here.
    const tooMany = ticks("templateIds", 100).map((t) => ["templateIds", t.split("=")[1]!] as [string, string]);
    const refused = await refusedStart(projectId, [["type", "Test"], ["scope", "templates"], ...tooMany, ["templateIds", ids[0]!]]);
    expect(refused?.status).toBe(400);
    expect(refused?.data.result.error.templateIds).toEqual(["Choose at most 100 templates: untick some."]);
    // Levels, when the run is narrowed to levels; the templates' ticks do not count then.
    const levels = await refusedStart(projectId, [
      ["type", "Test"],
      ["scope", "levels"],
      ...tooMany,
      ["templateIds", ids[0]!],
      ...tooMany.map(([, v]) => ["levelIds", v] as [string, string]),
      ["levelIds", "one-more"],
    ]);
    expect(levels?.status).toBe(400);
    expect(levels?.data.result.error).toEqual({ levelIds: ["Choose at most 100 levels: untick some."] });
    expect((await api(ANALYST, "GET", `/api/v1/projects/${projectId}/runs`)).total).toBe(0);
  });

  it("pages and searches by a post: redirected to the page asked for with every choice; a page ticked past 100 templates or levels is refused at the top, as it was", async () => {
    const { projectId, ids } = await projectWithTemplates(1, []);
    const search = `type=Full&scope=levels&templateIds=${ids[0]}&pageSize=100`;
    const navigate = (form: [string, string][]) => call(ANALYST, pageUrl(projectId, search), run.action, { ...route(projectId), form });
    const choices: [string, string][] = [
      ["companyId", acme.id],
      ["templateIds", ids[0]!],
      ["name", ""],
      ["pageSize", "100"],
      ["type", "Full"],
      ["scope", "levels"],
      ["onError", "continue"],
    ];
    // Next (page 2), with a level ticked on this page: the page asked for, everything the form holds carried in its URL.
    const next = await navigate([...choices, ["levelIds", "l1"], ["page", "2"]]);
    expect(isRedirect(next, pageUrl(projectId, `pageSize=100&page=2&type=Full&scope=levels&onError=continue&templateIds=${ids[0]}&levelIds=l1`))).toBe(true);
    // Clear search: back at page 1 without the search, in one redirect.
    const cleared = await navigate([...choices, ["name", "zz"], ["page", "3"], ["clear", "search"]]);
    expect(isRedirect(cleared, pageUrl(projectId, `pageSize=100&type=Full&scope=levels&onError=continue&templateIds=${ids[0]}`))).toBe(true);
    // As many as a run takes, each a UUID: a URL well within what a server reads (16 KB with the request's other headers).
    const uuids = (n: number) => Array.from({ length: n }, () => crypto.randomUUID());
    const full = await navigate([
      ...choices,
      ...uuids(99).map((id): [string, string] => ["templateIds", id]),
      ...uuids(100).map((id): [string, string] => ["levelIds", id]),
      ["page", "2"],
    ]);
    expect(full instanceof Response && full.status).toBe(302);
    expect(((full as Response).headers.get("Location") ?? "").length).toBeLessThan(10_500);
    // A page of 100 templates of 3 levels each, all ticked: a URL of 15 KB, which the server refused with a blank 431. Refused here, the ticks as posted.
    const levels = uuids(300);
    const refused = unwrap(await navigate([...choices, ...levels.map((id): [string, string] => ["levelIds", id]), ["page", "2"]]));
    expect(refused?.status).toBe(400);
    expect(refused?.data.errors).toEqual([
      "At most 100 templates and 100 levels can be chosen at once, and 300 levels are ticked: untick some, then search or change page again.",
    ]);
    expect(refused?.data.result.initialValue).toMatchObject({ type: "Full", scope: "levels", onError: "continue", levelIds: levels });
    expect((await api(ANALYST, "GET", `/api/v1/projects/${projectId}/runs`)).total).toBe(0);
  });

  it("refuses a post of a scope or an on error the form does not offer, empty too, in words next to each field, with a 400 and nothing started", async () => {
    const { projectId } = await projectWithTemplates(1, [1]);
    // Empty is no option either: never read as the first one (All, Stop).
    for (const [scope, onError] of [
      ["bogus", "maybe"],
      ["", ""],
    ]) {
      const refused = await refusedStart(projectId, [
        ["type", "Full"],
        ["scope", scope!],
        ["onError", onError!],
      ]);
      expect(refused?.status).toBe(400);
      expect(refused?.data.result.error).toEqual({ scope: ["Choose what to run"], onError: ["Choose what happens on an error"] });
    }
    expect((await api(ANALYST, "GET", `/api/v1/projects/${projectId}/runs`)).total).toBe(0);
  });

  it("says at the top, with a 4xx, when a template ticked was deleted meanwhile, nothing started; a bad choice in the URL falls back to the default", async () => {
    const { projectId, ids } = await projectWithTemplates(2, [1, 2]);
    const offered = (await call(ANALYST, pageUrl(projectId, `type=Sometimes&scope=everything&onError=maybe`), run.loader, route(projectId))) as Offered;
    expect(offered.search).toMatchObject({ type: "Test", scope: "all", onError: "stop", templateIds: [], scriptId: null });
    // Ticked in a tab left open, then deleted from another.
    const template = await api(ANALYST, "GET", `/api/v1/projects/${projectId}/templates/${ids[1]}`);
    await api(ANALYST, "DELETE", `/api/v1/projects/${projectId}/templates/${ids[1]}`, undefined, { version: String(template.version) });
    const refused = await refusedStart(projectId, [
      ["type", "Test"],
      ["scope", "templates"],
      ["templateIds", ids[0]!],
      ["templateIds", ids[1]!],
    ]);
    expect(refused?.status).toBe(409);
    expect(refused?.data.errors).toEqual(["A template you chose is no longer in the project (removed meanwhile): nothing was started. Choose again."]);
  });
});
