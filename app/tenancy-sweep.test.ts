/**
 * The tenancy rule in the portal, route by route (the data API's own sweep is services/data-api/src/tenancy.test.ts):
 * every page of the route map, named with another company's ids, answers "not found" (or the area's
 * permission-denied page), to a page, to a client navigation's data request and to a form's post, shows
 * none of the other company's names, and changes nothing. Through the built server's request handler, as production runs it.
 *
 * Two callers: an analyst of Acme and Birch working in Birch (a consultant with a URL copied from Acme's
 * pages: the data API would answer her Acme's things, so the portal's own check of the selected company is
 * what refuses them), and Birch's ClientAdmin, who has no role in Acme at all (an attacker of Birch).
 * A route added later is swept without a word here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES, demoAdminDataSources } from "../scripts/demo-data";
import { PORTAL_BUILD_TIMEOUT_MS, buildPortal } from "~/test/server-build";
import { PORTAL_URL, signIn, startLiveServices } from "~/test/live-services";

const live = await startLiveServices();
let portal: Awaited<ReturnType<typeof buildPortal>>;
const [, acme, birch] = DEMO_COMPANIES;
const ANALYST = "analyst@demo.test";

/** Acme's things, by the name of the route parameter that names them; a workspace's template is its copy, a master's the master. */
const ids: Record<string, string> = {};
const inWorkspace: Record<string, string> = {};
const secretNames: string[] = [];
let snapshot: () => Promise<unknown[]>;
let before: unknown[];

beforeAll(async () => {
  portal = await buildPortal("tenancy-sweep");
  const { createHarness } = await import("~/routes/workspace/test-support");
  const { api, masterTemplate, migrationProject } = await createHarness();
  const secret = (what: string) => `Acme secret ${what} ${crypto.randomUUID().slice(0, 6)}`;
  const project = await migrationProject(ANALYST, acme.id, secret("project"));
  const master = await masterTemplate(ANALYST, acme.id, secret("template"));
  await api(ANALYST, "POST", `/api/v1/master-templates/${master.id}/status`, { version: master.version, status: "Available" });
  const assigned = await api(ANALYST, "POST", `/api/v1/projects/${project.id}/templates/assign`, { templateIds: [master.id] });
  const copy = await api(ANALYST, "GET", `/api/v1/projects/${project.id}/templates/${assigned.items[0].id}`);
  const { applicationId } = await api(ANALYST, "GET", `/api/v1/projects/${project.id}`);
  const dictionary = await api(ANALYST, "POST", "/api/v1/data-dictionaries", { companyId: acme.id, applicationId, name: secret("dictionary") });
  const configuration = await api(ANALYST, "POST", "/api/v1/audit-projects", {
    companyId: acme.id,
    applicationId,
    name: secret("configuration"),
    schemeIds: [demoAdminDataSources(acme.id)[0]!.id],
  });
  const mapping = await api(ANALYST, "POST", "/api/v1/mapping-projects", { companyId: acme.id, applicationId, name: secret("mapping") });
  secretNames.push(project.name, master.name, dictionary.name, configuration.name, mapping.name);
  Object.assign(ids, {
    projectId: project.id,
    configurationId: configuration.id,
    mappingProjectId: mapping.id,
    dataDictionaryId: dictionary.id,
    templateId: master.id,
    levelId: master.levelId,
    scriptId: master.scriptId,
  });
  Object.assign(inWorkspace, { templateId: copy.id, levelId: copy.levels[0].id, scriptId: copy.levels[0].scripts[0].id });
  snapshot = () =>
    Promise.all(
      [
        `/api/v1/projects/${project.id}`,
        `/api/v1/projects/${project.id}/templates/${copy.id}`,
        `/api/v1/master-templates/${master.id}`,
        `/api/v1/data-dictionaries/${dictionary.id}`,
        `/api/v1/audit-projects/${configuration.id}`,
        `/api/v1/mapping-projects/${mapping.id}`,
      ].map((url) => api(ANALYST, "GET", url)),
    );
  before = await snapshot();
}, PORTAL_BUILD_TIMEOUT_MS);

afterAll(async () => {
  portal?.remove();
  await live.stop();
});

/** Every URL of the route map (its leaves and index routes) that names a thing, filled with Acme's ids. */
function sweptPaths(): { path: string; action: boolean }[] {
  const routes = portal.build.routes;
  const full = (id: string): string => {
    const r = routes[id]!;
    return [r.parentId ? full(r.parentId) : "", r.path ?? ""].filter(Boolean).join("/");
  };
  const leaves = Object.values(routes).filter((r) => r && (r.index || !Object.values(routes).some((c) => c?.parentId === r.id)));
  return leaves
    .map((r) => ({ pattern: `/${full(r!.id)}`.replace(/\/+/g, "/"), action: Boolean(r!.module.action) }))
    .filter(({ pattern }) => pattern.includes(":"))
    .map(({ pattern, action }) => {
      const workspace = /\/(projects|configurations|mappings)\/:/.test(pattern);
      // Ids of things that are not among Acme's made here (a backup, a run, a table) name nothing: the page's parent is what is refused.
      const path = pattern.replace(/:(\w+)/g, (_, name: string) => (workspace ? inWorkspace[name] : undefined) ?? ids[name] ?? crypto.randomUUID());
      return { path, action };
    });
}

describe.each([
  ["an analyst of Acme and Birch working in Birch", ANALYST],
  ["Birch's ClientAdmin, who has no role in Acme", "clientadmin@demo.test"],
])("Acme's ids on every page of the portal, asked by %s", (_, email) => {
  it("answer not found (or permission denied), show none of Acme's names, and change nothing", async () => {
    const viaPortal = (request: Request) => portal.handle(request);
    const { cookie } = await signIn({ login: viaPortal, callback: viaPortal }, email);
    const send = (url: string, init: RequestInit = {}) =>
      portal.handle(new Request(`${PORTAL_URL}${url}`, { ...init, headers: { cookie, origin: PORTAL_URL, ...init.headers }, redirect: "manual" }));
    /** The answer after the portal's redirects (to the area's permission-denied page, a page's to its first tab). */
    async function settled(url: string, init?: RequestInit): Promise<{ status: number; url: string; text: string }> {
      let res = await send(url, init);
      for (let hops = 0; res.status >= 300 && res.status < 400 && hops < 5; hops++) {
        const next = new URL(res.headers.get("location")!, `${PORTAL_URL}${url}`);
        url = next.pathname + next.search;
        res = await send(url);
      }
      return { status: res.status, url, text: await res.text() };
    }
    const wrong: string[] = [];
    const check = (what: string, answer: { status: number; url: string; text: string }, refused: boolean) => {
      const leaked = secretNames.filter((n) => answer.text.includes(n));
      if (!refused || leaked.length) wrong.push(`${what}: ${answer.status} at ${answer.url} ${leaked.join(", ")}`);
    };
    const paths = sweptPaths();
    expect(paths.length).toBeGreaterThan(150);
    for (const { path, action } of paths) {
      const url = `${path}?companyId=${birch.id}`;
      const page = await settled(url);
      check(`GET ${url}`, page, page.status === 404 || page.url.startsWith("/permission-denied"));
      // A client navigation's data request: not found, or the redirect a page would follow.
      const data = await send(`${path}.data?companyId=${birch.id}`);
      check(`GET ${path}.data`, { status: data.status, url: path, text: await data.text() }, data.status === 404 || data.status === 202);
      if (!action) continue;
      const body = new URLSearchParams({ intent: "update", version: "1", name: "Changed from Birch", description: "Changed from Birch", ...ids });
      const post = await settled(url, { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } });
      check(`POST ${url}`, post, post.status === 404 || post.url.startsWith("/permission-denied"));
    }
    expect(wrong).toEqual([]);
    expect(await snapshot()).toEqual(before);
  }, 600_000);
});
