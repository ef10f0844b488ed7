import { z } from "zod";
import { madeIdSchema } from "./common";
import { DELIVERY_STATUSES, WEBHOOK_EVENTS } from "./values/notifications";

/**
 * Notifications (issue 13): a company's webhooks. Each event is POSTed as JSON, signed with
 * HMAC-SHA256 over the body with the webhook's secret (header X-DT-Signature: sha256=<hex>), retried
 * with backoff for 24 hours; every attempt's status code is kept in the delivery log.
 */
export * from "./values/notifications";

export const webhookEventSchema = z.enum(WEBHOOK_EVENTS);

export const webhookSchema = z.object({
  id: z.string(),
  companyId: z.string(),
  url: z.string(),
  events: z.array(webhookEventSchema),
  lockMinutes: z.number().int().nullable(),
  createdAt: z.string(),
  createdBy: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;

export const deliverySchema = z.object({
  id: z.string(),
  webhookId: z.string(),
  event: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  nextAttemptAt: z.string(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
});
export type Delivery = z.infer<typeof deliverySchema>;

/** GET /api/v1/webhooks?companyId: the company's webhooks, each with its latest deliveries. */
export const webhookListSchema = z.array(webhookSchema.extend({ deliveries: z.array(deliverySchema) }));

export const WEBHOOK_URL_SCHEME_MESSAGE = "Give an http:// or https:// URL";
export const WEBHOOK_URL_CREDENTIALS_MESSAGE = "Leave the user name and password out of the URL: the signature (X-DT-Signature) tells the endpoint who sent it";

/**
 * Why `url` can never be a webhook's, or null: the form's check, and the data API's again before each
 * delivery (for a webhook stored before a rule). Credentials are refused because the URL is shown in
 * the list and the audit log. Which addresses it may reach is the data API's to say (its settings):
 * services/data-api/src/notifications/addresses.ts.
 */
export function webhookUrlProblem(url: string): string | null {
  if (!/^https?:\/\/[^\s/]+/i.test(url) || !URL.canParse(url)) return WEBHOOK_URL_SCHEME_MESSAGE;
  const { username, password } = new URL(url);
  return username || password ? WEBHOOK_URL_CREDENTIALS_MESSAGE : null;
}

export const UNKNOWN_EVENT_MESSAGE = "Choose among the events listed";

/**
 * The events a webhook asks for, refused as a whole: an event it does not know (a forged post) is said
 * at `events`, next to the boxes, where an item's issue (`events.0`) named no field a page shows.
 */
const webhookEventsSchema = z
  .array(z.string(), { error: "Choose at least one event" })
  .min(1, "Choose at least one event")
  .refine((events) => events.every((e) => webhookEventSchema.safeParse(e).success), { message: UNKNOWN_EVENT_MESSAGE, abort: true })
  .pipe(z.array(webhookEventSchema));

/** The fields of a new webhook; `createWebhookSchema` adds the rule that binds them. */
export const webhookFieldsSchema = z.object({
  id: madeIdSchema,
  companyId: z.string().min(1),
  url: z
    .string({ error: "Give the URL that receives the events" })
    .trim()
    .min(1, "Give the URL that receives the events")
    .max(2000, "At most 2000 characters")
    .superRefine((u, ctx) => {
      const problem = webhookUrlProblem(u);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  events: webhookEventsSchema,
  lockMinutes: z.coerce
    .number({ error: "Give a number of minutes" })
    .int("Give whole minutes")
    .min(1, "At least 1 minute")
    .max(10_080, "At most a week (10080 minutes)")
    .nullish(),
});

/** The lock event needs its minutes. */
export function lockMinutesGiven(v: { events: readonly string[]; lockMinutes?: number | null | undefined }, ctx: z.RefinementCtx) {
  if (v.events.includes("lock.held") && !v.lockMinutes)
    ctx.addIssue({ code: "custom", path: ["lockMinutes"], message: "Say after how many minutes a held lock is reported" });
}

/** POST /api/v1/webhooks. */
export const createWebhookSchema = webhookFieldsSchema.superRefine(lockMinutesGiven);

/** The answer of POST /api/v1/webhooks: the only time the secret is sent. */
export const createdWebhookSchema = z.object({ webhook: webhookSchema, secret: z.string() });
