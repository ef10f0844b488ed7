/**
 * Creating a master template through the portal's action against the live services, its form sent twice (a double
 * click without JavaScript, a reload that resends it, Back and submit): one template, and both go on to its page.
 */
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../scripts/demo-data";
import { startLiveServices } from "~/test/live-services";

const live = await startLiveServices();
afterAll(() => live.stop());

const { createHarness, unwrap } = await import("../workspace/test-support");
const { call, api } = await createHarness();
const create = await import("./create");

const [, acme] = DEMO_COMPANIES;
const ANALYST = "analyst@demo.test";
const url = `/migration/master-templates/create?companyId=${acme.id}`;
const named = async (name: string) =>
  ((await api(ANALYST, "GET", "/api/v1/master-templates", undefined, { companyId: acme.id, area: "migration", name })).items as { id: string; name: string }[])
    .filter((t) => t.name === name)
    .map((t) => t.id);

describe("creating a master template", () => {
  it("sent twice makes one template and both continue at its page; the page read again makes another", async () => {
    const page = (await call(ANALYST, url, create.loader)) as { madeId: string };
    const form = { id: page?.madeId ?? "", name: `Sent twice ${crypto.randomUUID().slice(0, 8)}`, description: "", type: "Core" };
    const first = await call(ANALYST, url, create.action, { form });
    const again = await call(ANALYST, url, create.action, { form });
    // Never the 409 "A template with this name already exists here" for the template the first one made.
    expect(unwrap(again)?.data?.result?.error).toBeUndefined();
    for (const answer of [first, again]) expect((answer as Response).headers.get("Location")).toBe(`/migration/master-templates/${page.madeId}/edit?companyId=${acme.id}`);
    expect(await named(form.name)).toEqual([page.madeId]);
    const reloaded = (await call(ANALYST, url, create.loader)) as { madeId: string };
    expect(reloaded.madeId).not.toBe(page.madeId);
    const other = `Sent once ${crypto.randomUUID().slice(0, 8)}`;
    expect((await call(ANALYST, url, create.action, { form: { ...form, id: reloaded.madeId, name: other } })) as Response).toBeInstanceOf(Response);
    expect(await named(other)).toEqual([reloaded.madeId]);
    // The first form sent again with another type (Back, the type changed) is refused at the top, naming what it made.
    const refused = unwrap(await call(ANALYST, url, create.action, { form: { ...form, type: "Mapping" } }));
    expect(refused?.status).toBe(409);
    expect(refused?.data.result.error).toEqual({ "": [expect.stringMatching(/^This form was sent already: the template Sent twice .* was made by it at /)] });
  });
});
