/**
 * The tenancy rule in the portal, route by route (the data API's own sweep is services/data-api/src/tenancy.test.ts,
 * whose fixtures make the things here: thingsOf): every page of the route map, named with another company's ids,
 * answers "not found" (or the area's permission-denied page), to a page, to a client navigation's data request and
 * to a form's post, shows none of the other company's names, and changes nothing. Through the built server's request
 * handler, as production runs it.
 *
 * Two callers: an analyst of Acme and Birch working in Birch (a consultant with a URL copied from Acme's
 * pages: the data API would answer her Acme's things, so the portal's own check of the selected company is
 * what refuses them), and Birch's ClientAdmin, who has no role in Acme at all (an attacker of Birch).
 *
 * Then "my parent, your child": every page whose path names a child (a template, level or script, a table,
 * a run, a history entry, a backup, a mapping column, a translation), asked under the caller's own Birch
 * project, configuration, mapping project, dictionary or template with Acme's real child ids (a loader that
 * looked the child up by its id alone, or under the wrong parent, would show it), answers 404 (or the refusal the caller
 * gets with its own ids too: the permission-denied page, a create page's redirect for a reader), to the page, its data request and a post of each intent
 * its own page's forms send (or refuses the post before any lookup, as it refuses an id of nothing); each child in
 * turn, under what the caller's own parent holds (its project's template, that template's level…). And the forms and
 * links that name a child in a field (an undo, a staged upload, a restore, a comparison) are refused as an id of
 * nothing is. Each workspace's children are its own kind's (a configuration's table, its copy of the Onboarding
 * master template, its runs, history and backups; a mapping project's copy of the Translations one), and each area's
 * master template its own, so the page with the caller's own ids is found (a 404 there fails the sweep), and only
 * Acme's child is refused.
 * A route added later is swept without a word here; one with a path parameter the sweep does not know fails it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVICE_WORKSPACES } from "../contracts/workspaces.server";
import { DEMO_COMPANIES, demoUsers } from "../scripts/demo-data";
import { snapshotOf, thingsOf, type Things } from "../services/data-api/src/testing/route-sweep";
import { PORTAL_BUILD_TIMEOUT_MS, buildPortal } from "~/test/server-build";
import { PORTAL_URL, signIn, startLiveServices } from "~/test/live-services";

const live = await startLiveServices();
let portal: Awaited<ReturnType<typeof buildPortal>>;
const [, acme, birch] = DEMO_COMPANIES;
const ANALYST = "analyst@demo.test";
const CLIENT_ADMIN = "clientadmin@demo.test";
const userId = (email: string) => demoUsers().find((u) => u.email === email)!.id;

/** Acme's things (the other company's) and Birch's (the callers'), made by the analyst, who works in both. */
let theirs: Things;
let ours: Things;
let tokenOf: (email: string) => Promise<string>;
let before: unknown[];

beforeAll(async () => {
  portal = await buildPortal("tenancy-sweep");
  ({ tokenOf } = await (await import("~/routes/workspace/test-support")).createHarness());
  const token = await tokenOf(ANALYST);
  // With their work (a load with its history entry and backup, a staged upload, a run, a mapping column and a translation…),
  // so that every child a path names is a real one; a member of the company alone on each project's access list.
  theirs = await thingsOf(live.fixtureApi, acme.id, token, "Acme", { memberId: userId("viewer@demo.test") });
  ours = await thingsOf(live.fixtureApi, birch.id, token, "Birch", { memberId: userId(CLIENT_ADMIN) });
  before = await snapshots();
}, PORTAL_BUILD_TIMEOUT_MS);

afterAll(async () => {
  portal?.remove();
  await live.stop();
});

/** Everything of Acme's and Birch's things that a write could change. */
async function snapshots() {
  const token = await tokenOf(ANALYST);
  return [await snapshotOf(live.fixtureApi, token, theirs), await snapshotOf(live.fixtureApi, token, ours)];
}

/** Every URL pattern of the route map (its leaves and index routes) with a path parameter, and whether it has an action. */
function sweptPatterns(): { pattern: string; action: boolean }[] {
  const routes = portal.build.routes;
  const full = (id: string): string => {
    const r = routes[id]!;
    return [r.parentId ? full(r.parentId) : "", r.path ?? ""].filter(Boolean).join("/");
  };
  const leaves = Object.values(routes).filter((r) => r && (r.index || !Object.values(routes).some((c) => c?.parentId === r.id)));
  return leaves
    .map((r) => ({ pattern: `/${full(r!.id)}`.replace(/\/+/g, "/"), action: Boolean(r!.module.action) }))
    .filter(({ pattern }) => pattern.includes(":"));
}

type Param = { role: "parent" | "child" | "name"; value: string | undefined };

/**
 * What a path parameter of `pattern` names, and its value among `things`: the workspace, master dictionary or
 * master template a page is under (its parent), a child of that parent by id, or a value no company owns (a
 * script's version, a table by its name). Undefined for a parameter the sweep does not know.
 */
function paramOf(name: string, pattern: string, things: Things): Param | undefined {
  const parent = (value: string | undefined): Param => ({ role: "parent", value });
  const child = (value: string | undefined): Param => ({ role: "child", value });
  const workspace = Object.values(SERVICE_WORKSPACES).find((w) => pattern.startsWith(`${w.routeBase}/`) && name === w.idParam);
  if (workspace) return parent(things.byCollection[workspace.apiBase.split("/")[3]!]);
  const inWorkspace = Object.values(SERVICE_WORKSPACES).some((w) => pattern.startsWith(`${w.routeBase}/:${w.idParam}/`));
  const own = childrenOf(pattern, things);
  switch (name) {
    case "dataDictionaryId":
      return parent(things.dictionaryId);
    case "templateId":
      return inWorkspace ? child(own.templateId) : parent(own.templateId);
    case "levelId":
    case "scriptId":
      return child(own[name]);
    case "tableId":
      // A history entry's table is named by its name (paths.databases.entryTable).
      if (pattern.includes("/databases/history/")) return { role: "name", value: "SecretOrders" };
      return child(own.tableId);
    case "mappingSourceTableId":
      return child(things.mapping.tableId);
    case "columnId":
    case "translationId":
    case "historyId":
    case "backupId":
    case "runId":
      return child(own[name]);
    case "version":
      return { role: "name", value: "1" };
    case "tableName":
      return { role: "name", value: "SecretOrders" };
  }
  return undefined;
}

/**
 * The children of what `pattern` is under, among `things`: a workspace's are its own kind's (a configuration's table,
 * its copy of the Onboarding master, its runs…); a master's are its area's master template's and the dictionary's.
 */
function childrenOf(pattern: string, things: Things): Partial<Record<string, string>> {
  const kind = Object.values(SERVICE_WORKSPACES).find((w) => pattern.startsWith(`${w.routeBase}/:${w.idParam}/`))?.kind;
  const byKind = { migration: { ...things.project, ...things.others }, onboarding: things.configuration, translation: { ...things.others, ...things.mapping } };
  if (kind) return byKind[kind];
  const area = (["onboarding", "translations"] as const).find((a) => pattern.startsWith(`/${a}/`));
  return { ...things.master, ...(area ? things.masters[area] : {}) };
}

const paramsOf = (pattern: string) => [...pattern.matchAll(/:(\w+)/g)].map((m) => m[1]!);

/** `pattern` with its i-th parameter `valueAt(i, name)`, or an id of nothing (a child the fixtures could not make: no PostgreSQL). */
const fill = (pattern: string, valueAt: (i: number, name: string) => string | undefined) => {
  let i = 0;
  return pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(valueAt(i++, name) ?? crypto.randomUUID()));
};

/**
 * The requests of a caller signed in for real, to the built portal: `send` one, or the answer `settled` after the
 * portal's redirects (to the area's permission-denied page, a page's to its first tab).
 */
async function callerOf(email: string) {
  const viaPortal = (request: Request) => portal.handle(request);
  const { cookie } = await signIn({ login: viaPortal, callback: viaPortal }, email);
  const send = (url: string, init: RequestInit = {}) =>
    portal.handle(new Request(`${PORTAL_URL}${url}`, { ...init, headers: { cookie, origin: PORTAL_URL, ...init.headers }, redirect: "manual" }));
  async function settled(url: string, init?: RequestInit): Promise<Answer> {
    let res = await send(url, init);
    for (let hops = 0; res.status >= 300 && res.status < 400 && hops < 5; hops++) {
      const next = new URL(res.headers.get("location")!, `${PORTAL_URL}${url}`);
      url = next.pathname + next.search;
      res = await send(url);
    }
    return { status: res.status, url, text: await res.text() };
  }
  const post = (url: string, fields: Record<string, string>) =>
    settled(url, { method: "POST", body: new URLSearchParams(fields), headers: { "content-type": "application/x-www-form-urlencoded" } });
  return { send, settled, post };
}

type Answer = { status: number; url: string; text: string };
const denied = (answer: Answer) => answer.url.startsWith("/permission-denied");

/** The answers that are wrong: not refused, or showing any of Acme's names. */
function checker() {
  const wrong: string[] = [];
  const check = (what: string, answer: Answer, refused: boolean) => {
    const leaked = theirs.names.filter((n) => answer.text.includes(n));
    if (!refused || leaked.length) wrong.push(`${what}: ${answer.status} at ${answer.url} ${leaked.join(", ")}`);
  };
  return { wrong, check };
}

/** A post's fields: the intents and fields of the portal's forms, Acme's ids in every field that names a thing. */
const postFields = (things: Things): Record<string, string> => ({
  intent: "update",
  version: "1",
  name: "Changed from Birch",
  description: "Changed from Birch",
  projectId: things.byCollection.projects!,
  configurationId: things.byCollection["audit-projects"]!,
  mappingProjectId: things.byCollection["mapping-projects"]!,
  dataDictionaryId: things.dictionaryId,
  templateId: things.master.templateId,
  levelId: things.master.levelId,
  scriptId: things.master.scriptId,
});

const CALLERS = [
  ["an analyst of Acme and Birch working in Birch", ANALYST],
  ["Birch's ClientAdmin, who has no role in Acme", CLIENT_ADMIN],
] as const;

describe.each(CALLERS)("Acme's ids on every page of the portal, asked by %s", (_, email) => {
  it("answer not found (or permission denied), show none of Acme's names, and change nothing", async () => {
    const { send, settled, post } = await callerOf(email);
    const { wrong, check } = checker();
    const patterns = sweptPatterns();
    expect(patterns.length).toBeGreaterThan(150);
    for (const { pattern, action } of patterns) {
      const path = fill(pattern, (_, name) => paramOf(name, pattern, theirs)?.value);
      const url = `${path}?companyId=${birch.id}`;
      const page = await settled(url);
      check(`GET ${url}`, page, page.status === 404 || denied(page));
      // A client navigation's data request: not found, or the redirect a page would follow.
      const data = await send(`${path}.data?companyId=${birch.id}`);
      check(`GET ${path}.data`, { status: data.status, url: path, text: await data.text() }, data.status === 404 || data.status === 202);
      if (!action) continue;
      const posted = await post(url, postFields(theirs));
      check(`POST ${url}`, posted, posted.status === 404 || denied(posted));
    }
    expect(wrong).toEqual([]);
    expect(await snapshots()).toEqual(before);
  }, 600_000);
});

describe("my parent, your child", () => {
  it("every path parameter of the route map is one the sweep knows: the parent a page is under, a child of it, or a name", () => {
    const unknown = sweptPatterns().flatMap(({ pattern }) => paramsOf(pattern).filter((name) => !paramOf(name, pattern, ours)));
    expect(unknown).toEqual([]);
  });

  describe.each(CALLERS)("asked by %s", (_, email) => {
    it("a page under Birch's own parent with Acme's child ids answers not found, shows none of Acme's names, and changes nothing", async () => {
      const { send, settled, post } = await callerOf(email);
      const { wrong, check } = checker();
      let swept = 0;
      for (const { pattern, action } of sweptPatterns()) {
        const names = paramsOf(pattern);
        const roles = names.map((name) => paramOf(name, pattern, ours)!.role);
        if (!roles.includes("child")) continue;
        const ownUrl = `${fill(pattern, (_, name) => paramOf(name, pattern, ours)!.value)}?companyId=${birch.id}`;
        const own = await settled(ownUrl);
        // Refused with the caller's own ids too (an area the role may not open, a create page to a reader: sent elsewhere
        // before any lookup); a page that checks that and looks the child up at once may answer either first.
        const ownRefused = own.url !== ownUrl;
        // The caller's own children are real ones (unless the fixtures could not make them: no PostgreSQL), so that
        // the page is shown to show that only Acme's are refused.
        if (own.status === 404 && names.every((name) => paramOf(name, pattern, ours)!.value)) wrong.push(`GET ${ownUrl} (Birch's own): 404`);
        const asOwn = (answer: Answer) => ownRefused && answer.status === own.status && answer.url === own.url;
        // Each child in turn is Acme's, with what it is under the caller's own (a project's template, that template's level…).
        for (let k = 0; k < names.length; k++) {
          if (roles[k] !== "child") continue;
          swept++;
          const childOf = (other: Things | undefined) => (i: number, name: string) =>
            i >= k && roles[i] === "child" ? other && paramOf(name, pattern, other)!.value : paramOf(name, pattern, ours)!.value;
          const path = fill(pattern, childOf(theirs));
          const url = `${path}?companyId=${birch.id}`;
          const refused = (answer: Answer) => answer.status === 404 || asOwn(answer);
          const page = await settled(url);
          check(`GET ${url}`, page, refused(page));
          const data = await send(`${path}.data?companyId=${birch.id}`);
          check(`GET ${path}.data`, { status: data.status, url: path, text: await data.text() }, data.status === 404 || (ownRefused && data.status === 202));
          if (!action) continue;
          // Each intent the page's own forms send, so that a post reaches the lookups behind it. A refusal before any
          // lookup (the form's own validation, the caller's role) is the one an id of nothing gets too.
          const nothingUrl = `${fill(pattern, childOf(undefined))}?companyId=${birch.id}`;
          for (const intent of intentsOf(own.text)) {
            const fields = { ...postFields(theirs), intent };
            const posted = await post(url, fields);
            const asNothing = async () => sameAnswer(posted, url, await post(nothingUrl, fields), nothingUrl);
            check(`POST ${url} (${intent})`, posted, refused(posted) || (posted.status < 500 && (await asNothing())));
          }
        }
      }
      expect(swept).toBeGreaterThan(100);
      expect(wrong).toEqual([]);
      expect(await snapshots()).toEqual(before);
    }, 600_000);

    it("a form or link on Birch's own page that names Acme's child in a field is refused as an id of nothing is", async () => {
      const { settled, post } = await callerOf(email);
      const { wrong, check } = checker();
      let swept = 0;
      for (const { pattern } of sweptPatterns()) {
        const named = NAMED_CHILDREN.find((n) => pattern.endsWith(`/${n.page}`));
        if (!named) continue;
        const url = `${fill(pattern, (_, name) => paramOf(name, pattern, ours)!.value)}?companyId=${birch.id}`;
        const children = childrenOf(pattern, theirs);
        for (const query of named.query?.map((q) => q(children)) ?? []) {
          swept++;
          const [asked, askedNothing] = [query, nothingOf(query)].map((q) => `${url}&${new URLSearchParams(q)}`) as [string, string];
          const [page, nothing] = [await settled(asked), await settled(askedNothing)];
          check(
            `GET ${asked} (an id of nothing: ${nothing.status} at ${nothing.url})`,
            page,
            page.status < 500 && sameAnswer(page, asked, nothing, askedNothing),
          );
        }
        for (const fields of named.body.map((b) => b(children))) {
          swept++;
          const posted = await post(url, fields);
          const nothing = await post(url, nothingOf(fields));
          check(
            `POST ${url} ${JSON.stringify(fields)} (an id of nothing: ${nothing.status} at ${nothing.url})`,
            posted,
            posted.status < 500 && sameAnswer(posted, url, nothing, url),
          );
        }
      }
      expect(swept).toBeGreaterThan(10);
      expect(wrong).toEqual([]);
      expect(await snapshots()).toEqual(before);
    }, 600_000);
  });
});

/** The intents the forms of a page send (a hidden field's or a button's value), or one a page would not know. */
function intentsOf(html: string): string[] {
  const intents = new Set<string>();
  for (const [tag] of html.matchAll(/<(input|button)\b[^>]*\bname="intent"[^>]*>/g)) {
    const value = /\bvalue="([^"]*)"/.exec(tag)?.[1];
    if (value) intents.add(value);
  }
  return intents.size ? [...intents] : ["update"];
}

/**
 * Whether two answers are the same refusal: the same status, and both where they were asked or both at the same page
 * (ids aside: the page of a preview names its upload).
 */
function sameAnswer(a: Answer, aUrl: string, b: Answer, bUrl: string) {
  const where = (answer: Answer, asked: string) =>
    answer.url === asked ? "here" : answer.url.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32}/g, "{id}");
  return a.status === b.status && where(a, aUrl) === where(b, bUrl);
}

/**
 * The forms and links of a workspace's pages that name a child in a field rather than in the path, as the data
 * API's sweep names them in a body (namedBy: an undo, a staged upload, a comparison): the preview of a staged
 * upload and its load (and its columns added to the tables), the confirmation of an undo and the undo, a restore
 * of a backup, a comparison with an earlier delivery.
 */
type Fields = (children: Partial<Record<string, string>>) => Record<string, string>;
const NAMED_CHILDREN: { page: string; query?: Fields[]; body: Fields[] }[] = [
  {
    page: "databases/flat-file/update-source",
    query: [(c) => ({ upload: c.uploadId! })],
    body: [(c) => ({ uploadId: c.uploadId!, table: "", mode: "replace", onRejected: "loadOthers" }), (c) => ({ intent: "add-columns", uploadId: c.uploadId! })],
  },
  {
    page: "databases/backup/update-source",
    query: [(c) => ({ undo: c.historyId! })],
    // The version is any: the entry is looked up (404 when it is not the workspace's) before the version is compared.
    body: [(c) => ({ intent: "undo", undo: c.historyId!, version: "0", reason: "" }), (c) => ({ intent: "restore-backup", backupId: c.backupId!, reason: "" })],
  },
  { page: "databases/compare-source", body: [(c) => ({ backupId: c.backupId! })] },
];

const CHILD_FIELDS = ["upload", "undo", "uploadId", "backupId"];

/** The same fields with an id of nothing in place of each child's. */
const nothingOf = (fields: Record<string, string>) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, CHILD_FIELDS.includes(k) ? crypto.randomUUID() : v]));
