/**
 * Webhook notifications (issue 13) as an outbox: an event writes one delivery row per webhook that
 * asked for it, in the transaction of the event itself (a job ending), and nothing else; sending is
 * this module's delivery loop, later and elsewhere. So a slow or failing endpoint never slows or
 * breaks a run, and an event is announced exactly when it happened (a rolled-back job announces nothing).
 *
 * Each POST carries the JSON payload exactly as stored, signed: X-DT-Signature: sha256=<hex
 * HMAC-SHA256 of the body with the webhook's secret>. A non-2xx answer or no answer is retried with
 * backoff (30 s, doubling, at most an hour apart) until 24 hours after the event, then Failed.
 *
 * Only public addresses are reached (addresses.ts): the name is resolved here, each address checked,
 * and the connection made to the addresses checked, never to a second resolution's (which a name's
 * owner could point elsewhere in between: DNS rebinding). Redirects are not followed. A delivery so
 * refused is Failed at once, saying why.
 */
import { createHmac, randomUUID } from "node:crypto";
import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { Kysely } from "kysely";
import {
  DELIVERY_RETRY_HOURS,
  DELIVERY_TIMEOUT_MS,
  SIGNATURE_HEADER,
  type Delivery,
  type DeliveryStatus,
  type Webhook,
  type WebhookEvent,
  webhookUrlProblem,
} from "../../../../contracts/notifications.ts";
import { workspaceOfProductType } from "../../../../contracts/workspaces.server.ts";
import type { Logger } from "../../../shared/logger.ts";
import type { Database } from "../db/schema.ts";
import type { WebhookDeliveriesTable, WebhooksTable } from "../db/schema-sql-access.ts";
import { hostOf, hostRefusal, resolvedRefusal } from "./addresses.ts";

export type ResolvedAddress = { address: string; family: number };

/**
 * Where deliveries may go. `allowPrivateAddresses` (env WEBHOOKS_ALLOW_PRIVATE_ADDRESSES; false when
 * omitted) lets them reach loopback and private addresses, for tests' local receivers; `resolve`
 * answers a host name's addresses (DNS when omitted; tests give their own).
 */
export type WebhookDeliverySettings = { allowPrivateAddresses?: boolean; resolve?: (host: string) => Promise<ResolvedAddress[]> };

export function signatureOf(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

export function toWebhook(row: WebhooksTable): Webhook {
  return {
    id: row.id,
    companyId: row.company_id,
    url: row.url,
    events: JSON.parse(row.events) as WebhookEvent[],
    lockMinutes: row.lock_minutes,
    createdAt: row.created_at,
    createdBy: row.created_by,
  };
}

export function toDelivery(row: WebhookDeliveriesTable): Delivery {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    event: row.event,
    status: row.status as DeliveryStatus,
    attempts: Number(row.attempts),
    nextAttemptAt: row.next_attempt_at,
    lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code),
    lastError: row.last_error,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
  };
}

/**
 * Writes a delivery of `event` to every live webhook of the company that asked for it (`only`: to that
 * webhook alone, a "Send test"). One per webhook, event and subject: the same job or lock is never
 * announced twice. Due to the delivery loop at `due` (when omitted, at once). Answers the ids written.
 */
export async function enqueueEvent(
  trx: Kysely<Database>,
  event: { companyId: string; event: WebhookEvent | "test"; subject: string; data: Record<string, unknown>; at: string; only?: string; due?: string },
): Promise<string[]> {
  let hooks = trx.selectFrom("webhooks").selectAll().where("company_id", "=", event.companyId).where("deleted_at", "is", null);
  if (event.only) hooks = hooks.where("id", "=", event.only);
  const ids: string[] = [];
  for (const hook of await hooks.execute()) {
    if (event.event !== "test" && !(JSON.parse(hook.events) as string[]).includes(event.event)) continue;
    const id = randomUUID();
    const payload = JSON.stringify({ id, event: event.event, at: event.at, companyId: event.companyId, data: event.data });
    const inserted = await trx
      .insertInto("webhook_deliveries")
      .values({
        id,
        webhook_id: hook.id,
        event: event.event,
        subject: event.subject,
        payload,
        status: "Pending",
        attempts: 0,
        next_attempt_at: event.due ?? event.at,
        last_status_code: null,
        last_error: null,
        created_at: event.at,
        delivered_at: null,
      })
      .onConflict((oc) => oc.columns(["webhook_id", "event", "subject"]).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0) ids.push(id);
  }
  return ids;
}

/**
 * A job has just ended (in the transaction that ends it): a run announces run.ended, a flat-file
 * load load.ended, and any job that failed job.failed. The payload says which workspace, which job,
 * how it ended and, for a run, the run and its result.
 */
export async function announceJobEnded(trx: Kysely<Database>, jobId: string, at: string): Promise<void> {
  const job = await trx
    .selectFrom("jobs as j")
    .innerJoin("projects as p", "p.id", "j.project_id")
    .select(["j.id", "j.kind", "j.status", "j.error", "j.created_by", "j.created_at", "p.id as project_id", "p.name", "p.company_id", "p.product_type"])
    .where("j.id", "=", jobId)
    .executeTakeFirst();
  if (!job) return;
  const events: WebhookEvent[] = [];
  if (job.kind === "ProjectRun") events.push("run.ended");
  if (job.kind === "FlatFile") events.push("load.ended");
  if (job.status === "ERROR") events.push("job.failed");
  if (events.length === 0) return;
  const run = job.kind === "ProjectRun" ? await trx.selectFrom("runs").select(["id", "type", "status"]).where("job_id", "=", jobId).executeTakeFirst() : undefined;
  const data = {
    workspace: { id: job.project_id, name: job.name, kind: workspaceOfProductType(job.product_type)?.kind ?? null },
    job: { id: job.id, kind: job.kind, status: job.status, error: job.error, startedBy: job.created_by, startedAt: job.created_at, endedAt: at },
    ...(run ? { run: { id: run.id, type: run.type, status: run.status } } : {}),
  };
  for (const event of events) await enqueueEvent(trx, { companyId: job.company_id, event, subject: `job:${jobId}`, data, at });
}

/** Locks held longer than each lock.held webhook's minutes: announced once per lock (the job holding it). */
export async function announceHeldLocks(db: Kysely<Database>, now = new Date()): Promise<number> {
  const hooks = await db.selectFrom("webhooks").selectAll().where("deleted_at", "is", null).where("lock_minutes", "is not", null).execute();
  let written = 0;
  for (const hook of hooks) {
    if (!(JSON.parse(hook.events) as string[]).includes("lock.held")) continue;
    const since = new Date(now.getTime() - Number(hook.lock_minutes) * 60_000).toISOString();
    const held = await db
      .selectFrom("projects as p")
      .innerJoin("jobs as j", "j.id", "p.lock_job_id")
      .select(["p.id", "p.name", "p.lock_reason", "j.id as job_id", "j.kind", "j.created_at"])
      .where("p.company_id", "=", hook.company_id)
      .where("p.is_locked", "=", 1)
      .where("j.created_at", "<", since)
      .execute();
    for (const lock of held) {
      const data = { workspace: { id: lock.id, name: lock.name }, lock: { reason: lock.lock_reason, jobId: lock.job_id, jobKind: lock.kind, since: lock.created_at } };
      const ids = await enqueueEvent(db, { companyId: hook.company_id, event: "lock.held", subject: `lock:${lock.job_id}`, data, at: now.toISOString(), only: hook.id });
      written += ids.length;
    }
  }
  return written;
}

/** How long an attempt holds its delivery: its claim puts the next attempt this far on, so a process that died mid-attempt is retried then. */
const CLAIM_MS = DELIVERY_TIMEOUT_MS * 2;

/**
 * A "Send test" of `hook` by `by`, for the request that attempts it at once (attemptDelivery) and answers
 * how it went: due to the delivery loop only as a claimed delivery is, so the loop never takes it
 * first (the request would then answer a delivery it did not attempt, still Pending, with no answer),
 * and still sends it should the request die before its attempt. Answers the delivery's id.
 */
export async function enqueueTest(trx: Kysely<Database>, hook: { id: string; company_id: string }, by: string, at = new Date()): Promise<string> {
  const [id] = await enqueueEvent(trx, {
    companyId: hook.company_id,
    event: "test",
    subject: `test:${randomUUID()}`,
    data: { message: "A test event from Data Transformation.", by },
    at: at.toISOString(),
    only: hook.id,
    due: new Date(at.getTime() + CLAIM_MS).toISOString(),
  });
  return id!;
}

const BACKOFF_FIRST_MS = 30_000;
const BACKOFF_MAX_MS = 3600_000;
export const backoffMs = (attempts: number) => Math.min(BACKOFF_FIRST_MS * 2 ** Math.max(attempts - 1, 0), BACKOFF_MAX_MS);

/** A delivery that was not sent, because of where it would go: Failed at once, not retried. */
class RefusedDelivery extends Error {}

/** The addresses a delivery to `url` may connect to, each checked; or a RefusedDelivery. */
async function addressesFor(url: string, settings: WebhookDeliverySettings): Promise<ResolvedAddress[]> {
  const allow = settings.allowPrivateAddresses ?? false;
  // Checked again, as when it was added: a webhook stored before a rule is held to it too.
  const refusal = webhookUrlProblem(url) ?? (allow ? null : hostRefusal(new URL(url)));
  if (refusal) throw new RefusedDelivery(refusal);
  const host = hostOf(new URL(url));
  if (isIP(host)) return [{ address: host, family: isIP(host) }];
  const addresses = await (settings.resolve ?? ((h: string) => dnsLookup(h, { all: true })))(host);
  if (addresses.length === 0) throw new Error(`${host} has no address`);
  // Every one, not only the first: the connection may go to any of them.
  for (const { address } of allow ? [] : addresses) {
    const refused = resolvedRefusal(host, address);
    if (refused) throw new RefusedDelivery(refused);
  }
  return addresses;
}

/**
 * Answers only `addresses` (checked already): the connection goes where the check looked, whatever
 * DNS would answer now. Node asks for all of them when it tries each family in turn (autoSelectFamily).
 */
const pinnedLookup =
  (addresses: ResolvedAddress[]): LookupFunction =>
  (_host, options, callback) =>
    options.all ? callback(null, addresses) : callback(null, addresses[0]!.address, addresses[0]!.family);

/**
 * POSTs `body` to `url` at `addresses` and answers the status code; a redirect is an answer like any
 * other, never followed. node:http rather than fetch: Node's fetch takes no lookup of ours (only the
 * undici package's dispatcher would), so it would resolve the name again after the check.
 */
function post(url: string, addresses: ResolvedAddress[], headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const request = (target.protocol === "https:" ? https : http).request(target, {
      method: "POST",
      headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
      lookup: pinnedLookup(addresses),
      // A connection of its own: a pooled one could have been made for another delivery's settings.
      agent: false,
    });
    const timer = setTimeout(() => request.destroy(Object.assign(new Error("timeout"), { name: "TimeoutError" })), DELIVERY_TIMEOUT_MS);
    request.on("response", (res) => {
      clearTimeout(timer);
      res.destroy();
      resolve(res.statusCode ?? 0);
    });
    request.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    request.end(body);
  });
}

/** One attempt of one delivery, claimed first (so two processes never send the same attempt); answers its row after. */
export async function attemptDelivery(db: Kysely<Database>, deliveryId: string, options: WebhookDeliverySettings & { now?: () => Date } = {}) {
  const now = options.now ?? (() => new Date());
  const row = await db.selectFrom("webhook_deliveries").selectAll().where("id", "=", deliveryId).executeTakeFirst();
  if (!row || row.status !== "Pending") return row;
  const claimed = await db
    .updateTable("webhook_deliveries")
    .set({ attempts: Number(row.attempts) + 1, next_attempt_at: new Date(now().getTime() + CLAIM_MS).toISOString() })
    .where("id", "=", row.id)
    .where("attempts", "=", row.attempts)
    .where("status", "=", "Pending")
    .executeTakeFirst();
  if (claimed.numUpdatedRows !== 1n) return row;
  const hook = await db.selectFrom("webhooks").selectAll().where("id", "=", row.webhook_id).executeTakeFirst();
  const attempts = Number(row.attempts) + 1;
  let statusCode: number | null = null;
  let error: string | null = null;
  let refused = false;
  if (!hook || hook.deleted_at) error = "The webhook was removed.";
  else {
    try {
      const addresses = await addressesFor(hook.url, options);
      const headers = { "content-type": "application/json", [SIGNATURE_HEADER]: signatureOf(hook.secret, row.payload), "X-DT-Event": row.event, "X-DT-Delivery": row.id };
      statusCode = await post(hook.url, addresses, headers, row.payload);
      if (statusCode < 200 || statusCode > 299) error = `The endpoint answered ${statusCode}.`;
    } catch (err) {
      refused = err instanceof RefusedDelivery;
      error = refused
        ? `Not sent: ${(err as Error).message}`
        : (err as Error).name === "TimeoutError"
          ? `No answer within ${DELIVERY_TIMEOUT_MS / 1000} s.`
          : `Could not reach the endpoint: ${(err as Error).message}`;
    }
  }
  const at = now();
  const expired = !hook || Boolean(hook.deleted_at) || refused || at.getTime() + backoffMs(attempts) > Date.parse(row.created_at) + DELIVERY_RETRY_HOURS * 3600_000;
  const status: DeliveryStatus = error === null ? "Delivered" : expired ? "Failed" : "Pending";
  await db
    .updateTable("webhook_deliveries")
    .set({
      status,
      last_status_code: statusCode,
      last_error: error,
      delivered_at: error === null ? at.toISOString() : null,
      next_attempt_at: new Date(at.getTime() + backoffMs(attempts)).toISOString(),
    })
    .where("id", "=", row.id)
    .execute();
  return db.selectFrom("webhook_deliveries").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
}

/** Sends what is due (at most `limit`, oldest first); answers how many were attempted. */
export async function deliverDue(db: Kysely<Database>, options: WebhookDeliverySettings & { now?: () => Date; limit?: number } = {}): Promise<number> {
  const now = (options.now ?? (() => new Date()))();
  const due = await db
    .selectFrom("webhook_deliveries")
    .select("id")
    .where("status", "=", "Pending")
    .where("next_attempt_at", "<=", now.toISOString())
    .orderBy("next_attempt_at")
    .limit(options.limit ?? 20)
    .execute();
  await Promise.all(due.map((d) => attemptDelivery(db, d.id, options)));
  return due.length;
}

/**
 * The delivery loop of a data API process: due deliveries every `intervalMs`, held locks every
 * minute. A tick never overlaps the previous one; errors are logged, never thrown. Answers its stop.
 */
export function startWebhookDelivery(db: Kysely<Database>, logger: Logger, settings: WebhookDeliverySettings, intervalMs = 2000): () => void {
  let busy = false;
  let lastLockCheck = 0;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      if (Date.now() - lastLockCheck >= 60_000) {
        lastLockCheck = Date.now();
        await announceHeldLocks(db);
      }
      await deliverDue(db, settings);
    } catch (err) {
      logger.warn("webhook delivery failed", { err });
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
