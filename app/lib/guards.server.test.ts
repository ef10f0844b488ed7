import { afterAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../scripts/demo-data";
import { PORTAL_URL, isRedirect, routeArgs, sessionCookies, settle, signIn, signInLoaders, startLiveServices, throughMiddleware } from "~/test/live-services";
import { flashOf } from "~/test/flash-of";

const live = await startLiveServices();
afterAll(() => live.stop());

const { shellMiddleware, shellOf, requireArea, requireUnlocked, requireWrite, READ_ONLY_MESSAGE } = await import("./guards.server");
type Shell = import("./guards.server").Shell;
const { getSession, sessionStorage } = await import("./session.server");
const { middleware: areaMiddleware } = await import("~/routes/area/layout");

const [cedar, acme, birch] = DEMO_COMPANIES;
const cookieFor = sessionCookies();

const passed = () => Promise.resolve(new Response("the page"));

/** Runs the shell middleware, then `more` (area guards), for `path` as `email`. */
async function visit(email: string | null, path: string, more: Array<(args: any, next: () => Promise<Response>) => unknown> = []) {
  const request = new Request(`${PORTAL_URL}${path}`, { headers: email ? { cookie: await cookieFor(email) } : {} });
  const args = routeArgs(request);
  const result = await throughMiddleware(args, [shellMiddleware, ...more], passed);
  const shell = await (async (): Promise<Shell | null> => {
    try {
      return await shellOf(args.context);
    } catch {
      return null;
    }
  })();
  return { result, shell };
}

describe("shell: signed in and in a company", () => {
  it("sends a signed-out visitor to /login with the page as redirectTo", async () => {
    const { result } = await visit(null, "/migration/projects?companyId=x");
    expect(isRedirect(result, "/login?redirectTo=%2Fmigration%2Fprojects%3FcompanyId%3Dx")).toBe(true);
  });

  it("sends a post whose session ended back to the form's page after sign-in, never to another site", async () => {
    /** What a signed-out post to `action` from the page at `referer` is redirected to. */
    const post = async (action: string, referer?: string) => {
      const request = new Request(`${PORTAL_URL}${action}`, { method: "POST", body: new URLSearchParams({ name: "typed" }), headers: referer ? { referer } : {} });
      return settle(Promise.resolve(shellMiddleware(routeArgs(request) as never, passed)));
    };
    const page = "/migration/projects/p1/templates/assigned?companyId=x";
    // A fetcher's post to another route, an index route's ?index: the form's page, not the action's URL.
    expect(isRedirect(await post("/sidebar", `${PORTAL_URL}${page}`), `/login?redirectTo=${encodeURIComponent(page)}`)).toBe(true);
    expect(isRedirect(await post("/migration/application/create?index&companyId=x", `${PORTAL_URL}/migration/application/create?companyId=x`), "/login?redirectTo=%2Fmigration%2Fapplication%2Fcreate%3FcompanyId%3Dx")).toBe(true);
    // Another site's page, or none: the action's own path, as before.
    expect(isRedirect(await post("/migration/projects?companyId=x", "https://evil.example/migration/data-dictionary"), "/login?redirectTo=%2Fmigration%2Fprojects%3FcompanyId%3Dx")).toBe(true);
    expect(isRedirect(await post("/migration/projects?companyId=x"), "/login?redirectTo=%2Fmigration%2Fprojects%3FcompanyId%3Dx")).toBe(true);
  });

  it("adds the first company by name when companyId is missing, keeping other parameters", async () => {
    const { result } = await visit("analyst@demo.test", "/migration/projects?page=2");
    expect(isRedirect(result, `/migration/projects?page=2&companyId=${acme.id}`)).toBe(true);
  });

  it("corrects an unknown companyId, and one of a company the user has no permission for", async () => {
    expect(isRedirect((await visit("analyst@demo.test", "/migration/projects?companyId=nope")).result, `/migration/projects?companyId=${acme.id}`)).toBe(true);
    expect(isRedirect((await visit("analyst@demo.test", `/migration/projects?companyId=${cedar.id}`)).result, `/migration/projects?companyId=${acme.id}`)).toBe(true);
  });

  it("lists an admin's companies sorted by name", async () => {
    const { result, shell } = await visit("super@demo.test", `/migration/projects?companyId=${birch.id}`);
    expect(result).toBeInstanceOf(Response);
    expect(shell?.companies.map((c) => c.name)).toEqual(["Acme Health", "Birch Logistics", "Cedar Retail"]);
    expect(shell?.roles).toEqual(["SuperAdmin"]);
  });

  it("gives a non-admin the role of the selected company", async () => {
    expect((await visit("clientadmin@demo.test", `/migration/projects?companyId=${birch.id}`)).shell?.roles).toEqual(["DataTransformation_ClientAdmin"]);
    expect((await visit("clientadmin@demo.test", `/migration/projects?companyId=${cedar.id}`)).shell?.roles).toEqual(["DataTransformation_Viewer"]);
    expect((await visit("clientadmin@demo.test", `/migration/projects?companyId=${cedar.id}`)).shell?.companies.map((c) => c.name)).toEqual([
      "Birch Logistics",
      "Cedar Retail",
    ]);
  });

  it("falls back to the identity roles when the permissions call fails (never more)", async () => {
    const { cookie } = await signIn(await signInLoaders(), "clientadmin@demo.test");
    const session = await getSession(new Request(PORTAL_URL, { headers: { cookie } }));
    // Asking for another user's permissions is refused by the client portal: the call fails.
    session.set("auth", { ...session.get("auth")!, userId: "a0000000-0000-4000-8000-000000000001" });
    await sessionStorage.commitSession(session);
    const request = new Request(`${PORTAL_URL}/migration/projects?companyId=${cedar.id}`, { headers: { cookie } });
    const args = routeArgs(request);
    await shellMiddleware(args, passed);
    expect((await shellOf(args.context)).roles).toEqual(["DataTransformation_ClientAdmin"]);
  });
});

describe("area guard", () => {
  const migration = `/migration/projects`;
  it.each([
    ["viewer@demo.test", acme.id, migration],
    ["manager@demo.test", cedar.id, migration],
    ["clientadmin@demo.test", cedar.id, migration],
    ["clientadmin@demo.test", birch.id, "/onboarding/configurations"],
    ["analyst@demo.test", acme.id, "/additional-options/product-info/details"],
    ["translator@demo.test", acme.id, migration],
  ])("%s in %s is sent from %s to /permission-denied (company kept)", async (email, companyId, path) => {
    const { result } = await visit(email, `${path}?companyId=${companyId}`, areaMiddleware);
    expect(isRedirect(result, `/permission-denied?companyId=${companyId}`)).toBe(true);
  });

  it.each([
    ["clientadmin@demo.test", birch.id, migration],
    ["analyst@demo.test", birch.id, "/onboarding/data-dictionary"],
    ["translator@demo.test", acme.id, "/translations/mappings"],
    ["support@demo.test", cedar.id, "/additional-options/sql-credentials/users"],
  ])("%s in %s may open %s", async (email, companyId, path) => {
    const { result } = await visit(email, `${path}?companyId=${companyId}`, areaMiddleware);
    expect(await (result as Response).text()).toBe("the page");
  });

  it("opens no area to a permission entry naming SuperAdmin or Support (identity roles only), whose every call the data API refuses", async () => {
    const MANAGER_ID = "a0000000-0000-4000-8000-000000000006";
    const entry = live.clientPortalDb.updateTable("permissions").where("user_id", "=", MANAGER_ID).where("company_id", "=", cedar.id);
    await entry.set({ product_role_name: "SuperAdmin" }).execute();
    try {
      // A new session: the shell's data is cached per session.
      const { cookie } = await signIn(await signInLoaders(), "manager@demo.test");
      for (const path of ["/additional-options/sql-credentials/users", "/migration/projects", "/onboarding/configurations"]) {
        const request = new Request(`${PORTAL_URL}${path}?companyId=${cedar.id}`, { headers: { cookie } });
        const args = routeArgs(request);
        const result = await throughMiddleware(args, [shellMiddleware, ...areaMiddleware], passed);
        expect(isRedirect(result, `/permission-denied?companyId=${cedar.id}`), path).toBe(true);
        expect((await shellOf(args.context)).roles).toEqual([]);
      }
    } finally {
      await entry.set({ product_role_name: "DataTransformation_Manager" }).execute();
    }
  });

  it("guards actions too: a POST by a viewer never reaches the action", async () => {
    const request = new Request(`${PORTAL_URL}${migration}?companyId=${acme.id}`, {
      method: "POST",
      headers: { cookie: await cookieFor("viewer@demo.test") },
    });
    const args = routeArgs(request);
    let reached = false;
    const result = await settle(
      shellMiddleware(args, () => Promise.resolve(requireArea("migration")(args, async () => ((reached = true), new Response()))) as Promise<Response>),
    );
    expect(isRedirect(result, `/permission-denied?companyId=${acme.id}`)).toBe(true);
    expect(reached).toBe(false);
  });
});

describe("entity guards", () => {
  it("a locked project sends the page to its background-process page, keeping the company", async () => {
    const thrown = await requireUnlocked({ isLocked: true }, "/migration/projects/p1/background-process", acme.id).catch((e: unknown) => e);
    expect(isRedirect(thrown, `/migration/projects/p1/background-process?companyId=${acme.id}`)).toBe(true);
    await expect(requireUnlocked({ isLocked: false }, "/x", acme.id)).resolves.toBeUndefined();
  });

  it("a write to a locked project lands on its background-process page saying that nothing was changed, and why, in words", async () => {
    const page = "/migration/projects/p1/details";
    const write = { request: new Request(`${PORTAL_URL}${page}`, { method: "POST" }), noun: "project" };
    const thrown = await requireUnlocked({ isLocked: true, lockReason: "FlatFileCreation" }, "/migration/projects/p1/background-process", acme.id, write).catch(
      (e: unknown) => e,
    );
    expect(isRedirect(thrown, `/migration/projects/p1/background-process?companyId=${acme.id}`)).toBe(true);
    expect(await flashOf(thrown)).toEqual({
      kind: "error",
      text: "Nothing was changed: the project is locked (Flat file creation) while a background job runs. This page follows it: try again when it has finished.",
    });
    // Reading a lock-sensitive page is sent there without a word, as before: the page says the lock itself.
    const read = { request: new Request(`${PORTAL_URL}${page}`), noun: "project" };
    const sent = await requireUnlocked({ isLocked: true, lockReason: "Backup" }, "/migration/projects/p1/background-process", acme.id, read).catch((e: unknown) => e);
    expect(isRedirect(sent)).toBe(true);
    expect((sent as Response).headers.get("Set-Cookie")).toBeNull();
  });

  it("no write permission sends an edit page to its parent route, which says why", async () => {
    const thrown = await requireWrite({ canWrite: false }, "/migration/projects/p1/details", acme.id).catch((e: unknown) => e);
    expect(isRedirect(thrown, `/migration/projects/p1/details?companyId=${acme.id}`)).toBe(true);
    expect(await flashOf(thrown)).toEqual({ kind: "error", text: READ_ONLY_MESSAGE });
    await expect(requireWrite({ canWrite: true }, "/x", acme.id)).resolves.toBeUndefined();
  });
});
