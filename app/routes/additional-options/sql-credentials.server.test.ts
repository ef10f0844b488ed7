/**
 * The SQL Credentials page's loader against the live services: the create form's User select offers
 * a page of the company's people, searched and counted by the client portal, never the whole company.
 */
import { afterAll, describe, expect, it, vi } from "vitest";
import { DEMO_COMPANIES } from "../../../scripts/demo-data";
import { isRedirect, startLiveServices } from "~/test/live-services";
import { DUPLICATE_SERVICE_NAME_MESSAGE } from "../../../services/data-api/src/routes/sql-access/sql-credentials";
import { INCOMPLETE_REQUEST } from "~/lib/forms.server";

const live = await startLiveServices();
afterAll(() => live.stop());

const { createHarness, unwrap } = await import("../workspace/test-support");
const { call } = await createHarness();
const credentials = await import("./sql-credentials");

const [, acme] = DEMO_COMPANIES;
const SUPER = "super@demo.test";
const PAGE = `/additional-options/sql-credentials/users?companyId=${acme!.id}`;

describe("the people a SQL credential may be made for", () => {
  it("are a page of the company's people, searched through the URL beside the credentials list, never the whole company", async () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    try {
      const found = (await call(SUPER, `${PAGE}&page=2&name=ANALYST&usersPageSize=10`, credentials.loader)) as any;
      expect(found.peopleSearch).toEqual({ name: "ANALYST", sort: "name", page: 1, pageSize: 10 });
      expect(found.people).toMatchObject({ total: 1, items: [{ name: "Ann Analyst", email: "analyst@demo.test" }] });
      // The credentials list keeps its own page.
      expect(found.search).toMatchObject({ page: 2 });
      const asked = fetchSpy.mock.calls
        .map(([u]) => new URL(u instanceof Request ? u.url : String(u)))
        .filter((u) => u.pathname.startsWith(`/api/v1/companies/${acme!.id}/users`));
      expect(asked.map((u) => [u.pathname, Object.fromEntries(u.searchParams)])).toEqual([
        [`/api/v1/companies/${acme!.id}/users/page`, { name: "ANALYST", page: "1", pageSize: "10", include: "roles" }],
      ]);
    } finally {
      fetchSpy.mockRestore();
    }
    // Past the end of the people: nobody on the page, the count still said.
    const past = (await call(SUPER, `${PAGE}&usersPage=40`, credentials.loader)) as any;
    expect(past.people.items).toEqual([]);
    expect(past.people.total).toBeGreaterThan(0);
  });
});

describe("a credential's Rotate password", () => {
  it("from a page that has not seen a rotation made since (another tab, another admin) is refused in its row, and nothing is rotated", async () => {
    const expiresOn = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const made = unwrap(await call(SUPER, PAGE, credentials.action, { form: { intent: "create", serviceName: `Rotated ${Date.now()}`, expiresOn } }));
    const { credential } = made!.data.issued as { credential: { id: string; login: string; passwordSetAt: string } };
    const rotate = () => call(SUPER, PAGE, credentials.action, { form: { intent: "rotate", id: credential.id, passwordSetAt: credential.passwordSetAt } });
    // The other tab rotates first; this page still shows the password set at creation.
    expect(unwrap(await rotate())?.data.issued).toBeTruthy();
    const refused = unwrap(await rotate());
    expect(refused?.status).toBe(409);
    expect(refused?.data).toMatchObject({
      form: "rotate",
      result: { error: { "": [expect.stringMatching(`^The password of ${credential.login} was rotated meanwhile, at`)] } },
    });
  });

  it("posted without the password's time its page always sends (forged or cut short) is refused in words in its row, and nothing is rotated", async () => {
    const expiresOn = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const made = unwrap(await call(SUPER, PAGE, credentials.action, { form: { intent: "create", serviceName: `Unversioned ${Date.now()}`, expiresOn } }));
    const { credential } = made!.data.issued as { credential: { id: string; passwordSetAt: string } };
    const forms: Record<string, string>[] = [
      { intent: "rotate", id: credential.id },
      { intent: "rotate", id: credential.id, passwordSetAt: "" },
    ];
    for (const form of forms) {
      const refused = unwrap(await call(SUPER, PAGE, credentials.action, { form }));
      expect(refused?.status).toBe(400);
      expect(refused?.data).toMatchObject({ form: "rotate", result: { error: { "": [INCOMPLETE_REQUEST] } } });
    }
    const listed = (await call(SUPER, PAGE, credentials.loader)) as { credentials: { items: { id: string; passwordSetAt: string }[] } };
    expect(listed.credentials.items.find((c) => c.id === credential.id)?.passwordSetAt).toBe(credential.passwordSetAt);
  });
});

describe("a credential's Create", () => {
  it("for a service whose name a credential of the company holds is refused at the name with 409, and nothing is made", async () => {
    const expiresOn = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const serviceName = `etl_job ${Date.now()}`;
    const create = (name: string) => call(SUPER, PAGE, credentials.action, { form: { intent: "create", serviceName: name, expiresOn } });
    expect(unwrap(await create(serviceName))!.data.issued).toBeTruthy();
    const refused = unwrap(await create(serviceName.toUpperCase()));
    expect(refused?.status).toBe(409);
    expect(refused?.data).toMatchObject({ form: "create", result: { error: { serviceName: [DUPLICATE_SERVICE_NAME_MESSAGE] } } });
    expect(refused?.data.result.error[""]).toBeUndefined();
    const listed = (await call(SUPER, `${PAGE}&pageSize=100`, credentials.loader)) as any;
    expect(listed.credentials.items.filter((c: { name: string }) => c.name.toLowerCase() === serviceName.toLowerCase())).toHaveLength(1);
  });
});

describe("a credential's Revoke", () => {
  it("goes back to the list with its filter, sort, page and page size and the User select's search, without the confirmation", async () => {
    const expiresOn = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const made = unwrap(await call(SUPER, PAGE, credentials.action, { form: { intent: "create", serviceName: `Revoked back ${Date.now()}`, expiresOn } }));
    const { credential } = made!.data.issued as { credential: { id: string } };
    const listed = "&name=ann&usersPage=2&status=Active&sort=name&page=2&pageSize=10";
    const revoked = await call(SUPER, `${PAGE}${listed}&revoke=${credential.id}`, credentials.action, {
      form: { intent: "revoke", id: credential.id, reason: "" },
    });
    expect(isRedirect(revoked, `${PAGE}${listed}`)).toBe(true);
  });
});

describe("a Revoke link whose credential the list cannot show", () => {
  it("says the credential is revoked already when it is, and answers 404 with the same words for an unknown id or another company's, naming nothing", async () => {
    const expiresOn = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const make = async (page: string) =>
      (
        unwrap(await call(SUPER, page, credentials.action, { form: { intent: "create", serviceName: `Revoke link ${crypto.randomUUID()}`, expiresOn } }))!.data
          .issued as { credential: { id: string; login: string } }
      ).credential;
    const own = await make(PAGE);
    await call(SUPER, PAGE, credentials.action, { form: { intent: "revoke", id: own.id, reason: "" } });
    const again = (await call(SUPER, `${PAGE}&revoke=${own.id}`, credentials.loader)) as any;
    expect(again.revokeMissing).toBe(`Credential ${own.login} is revoked already, perhaps from another tab: there is nothing to revoke.`);

    const [other] = DEMO_COMPANIES;
    const theirs = await make(`/additional-options/sql-credentials/users?companyId=${other!.id}`);
    for (const id of [theirs.id, crypto.randomUUID()]) {
      const missing = unwrap(await call(SUPER, `${PAGE}&revoke=${id}`, credentials.loader));
      expect(missing?.status).toBe(404);
      expect(missing?.data.revokeMissing).toBe("This link names no SQL credential of this company: nothing was revoked.");
      expect(missing?.data.revoking).toBeNull();
      expect(JSON.stringify(missing?.data)).not.toContain(theirs.login);
    }
    // Filtered out of the list (Active only), the revoked credential is said revoked all the same.
    const filtered = (await call(SUPER, `${PAGE}&status=Active&revoke=${own.id}`, credentials.loader)) as any;
    expect(filtered.revokeMissing).toBe(`Credential ${own.login} is revoked already, perhaps from another tab: there is nothing to revoke.`);
    expect(filtered.revoking).toBeNull();
  });

  it("confirms the revocation of the company's credential on any page of the list, whatever its filter or sort, and revokes it from there", async () => {
    const expiresOn = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const made = unwrap(
      await call(SUPER, PAGE, credentials.action, { form: { intent: "create", serviceName: `Elsewhere ${crypto.randomUUID()}`, expiresOn } }),
    );
    const { credential } = made!.data.issued as { credential: { id: string; login: string } };
    // Not on the page shown: the newest is on the first page, not the second; a status that hides it, with a sort.
    for (const listed of ["&page=2", "&status=Revoked", "&status=Expired&sort=name"]) {
      const page = (await call(SUPER, `${PAGE}${listed}&revoke=${credential.id}`, credentials.loader)) as any;
      expect(page.credentials.items.map((c: { id: string }) => c.id)).not.toContain(credential.id);
      expect(page.revoking).toMatchObject({ id: credential.id, login: credential.login, status: "Active" });
      expect(page.revokeMissing).toBeNull();
    }
    const revoked = await call(SUPER, `${PAGE}&page=2&revoke=${credential.id}`, credentials.action, {
      form: { intent: "revoke", id: credential.id, reason: "" },
    });
    expect(isRedirect(revoked, `${PAGE}&page=2`)).toBe(true);
    const after = (await call(SUPER, `${PAGE}&page=2&revoke=${credential.id}`, credentials.loader)) as any;
    expect(after.revoking).toBeNull();
    expect(after.revokeMissing).toBe(`Credential ${credential.login} is revoked already, perhaps from another tab: there is nothing to revoke.`);
  });
});
