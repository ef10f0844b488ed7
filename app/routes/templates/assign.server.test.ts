/**
 * "Assign templates" against the live services: the data API leaves out in SQL the master templates
 * the project holds, so past the first hundred the others are still offered, a page at a time and
 * found by name through the URL; what is ticked on one page goes along to the next (`selected`) and
 * is assigned with the ticks of the page the user is on.
 */
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../scripts/demo-data";
import { createTemplate } from "../../../services/data-api/src/repositories/templates";
import { isRedirect, startLiveServices } from "~/test/live-services";
import { unwrap } from "../workspace/test-support";

const live = await startLiveServices();
afterAll(() => live.stop());

const { createHarness } = await import("../workspace/test-support");
const { call, api, migrationProject } = await createHarness();
const assign = await import("./assign");
const { middleware: projectMiddleware } = await import("../workspace/project/layout");

const [, acme, birch] = DEMO_COMPANIES;
const ANALYST = "analyst@demo.test";

type Offered = {
  search: {
    name: string;
    page: number;
    pageSize: number;
    selected: string[];
    selectionCapped: boolean;
    leftOut: string[];
    named: { id: string; name: string }[];
  };
  templates: { items: { id: string; name: string }[]; total: number; page: number };
};

const write = { userId: "seed", userName: null, companyId: acme.id, area: "migration" as const, projectId: null, description: null, type: "Core" as const };

/** A fresh project of Acme and `count` Available masters named `<prefix> 001`…, written directly (the API would need four calls each). */
async function projectAndMasters(count: number) {
  const project = await migrationProject(ANALYST, acme.id, "Many templates", "BackUp");
  const prefix = `Bulk ${crypto.randomUUID().slice(0, 8)}`;
  const ids: string[] = [];
  for (let i = 1; i <= count; i++)
    ids.push(await createTemplate(live.dataApiDb, { ...write, name: `${prefix} ${String(i).padStart(3, "0")}`, status: "Available" }));
  return { projectId: project.id, prefix, ids };
}

const pageUrl = (projectId: string, search: string) => `/migration/projects/${projectId}/templates/assigned/add?companyId=${acme.id}&${search}`;
const route = (projectId: string) => ({ params: { projectId }, middleware: projectMiddleware as never[] });
const assignedNames = async (projectId: string) =>
  ((await api(ANALYST, "GET", `/api/v1/projects/${projectId}/templates`)).items as { name: string }[]).map((t) => t.name).sort();

describe("assigning master templates to a project", () => {
  it("offers those it does not hold past the first 100, by name, a page at a time through the URL", async () => {
    // 105 Available masters; the first 100 assigned.
    const { projectId, prefix: bulk, ids } = await projectAndMasters(105);
    await api(ANALYST, "POST", `/api/v1/projects/${projectId}/templates/assign`, { templateIds: ids.slice(0, 100) });

    const offered = async (search: string) => (await call(ANALYST, pageUrl(projectId, search), assign.loader, route(projectId))) as Offered;
    const found = await offered(`name=${encodeURIComponent(bulk)}`);
    expect(found.search).toEqual({ name: bulk, sort: "name", page: 1, pageSize: 25, selected: [], selectionCapped: false, leftOut: [], named: [] });
    expect(found.templates.total).toBe(5);
    expect(found.templates.items.map((t) => t.name)).toEqual([101, 102, 103, 104, 105].map((i) => `${bulk} ${i}`));
    // The next page, by the URL's page and page size.
    const second = await offered(`name=${encodeURIComponent(bulk)}&page=2&pageSize=10`);
    expect(second.templates).toMatchObject({ items: [], total: 5, page: 2 });
  });

  it("keeps the ticks of page 1 on page 2 and assigns them with page 2's", async () => {
    const { projectId, prefix, ids } = await projectAndMasters(12);
    // Page 1 (10 a page): the user ticks the first two, then presses Next, which sends them along.
    const name = `name=${encodeURIComponent(prefix)}&pageSize=10`;
    const second = (await call(
      ANALYST,
      pageUrl(projectId, `${name}&selected=${ids[0]}&selected=${ids[1]}&page=2`),
      assign.loader,
      route(projectId),
    )) as Offered;
    expect(second.search.selected).toEqual([ids[0], ids[1]]);
    // Named, from the search of the ticks beside the page, for "2 templates selected on other pages: …".
    expect(second.search.named).toEqual([
      { id: ids[0], name: `${prefix} 001` },
      { id: ids[1], name: `${prefix} 002` },
    ]);
    expect(second.templates.items.map((t) => t.id)).toEqual([ids[10], ids[11]]);
    // On page 2 the user ticks one more; the post carries page 1's ticks (hidden fields) with it.
    const posted = await call(ANALYST, pageUrl(projectId, `${name}&selected=${ids[0]}&selected=${ids[1]}&page=2`), assign.action, {
      ...route(projectId),
      form: [
        ["selected", ids[0]!],
        ["selected", ids[1]!],
        ["selected", ids[10]!],
        ["intent", "assign"],
      ],
    });
    expect(isRedirect(posted, `/migration/projects/${projectId}/templates/assigned?companyId=${acme.id}`)).toBe(true);
    expect(await assignedNames(projectId)).toEqual([1, 2, 11].map((i) => `${prefix} ${String(i).padStart(3, "0")}`));
  });

  it("leaves out of the ticks those no longer assignable, naming the company's, in one search of their ids", async () => {
    const { projectId, prefix, ids } = await projectAndMasters(4);
    // Ticked on page 1, then meanwhile: one assigned from another tab, one made Draft again.
    await api(ANALYST, "POST", `/api/v1/projects/${projectId}/templates/assign`, { templateIds: [ids[1]] });
    await live.dataApiDb.updateTable("templates").set({ status: "Draft" }).where("id", "=", ids[2]!).execute();
    // Forged: another company's master, and an id of none.
    const theirs = await createTemplate(live.dataApiDb, { ...write, companyId: birch.id, name: `Birch ${prefix}`, status: "Available" });
    const ticked = [ids[0], ids[1], ids[2], theirs, "not-a-template", ids[3]].map((id) => `selected=${id}`).join("&");
    const offered = (await call(ANALYST, pageUrl(projectId, `pageSize=10&page=2&${ticked}`), assign.loader, route(projectId))) as Offered;
    expect(offered.search.selected).toEqual([ids[0], ids[3]]);
    expect(offered.search.leftOut).toEqual([`${prefix} 002`, `${prefix} 003`]);
    // What is left is assigned without a refusal.
    const posted = await call(ANALYST, pageUrl(projectId, ticked), assign.action, {
      ...route(projectId),
      form: [...offered.search.selected.map((id): [string, string] => ["selected", id]), ["intent", "assign"]],
    });
    expect(isRedirect(posted, `/migration/projects/${projectId}/templates/assigned?companyId=${acme.id}`)).toBe(true);
  });

  it("clears the search and keeps every tick the form sent, this page's with the others, back at page 1", async () => {
    const { projectId, ids } = await projectAndMasters(2);
    const sent = `name=zz&pageSize=10&page=2&selected=${ids[0]}&selected=${ids[1]}&clear=search`;
    const cleared = await call(ANALYST, pageUrl(projectId, sent), assign.loader, route(projectId));
    expect(isRedirect(cleared, pageUrl(projectId, `pageSize=10&selected=${ids[0]}&selected=${ids[1]}`))).toBe(true);
  });

  it("pages and searches by a post: redirected to the page asked for with the ticks; past 100 ticked, refused at the top with the page's ticks as posted", async () => {
    const { projectId, ids } = await projectAndMasters(2);
    const navigate = (selected: string[], extra: [string, string][]) =>
      call(ANALYST, pageUrl(projectId, `pageSize=10&selected=${ids[0]}`), assign.action, {
        ...route(projectId),
        form: [["companyId", acme.id], ["name", "Bulk"], ["pageSize", "10"], ...selected.map((id): [string, string] => ["selected", id]), ...extra],
      });
    const next = await navigate([ids[0]!, ids[1]!], [["page", "2"]]);
    expect(isRedirect(next, pageUrl(projectId, `name=Bulk&pageSize=10&page=2&selected=${ids[0]}&selected=${ids[1]}`))).toBe(true);
    const ticked = [ids[0]!, ...Array.from({ length: 100 }, () => crypto.randomUUID())];
    const refused = unwrap(await navigate(ticked, [["page", "2"]]));
    expect(refused).toEqual({
      status: 400,
      data: {
        errors: ["At most 100 templates can be chosen at once, and 101 templates are ticked: untick some, then search or change page again."],
        selected: ticked,
      },
    });
    expect(await assignedNames(projectId)).toEqual([]);
  });

  it("refuses a forged or stale tick, or more than 100, with a message and assigns none", async () => {
    const { projectId, ids } = await projectAndMasters(2);
    const post = (selected: string[]) =>
      call(ANALYST, pageUrl(projectId, ""), assign.action, {
        ...route(projectId),
        form: [...selected.map((id): [string, string] => ["selected", id]), ["intent", "assign"]],
      });
    const forged = unwrap(await post([ids[0]!, "not-a-template"]));
    expect(forged).toEqual({ status: 404, data: { errors: ["Template not found."], selected: [ids[0], "not-a-template"] } });
    await api(ANALYST, "POST", `/api/v1/projects/${projectId}/templates/assign`, { templateIds: [ids[1]] });
    // Ticked in a tab left open, then assigned from another.
    const stale = unwrap(await post([ids[0]!, ids[1]!]));
    expect(stale).toMatchObject({ status: 409, data: { errors: ["This template is already assigned to this project."] } });
    const tooMany = unwrap(await post([ids[0]!, ...Array.from({ length: 100 }, () => crypto.randomUUID())]));
    expect(tooMany).toMatchObject({ status: 400, data: { errors: ["Assign at most 100 templates at once: untick some."] } });
    expect((await assignedNames(projectId)).length).toBe(1);
    // The URL carries 100 ticks at most, and the page says when it dropped some (forged ids then go, unnamed).
    const ticks = [ids[0], ...Array.from({ length: 99 }, (_, i) => `id${i}`), ids[1]];
    const capped = (await call(ANALYST, pageUrl(projectId, ticks.map((id) => `selected=${id}`).join("&")), assign.loader, route(projectId))) as Offered;
    expect(capped.search).toMatchObject({ selected: [ids[0]], selectionCapped: true, leftOut: [] });
  });
});
