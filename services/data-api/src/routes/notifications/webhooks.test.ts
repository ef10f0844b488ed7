import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../../../scripts/demo-data.ts";
import { UNKNOWN_EVENT_MESSAGE, WEBHOOK_URL_CREDENTIALS_MESSAGE, type Delivery } from "../../../../../contracts/notifications.ts";
import type { Template } from "../../../../../contracts/templates.ts";
import { TEST_DATABASE_KINDS, TEST_POSTGRES_ADMIN_URL } from "../../../../shared/testing/databases.ts";
import { announceHeldLocks, attemptDelivery, deliverDue, enqueueEvent, enqueueTest, type WebhookDeliverySettings } from "../../notifications/webhooks.ts";
import { holdJobsOf } from "../../testing/hold-jobs.ts";
import { USERS, createTestApi, type TestApi } from "../../testing/harness.ts";
import { loadableProject, makeApplication } from "../../testing/project-fixtures.ts";

const [cedar, , birch] = DEMO_COMPANIES;

/** A real HTTP endpoint: records each POST, answers 500 once to each path in `failOnce`, else 200. */
async function startReceiver() {
  const received: { path: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  const failOnce = new Set<string>();
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body });
      const fail = failOnce.delete(req.url ?? "");
      res.writeHead(fail ? 500 : 200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/dt`;
  return { url, received, failOnce, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The tests' receivers listen on loopback, which only WEBHOOKS_ALLOW_PRIVATE_ADDRESSES lets deliveries reach (as the harness's app does). */
const local = { allowPrivateAddresses: true };

const signed = (secret: string, body: string) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

describe.skipIf(!TEST_POSTGRES_ADMIN_URL).each(TEST_DATABASE_KINDS)("webhooks on %s", (kind) => {
  let api: TestApi;
  let admin: string;
  let owner: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let applicationId: string;
  beforeAll(async () => {
    api = await createTestApi(kind);
    admin = await api.tokenFor(USERS.superAdmin);
    owner = await api.tokenFor(USERS.clientAdmin);
    applicationId = (await makeApplication(api, birch.id)).id;
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await api?.close();
  });

  const add = (body: object, token = owner) => api.send("POST", "/api/v1/webhooks", token, { companyId: birch.id, ...body });

  /** A Full run of one script in a new project of Birch; answers when the job has ended. */
  async function runOnce(sql: string) {
    const project = await loadableProject(api, owner, { companyId: birch.id, applicationId, sourceType: "BackUp" });
    await api.db.updateTable("projects").set({ status: "Active" }).where("id", "=", project.id).execute();
    const base = `/api/v1/projects/${project.id}/templates`;
    let t: Template = (await api.send("POST", base, owner, { name: "Main", type: "Core" })).body;
    t = (await api.send("POST", `${base}/${t.id}/levels`, owner, { version: t.version, name: "Load" })).body;
    expect((await api.send("POST", `${base}/${t.id}/levels/${t.levels[0]!.id}/scripts`, owner, { version: t.version, name: "Step", sql })).status).toBe(201);
    const started = await api.send("POST", `/api/v1/projects/${project.id}/run`, owner, { type: "Full", onError: "stop" });
    expect(started.status).toBe(202);
    await api.jobs.idle();
    return { project, runId: started.body.run.id as string };
  }

  it("a run's end reaches the company's webhook as a signed JSON POST; a failing endpoint is retried with backoff, never holding the run", async () => {
    const created = await add({ url: receiver.url, events: ["run.ended", "job.failed"] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const secret = created.body.secret as string;
    expect(secret.length).toBeGreaterThanOrEqual(40);
    // Another company's webhook hears nothing of Birch's runs.
    const cedarHook = await add({ companyId: cedar.id, url: `${receiver.url}/cedar`, events: ["run.ended"] }, admin);
    expect(cedarHook.status).toBe(201);
    // An endpoint that is down: the run ends as fast as ever, its delivery waits for a retry.
    const down = await add({ url: "http://127.0.0.1:9/down", events: ["run.ended"] });

    const { project, runId } = await runOnce(`insert into destination."Customers" select * from source."Customers";`);
    expect((await api.get(`/api/v1/projects/${project.id}/runs/${runId}`, owner)).body.status).toBe("SUCCESS");
    expect(receiver.received).toHaveLength(0);

    await deliverDue(api.db, local);
    expect(receiver.received).toHaveLength(1);
    const [post] = receiver.received;
    expect(post!.headers["content-type"]).toBe("application/json");
    expect(post!.headers["x-dt-event"]).toBe("run.ended");
    expect(post!.headers["x-dt-signature"]).toBe(signed(secret, post!.body));
    const payload = JSON.parse(post!.body);
    expect(payload).toMatchObject({
      event: "run.ended",
      companyId: birch.id,
      data: {
        workspace: { id: project.id, kind: "migration" },
        job: { kind: "ProjectRun", status: "SUCCESS" },
        run: { id: runId, type: "Full", status: "SUCCESS" },
      },
    });

    // The delivery log: delivered with its status code; the endpoint that is down has one failed attempt, due again in 30 s.
    const list = (await api.get(`/api/v1/webhooks?companyId=${birch.id}`, owner)).body as {
      id: string;
      deliveries: { status: string; lastStatusCode: number | null; attempts: number; lastError: string | null; nextAttemptAt: string }[];
    }[];
    const ours = list.find((h) => h.id === created.body.webhook.id)!;
    expect(ours.deliveries[0]).toMatchObject({ status: "Delivered", lastStatusCode: 200, attempts: 1 });
    const failing = list.find((h) => h.id === down.body.webhook.id)!.deliveries[0]!;
    expect(failing).toMatchObject({ status: "Pending", attempts: 1, lastStatusCode: null });
    expect(failing.lastError).toContain("Could not reach the endpoint");
    expect(Date.parse(failing.nextAttemptAt) - Date.now()).toBeGreaterThan(20_000);
    // After a day of retries it is Failed.
    await deliverDue(api.db, { ...local, now: () => new Date(Date.now() + 25 * 3600_000) });
    const after = (await api.get(`/api/v1/webhooks?companyId=${birch.id}`, owner)).body.find((h: { id: string }) => h.id === down.body.webhook.id);
    expect(after.deliveries[0]).toMatchObject({ status: "Failed", attempts: 2 });
  });

  it("a failed run is announced as run.ended and job.failed; a 500 is retried and then delivered", async () => {
    const hook = await add({ url: `${receiver.url}/failures`, events: ["job.failed"] });
    receiver.received.length = 0;
    receiver.failOnce.add("/hooks/dt/failures");
    await runOnce(`select 1/0;`);
    await deliverDue(api.db, local);
    const failedRows = () => receiver.received.filter((r) => r.path.endsWith("/failures"));
    // The first webhook (run.ended, job.failed) hears both; this one job.failed alone, answered 500 the first time.
    expect(
      receiver.received
        .filter((r) => r.path === "/hooks/dt")
        .map((r) => r.headers["x-dt-event"])
        .sort(),
    ).toEqual(["job.failed", "run.ended"]);
    expect(failedRows()).toHaveLength(1);
    let log = (await api.get(`/api/v1/webhooks?companyId=${birch.id}`, owner)).body.find((h: { id: string }) => h.id === hook.body.webhook.id);
    expect(log.deliveries[0]).toMatchObject({ event: "job.failed", status: "Pending", lastStatusCode: 500, lastError: "The endpoint answered 500." });
    // Due again 30 s later: delivered.
    await deliverDue(api.db, { ...local, now: () => new Date(Date.now() + 31_000) });
    log = (await api.get(`/api/v1/webhooks?companyId=${birch.id}`, owner)).body.find((h: { id: string }) => h.id === hook.body.webhook.id);
    expect(log.deliveries[0]).toMatchObject({ status: "Delivered", lastStatusCode: 200, attempts: 2 });
    expect(JSON.parse(failedRows().at(-1)!.body).data.job).toMatchObject({ kind: "ProjectRun", status: "ERROR" });
  });

  it("a lock held longer than the webhook's minutes is announced once, with the job that holds it", async () => {
    const hook = await add({ url: `${receiver.url}/locks`, events: ["lock.held"], lockMinutes: 30 });
    const project = await loadableProject(api, owner, { companyId: birch.id, applicationId, sourceType: "BackUp" });
    const release = holdJobsOf(api.jobs, project.id);
    try {
      const backup = await api.send("POST", `/api/v1/projects/${project.id}/backups`, owner, {});
      expect(backup.status).toBe(202);
      // Not yet 30 minutes: nothing; past them: one delivery, and only one however often it is looked at.
      expect(await announceHeldLocks(api.db, new Date(Date.now() + 29 * 60_000))).toBe(0);
      expect(await announceHeldLocks(api.db, new Date(Date.now() + 31 * 60_000))).toBe(1);
      expect(await announceHeldLocks(api.db, new Date(Date.now() + 45 * 60_000))).toBe(0);
      await deliverDue(api.db, { ...local, now: () => new Date(Date.now() + 31 * 60_000) });
      const post = receiver.received.filter((r) => r.path.endsWith("/locks"));
      expect(post).toHaveLength(1);
      expect(JSON.parse(post[0]!.body)).toMatchObject({ event: "lock.held", data: { workspace: { id: project.id }, lock: { reason: "Backup", jobId: backup.body.jobId } } });
    } finally {
      release();
      api.jobs.hooks.beforeStep = undefined;
      await api.jobs.idle();
    }
    expect((await api.send("DELETE", `/api/v1/webhooks/${hook.body.webhook.id}`, owner)).status).toBe(204);
  });

  it("an add form sent again with its id (a reload of the secret's page) is refused, naming what it added, and adds nothing more", async () => {
    const id = crypto.randomUUID();
    const url = `${receiver.url}/sent-twice`;
    const first = await add({ id, url, events: ["run.ended"] });
    expect(first.status).toBe(201);
    const again = await add({ id, url, events: ["run.ended"] });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "already_made" });
    expect(again.body.errors[0]).toMatch(
      new RegExp(`^This form was sent already: the webhook to ${url} was made by it at \\d\\d:\\d\\d UTC\\. Nothing more was made; its secret was shown then`),
    );
    const listed = (await api.get(`/api/v1/webhooks?companyId=${birch.id}`, owner)).body as { url: string }[];
    expect(listed.filter((w) => w.url === url)).toHaveLength(1);
  });

  it("an add form sent with another company's webhook's id (a forged one) answers as an unknown webhook: not that it exists, nor when it was added", async () => {
    const id = crypto.randomUUID();
    const cedars = await api.send("POST", "/api/v1/webhooks", admin, { companyId: cedar.id, id, url: `${receiver.url}/cedar-secret`, events: ["run.ended"] });
    expect(cedars.status).toBe(201);
    const forged = await add({ id, url: `${receiver.url}/forged`, events: ["run.ended"] });
    expect(forged.status).toBe(404);
    expect(forged.body.errors).toEqual(["Webhook not found."]);
    expect(JSON.stringify(forged.body)).not.toMatch(/\d\d:\d\d UTC|cedar-secret/);
    const listed = (await api.get(`/api/v1/webhooks?companyId=${birch.id}`, owner)).body as { url: string }[];
    expect(listed.filter((w) => w.url.endsWith("/forged"))).toHaveLength(0);
  });

  it("Send test's delivery is the request's to attempt: the delivery loop meanwhile does not take it first, and sends it only if the request never did", async () => {
    const hook = (await add({ url: `${receiver.url}/test-first`, events: ["run.ended"] })).body;
    const row = await api.db.selectFrom("webhooks").selectAll().where("id", "=", hook.webhook.id).executeTakeFirstOrThrow();
    const attempts = async (id: string) =>
      (await api.db.selectFrom("webhook_deliveries").select(["attempts", "status"]).where("id", "=", id).executeTakeFirstOrThrow()) as {
        attempts: number | string;
        status: string;
      };
    // The loop's tick between the request's write and its attempt (as POST …/test writes it): it leaves the test alone…
    const asked = await enqueueTest(api.db, row, USERS.clientAdmin.id);
    await deliverDue(api.db, { ...local, limit: 1000 });
    expect(await attempts(asked)).toEqual({ attempts: 0, status: "Pending" });
    // …so the request's own attempt is the one it answers: delivered, once.
    expect(await attemptDelivery(api.db, asked, local)).toMatchObject({ status: "Delivered", attempts: 1 });
    // A test whose request died before its attempt is sent by the loop, once a claimed attempt would have ended.
    const orphan = await enqueueTest(api.db, row, USERS.clientAdmin.id);
    await deliverDue(api.db, { ...local, limit: 1000, now: () => new Date(Date.now() + 5_000) });
    expect(await attempts(orphan)).toEqual({ attempts: 0, status: "Pending" });
    await deliverDue(api.db, { ...local, limit: 1000, now: () => new Date(Date.now() + 25_000) });
    expect(Number((await attempts(orphan)).attempts)).toBe(1);
    expect((await attempts(orphan)).status).toBe("Delivered");
    expect(receiver.received.filter((r) => r.path === "/hooks/dt/test-first")).toHaveLength(2);
  });

  it("Send test delivers at once; who may manage webhooks; bad input is refused naming the field", async () => {
    const hook = (await add({ url: `${receiver.url}/test`, events: ["lock.held"], lockMinutes: 30 })).body;
    const test = await api.send("POST", `/api/v1/webhooks/${hook.webhook.id}/test`, owner);
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ event: "test", status: "Delivered", lastStatusCode: 200 });
    expect(receiver.received.at(-1)!.headers["x-dt-signature"]).toBe(signed(hook.secret, receiver.received.at(-1)!.body));

    // An analyst (not the company's ClientAdmin) may not; in Cedar, where Carl is a Viewer, neither may he.
    expect((await api.get(`/api/v1/webhooks?companyId=${birch.id}`, await api.tokenFor(USERS.analyst))).status).toBe(403);
    const cedarHooks = (await api.get(`/api/v1/webhooks?companyId=${cedar.id}`, admin)).body;
    expect((await api.send("POST", `/api/v1/webhooks/${cedarHooks[0].id}/test`, owner)).status).toBe(403);
    // A company the caller cannot see at all answers 404, as an unknown webhook does.
    const nobody = await api.tokenFor(USERS.unassigned);
    expect((await api.send("POST", `/api/v1/webhooks/${cedarHooks[0].id}/test`, nobody)).status).toBe(404);
    expect((await api.send("POST", `/api/v1/webhooks/not-a-webhook/test`, owner)).status).toBe(404);
    // An admin working in Birch (the portal's page names its company) finds no Cedar webhook to test or remove.
    expect((await api.send("POST", `/api/v1/webhooks/${cedarHooks[0].id}/test?companyId=${birch.id}`, admin)).status).toBe(404);
    expect((await api.send("DELETE", `/api/v1/webhooks/${cedarHooks[0].id}?companyId=${birch.id}`, admin)).status).toBe(404);
    expect((await api.get(`/api/v1/webhooks?companyId=${cedar.id}`, admin)).body).toHaveLength(cedarHooks.length);

    const bad = await add({ url: "ftp://example.com", events: [] });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toMatchObject({ url: ["Give an http:// or https:// URL"], events: ["Choose at least one event"] });
    const credentials = await add({ url: "https://user:secret@hooks.example.com/dt", events: ["run.ended"] });
    expect(credentials.status).toBe(400);
    expect(credentials.body.fieldErrors.url).toEqual([WEBHOOK_URL_CREDENTIALS_MESSAGE]);
    // An event it does not know (a forged post) is refused at the events, not at an item no page shows.
    const unknownEvent = await add({ url: receiver.url, events: ["run.ended", "everything"] });
    expect(unknownEvent.status).toBe(400);
    expect(unknownEvent.body.fieldErrors).toEqual({ events: [UNKNOWN_EVENT_MESSAGE] });
    const noMinutes = await add({ url: receiver.url, events: ["lock.held"] });
    expect(noMinutes.body.fieldErrors.lockMinutes).toEqual(["Say after how many minutes a held lock is reported"]);

    // Removed: it is listed no more, and audited.
    expect((await api.send("DELETE", `/api/v1/webhooks/${hook.webhook.id}`, owner)).status).toBe(204);
    expect((await api.get(`/api/v1/webhooks?companyId=${birch.id}`, owner)).body.map((h: { id: string }) => h.id)).not.toContain(hook.webhook.id);
    const audit = await api.get(`/api/v1/audit-log?companyId=${birch.id}&action=webhook.removed`, admin);
    expect(audit.body.items[0]).toMatchObject({ target: `Webhook ${receiver.url}/test`, userId: USERS.clientAdmin.id });
  });
});

/** Without WEBHOOKS_ALLOW_PRIVATE_ADDRESSES, as in production: no run needed, so on SQLite without PostgreSQL too. */
describe.each(TEST_DATABASE_KINDS)("webhooks reach public addresses only, on %s", (kind) => {
  let api: TestApi;
  let owner: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    api = await createTestApi(kind);
    owner = await api.tokenFor(USERS.clientAdmin);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await api?.close();
  });

  /** A request to an app of the default settings (or `settings`), as the ClientAdmin of Birch. */
  async function send(method: string, path: string, body?: object, settings?: WebhookDeliverySettings) {
    const app = api.appWith({ webhooks: settings });
    const headers: Record<string, string> = { authorization: `Bearer ${owner}`, "content-type": "application/json" };
    const res = await app.request(path, { method, headers, body: body && JSON.stringify({ companyId: birch.id, events: ["run.ended"], ...body }) });
    return { status: res.status, body: (await res.json()) as any };
  }
  const deliveriesOf = async (id: string) =>
    (await api.get(`/api/v1/webhooks?companyId=${birch.id}`, owner)).body.find((h: { id: string }) => h.id === id).deliveries as Delivery[];

  it.each([
    ["http://127.0.0.1:4502/api/v1/companies/all", "127.0.0.1 is a loopback address."],
    ["http://169.254.169.254/latest/meta-data", "169.254.169.254 is a link-local address."],
    ["http://[::ffff:169.254.169.254]/latest/meta-data", "::ffff:a9fe:a9fe is a link-local address."],
    ["http://10.0.0.5/hook", "10.0.0.5 is a private address."],
    ["http://localhost:3002/api/v1/companies", "localhost names the local machine."],
  ])("adding a webhook for %s is refused at its URL", async (url, why) => {
    const refused = await send("POST", "/api/v1/webhooks", { url });
    expect(refused.status).toBe(400);
    expect(refused.body.fieldErrors).toEqual({ url: [`A webhook must reach a public address: ${why}`] });
  });

  it("a delivery to a name that resolves to a private address is not sent, and Failed saying why; allowed, it goes to the address checked", async () => {
    // A name is not resolved when the webhook is added: whatever it resolves to then can change before a delivery.
    const url = receiver.url.replace("127.0.0.1", "hooks.example.test");
    const created = await send("POST", "/api/v1/webhooks", { url });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.webhook.id as string;
    const asked: string[] = [];
    const resolve = async (host: string) => {
      asked.push(host);
      return [{ address: "127.0.0.1", family: 4 }];
    };

    const refused = await send("POST", `/api/v1/webhooks/${id}/test`, undefined, { resolve });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({
      status: "Failed",
      attempts: 1,
      lastStatusCode: null,
      lastError: "Not sent: A webhook must reach a public address: hooks.example.test resolves to 127.0.0.1, a loopback address.",
    });
    expect(asked).toEqual(["hooks.example.test"]);
    expect(receiver.received).toHaveLength(0);

    // Allowed: the connection goes to the address the resolver answered (hooks.example.test has no DNS
    // entry), resolved once: nothing resolves it a second time, differently.
    const allowed = await send("POST", `/api/v1/webhooks/${id}/test`, undefined, { resolve, allowPrivateAddresses: true });
    expect(allowed.body).toMatchObject({ status: "Delivered", lastStatusCode: 200 });
    expect(asked).toEqual(["hooks.example.test", "hooks.example.test"]);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers.host).toBe(new URL(url).host);
  });

  it("a webhook stored for a private address (before this rule, or while allowed) is never sent to by the delivery loop", async () => {
    const created = await api.send("POST", "/api/v1/webhooks", owner, { companyId: birch.id, url: `${receiver.url}/stored`, events: ["run.ended"] });
    expect(created.status).toBe(201);
    const id = created.body.webhook.id as string;
    await enqueueEvent(api.db, { companyId: birch.id, event: "test", subject: "test:stored", data: {}, at: new Date().toISOString(), only: id });
    receiver.received.length = 0;
    await deliverDue(api.db);
    expect(receiver.received).toHaveLength(0);
    expect((await deliveriesOf(id))[0]).toMatchObject({
      status: "Failed",
      attempts: 1,
      lastError: "Not sent: A webhook must reach a public address: 127.0.0.1 is a loopback address.",
    });
  });
});
