import { afterAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../scripts/demo-data";
import { UNKNOWN_EVENT_MESSAGE } from "../../../contracts/notifications";
import { SENT_MORE_THAN_ONCE } from "~/lib/forms.server";
import { flashOf } from "~/test/flash-of";
import { startLiveServices } from "~/test/live-services";

/**
 * The Notifications page's actions, behind the shell and area middleware, against the live services:
 * a forged post is refused with its message next to the field it names, and nothing is added.
 */
const live = await startLiveServices();
afterAll(() => live.stop());

const { createHarness, unwrap } = await import("../workspace/test-support");
const { call } = await createHarness();
const notifications = await import("./notifications");

const [, , birch] = DEMO_COMPANIES;
const SUPER = "super@demo.test";
const page = `/additional-options/notifications?companyId=${birch.id}`;

describe("adding a webhook", () => {
  /** The add form posted and refused with 400, no webhook added: the refusal's errors. */
  async function refusedAdd(fields: [string, string][]) {
    const before = (await call(SUPER, page, notifications.loader)) as { webhooks: unknown[] };
    const refused = unwrap(await call(SUPER, page, notifications.action, { form: [["intent", "add"], ...fields] }));
    expect(refused?.status).toBe(400);
    expect(((await call(SUPER, page, notifications.loader)) as { webhooks: unknown[] }).webhooks).toHaveLength(before.webhooks.length);
    return refused?.data.result.error;
  }

  it("with an event the page does not offer is refused next to the events (400), and no webhook is added", async () => {
    const form: [string, string][] = [
      ["url", "https://hooks.example.test/dt"],
      ["events", "run.ended"],
      ["events", "everything"],
    ];
    expect(await refusedAdd(form)).toEqual({ events: [UNKNOWN_EVENT_MESSAGE] });
  });

  it("with a field sent more than once (a forged or mangled post) is refused next to it in words (400), the events staying a list, and no webhook is added", async () => {
    const form: [string, string][] = [
      ["url", "https://hooks.example.test/one"],
      ["url", "https://hooks.example.test/two"],
      ["events", "run.ended"],
      ["events", "run.ended"],
    ];
    expect(await refusedAdd(form)).toEqual({ url: [SENT_MORE_THAN_ONCE] });
  });

  it("sent again with the id its page gave it (a reload of the secret's page without JavaScript) is refused at the top, and adds no second webhook", async () => {
    const before = (await call(SUPER, page, notifications.loader)) as { webhooks: unknown[]; madeId: string };
    const url = `https://hooks.example.test/twice-${before.madeId}`;
    const form: [string, string][] = [
      ["intent", "add"],
      ["id", before.madeId],
      ["url", url],
      ["events", "run.ended"],
    ];
    const added = unwrap(await call(SUPER, page, notifications.action, { form }));
    expect(added?.data).toMatchObject({ url, secret: expect.any(String) });
    const again = unwrap(await call(SUPER, page, notifications.action, { form }));
    expect(again?.status).toBe(409);
    expect(again?.data.result.error[""][0]).toMatch(`This form was sent already: the webhook to ${url} was made by it at`);
    const after = (await call(SUPER, page, notifications.loader)) as { webhooks: unknown[]; madeId: string };
    expect(after.webhooks).toHaveLength(before.webhooks.length + 1);
    // The page read again gives its form a new id: the next webhook is added.
    expect(after.madeId).not.toBe(before.madeId);
  });

  it("with a form id that is not the page's (a forged or cut post) is refused at the top in plain words (400), and no webhook is added", async () => {
    const form: [string, string][] = [
      ["id", "not-a-form-id"],
      ["url", "https://hooks.example.test/forged-id"],
      ["events", "run.ended"],
    ];
    // The id is sent hidden: no field shows its error, so it is said at the top.
    expect((await refusedAdd(form))[""]).toEqual(["The request was incomplete: reload the page and try again."]);
  });
});

describe("removing a webhook", () => {
  it("without the webhook's id (a forged post) is refused at the top in plain words (400), and nothing is removed", async () => {
    const before = (await call(SUPER, page, notifications.loader)) as { webhooks: unknown[] };
    const refused = unwrap(await call(SUPER, page, notifications.action, { form: [["intent", "remove"]] }));
    expect(refused?.status).toBe(400);
    expect(refused?.data.result.error).toEqual({ "": ["The request was incomplete: reload the page and try again."] });
    expect(((await call(SUPER, page, notifications.loader)) as { webhooks: unknown[] }).webhooks).toHaveLength(before.webhooks.length);
  });
});

describe("sending a test", () => {
  it("to an endpoint that cannot be reached says so as a failure, in sentences, and that it is retried", async () => {
    const { madeId } = (await call(SUPER, page, notifications.loader)) as { madeId: string };
    // A name that resolves to nothing (.invalid, RFC 6761): no address, so no delivery, whatever the network.
    const url = `https://hooks.example.invalid/dt-${madeId}`;
    const added = unwrap(
      await call(SUPER, page, notifications.action, {
        form: [
          ["intent", "add"],
          ["id", madeId],
          ["url", url],
          ["events", "run.ended"],
        ],
      }),
    );
    expect(added?.data).toMatchObject({ url });
    const { webhooks } = (await call(SUPER, page, notifications.loader)) as { webhooks: { id: string; url: string }[] };
    const hook = webhooks.find((w) => w.url === url)!;
    const tested = await call(SUPER, page, notifications.action, {
      form: [
        ["intent", "test"],
        ["id", hook.id],
      ],
    });
    const flash = await flashOf(tested);
    expect(flash?.kind).toBe("error");
    expect(flash?.text).toMatch(/^Test not delivered: Could not reach the endpoint: .*hooks\.example\.invalid\. It is retried for 24 hours\.$/);
    await call(SUPER, page, notifications.action, {
      form: [
        ["intent", "remove"],
        ["id", hook.id],
      ],
    });
  });
});
