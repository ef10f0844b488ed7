import { randomBytes, randomUUID } from "node:crypto";
import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import { alreadyMadeMessage } from "../../../../../contracts/values/common.ts";
import { apiErrorSchema } from "../../../../../contracts/errors.ts";
import { createdWebhookSchema, createWebhookSchema, deliverySchema, webhookListSchema } from "../../../../../contracts/notifications.ts";
import { ROLES } from "../../../../../contracts/roles.ts";
import { requireCompanyRole } from "../../access.ts";
import { ApiProblem, validationProblem } from "../../api-problem.ts";
import type { AppEnv } from "../../context.ts";
import { hostRefusal } from "../../notifications/addresses.ts";
import { attemptDelivery, enqueueTest, toDelivery, toWebhook } from "../../notifications/webhooks.ts";
import { createRouter, errorResponses, inCompanyQuery, jsonBody, jsonContent, requireInCompany } from "../../openapi.ts";
import { describeWrite } from "../../audit-writes.ts";
import { inTransaction, makeOnce } from "../../repositories/db-helpers.ts";

type AnyContext = Context<AppEnv, any, any>;

export const WEBHOOK_NOT_FOUND_MESSAGE = "Webhook not found.";
/** The delivery log of each webhook shows its latest attempts. */
const DELIVERIES_SHOWN = 20;

const tags = ["Notifications"];
const errors = { ...errorResponses, 403: jsonContent(apiErrorSchema, "Not SuperAdmin, Support or the company's ClientAdmin.") } as const;
const idParams = z.object({ id: z.string().min(1) });

const list = createRoute({
  method: "get",
  path: "/webhooks",
  tags,
  summary: "A company's webhooks, each with its latest deliveries (SuperAdmin, Support, the company's ClientAdmin)",
  request: { query: z.object({ companyId: z.string().min(1) }) },
  responses: { 200: jsonContent(webhookListSchema, "The webhooks."), ...errors },
});

const create = createRoute({
  method: "post",
  path: "/webhooks",
  tags,
  summary: "Add a webhook: the events it hears of are POSTed as JSON, signed with its secret",
  description:
    "The secret (for checking X-DT-Signature: sha256=<hex HMAC-SHA256 of the body>) is in this answer and never again. " +
    "A URL naming a loopback, private, link-local or other non-public address (or localhost) is refused, and so is any delivery to a name that resolves to one.",
  request: { body: jsonBody(createWebhookSchema) },
  responses: { 201: jsonContent(createdWebhookSchema, "The webhook and its secret."), ...errors },
});

const remove = createRoute({
  method: "delete",
  path: "/webhooks/{id}",
  tags,
  summary: "Remove a webhook: nothing more is sent to it",
  request: { params: idParams, query: inCompanyQuery },
  responses: { 204: { description: "Removed." }, ...errors },
});

const sendTest = createRoute({
  method: "post",
  path: "/webhooks/{id}/test",
  tags,
  summary: "Send a test event now, and answer how its first attempt went (retried like any other)",
  request: { params: idParams, query: inCompanyQuery },
  responses: { 200: jsonContent(deliverySchema, "The test delivery after its first attempt."), ...errors },
});

const findWebhook = (c: Context<AppEnv>, id: string) => c.var.deps.db.selectFrom("webhooks").selectAll().where("id", "=", id).executeTakeFirst();

/**
 * A create form sent again once it added its webhook (a reload of the page showing the secret): said, nothing more added.
 * Another company's webhook (a forged id) answers as an unknown one: neither that it exists nor when it was added.
 */
function alreadyAdded(made: { company_id: string; url: string; created_at: string }, companyId: string): ApiProblem {
  if (made.company_id !== companyId) return new ApiProblem(404, "not_found", WEBHOOK_NOT_FOUND_MESSAGE);
  return new ApiProblem(
    409,
    "already_made",
    alreadyMadeMessage(`the webhook to ${made.url}`, made.created_at, "its secret was shown then: remove it and add it again for a new one."),
  );
}

/** Webhooks (issue 13): admins and the company's ClientAdmin manage a company's. */
export function createWebhooksRouter() {
  return createRouter()
    .openapi(list, async (c) => {
      const { companyId } = c.req.valid("query");
      await requireCompanyRole(c, companyId, ROLES.ClientAdmin);
      const { db } = c.var.deps;
      const hooks = await db
        .selectFrom("webhooks")
        .selectAll()
        .where("company_id", "=", companyId)
        .where("deleted_at", "is", null)
        .orderBy("created_at")
        .execute();
      const answer = [];
      for (const hook of hooks) {
        const deliveries = await db
          .selectFrom("webhook_deliveries")
          .selectAll()
          .where("webhook_id", "=", hook.id)
          .orderBy("created_at", "desc")
          .orderBy("id", "desc")
          .limit(DELIVERIES_SHOWN)
          .execute();
        answer.push({ ...toWebhook(hook), deliveries: deliveries.map(toDelivery) });
      }
      return c.json(answer, 200);
    })
    .openapi(create, async (c) => {
      const body = c.req.valid("json");
      await requireCompanyRole(c, body.companyId, ROLES.ClientAdmin);
      // Said at once rather than at the first delivery; a name is only judged when it is resolved, at each delivery.
      const refusal = c.var.deps.webhooks?.allowPrivateAddresses ? null : hostRefusal(new URL(body.url));
      if (refusal) throw validationProblem({ url: [refusal] });
      // The form's own id when it chose one (madeIdSchema): sent again, it finds its webhook made.
      const id = body.id ?? randomUUID();
      const row = {
        id,
        company_id: body.companyId,
        url: body.url,
        events: JSON.stringify(body.events),
        lock_minutes: body.events.includes("lock.held") ? (body.lockMinutes ?? null) : null,
        secret: randomBytes(32).toString("base64url"),
        created_at: new Date().toISOString(),
        created_by: c.var.caller.userId,
        deleted_at: null,
      };
      await makeOnce(
        c.var.deps.db,
        () => findWebhook(c, id),
        (made) => {
          throw alreadyAdded(made, body.companyId);
        },
        async (trx) => {
          await trx.insertInto("webhooks").values(row).execute();
          describeWrite({
            action: "webhook.added",
            companyId: body.companyId,
            target: `Webhook ${body.url}`,
            summary: { url: body.url, events: body.events, lockMinutes: row.lock_minutes },
          });
        },
      );
      return c.json({ webhook: toWebhook(row), secret: row.secret }, 201);
    })
    .openapi(remove, async (c) => {
      const hook = await requireWebhook(c, c.req.valid("param").id, c.req.valid("query").companyId);
      const at = new Date().toISOString();
      await inTransaction(c.var.deps.db, async (trx) => {
        await trx.updateTable("webhooks").set({ deleted_at: at }).where("id", "=", hook.id).execute();
        await trx
          .updateTable("webhook_deliveries")
          .set({ status: "Failed", last_error: "The webhook was removed." })
          .where("webhook_id", "=", hook.id)
          .where("status", "=", "Pending")
          .execute();
        describeWrite({
          action: "webhook.removed",
          companyId: hook.company_id,
          target: `Webhook ${hook.url}`,
          summary: { url: hook.url },
        });
      });
      return c.body(null, 204);
    })
    .openapi(sendTest, async (c) => {
      const hook = await requireWebhook(c, c.req.valid("param").id, c.req.valid("query").companyId);
      const { db } = c.var.deps;
      // In a transaction of its own: the audit entry commits with the queued event.
      const id = await inTransaction(db, (trx) => enqueueTest(trx, hook, c.var.caller.userId));
      const row = await attemptDelivery(db, id, c.var.deps.webhooks);
      return c.json(toDelivery(row!), 200);
    });
}

async function requireWebhook(c: AnyContext, id: string, companyId: string | undefined) {
  const hook = await c.var.deps.db.selectFrom("webhooks").selectAll().where("id", "=", id).where("deleted_at", "is", null).executeTakeFirst();
  if (!hook) throw new ApiProblem(404, "not_found", WEBHOOK_NOT_FOUND_MESSAGE);
  requireInCompany(hook.company_id, companyId, WEBHOOK_NOT_FOUND_MESSAGE);
  await requireCompanyRole(c, hook.company_id, ROLES.ClientAdmin, WEBHOOK_NOT_FOUND_MESSAGE);
  return hook;
}
