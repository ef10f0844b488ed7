/* Zod-free: the labels and limits of notifications (issue 13) that the browser may import. */

/** What a webhook may ask to hear about. */
export const WEBHOOK_EVENTS = ["run.ended", "load.ended", "job.failed", "lock.held"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  "run.ended": "Run ended",
  "load.ended": "Load ended",
  "job.failed": "Job failed",
  "lock.held": "Lock held longer than N minutes",
};

/** "Send test" sends this event: the receiver can check the signature before any real event. */
export const TEST_EVENT = "test";

export const DELIVERY_STATUSES = ["Pending", "Delivered", "Failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** The header carrying `sha256=<hex HMAC-SHA256 of the body with the webhook's secret>`. */
export const SIGNATURE_HEADER = "X-DT-Signature";
/** Retried with backoff this long after the event, then Failed. */
export const DELIVERY_RETRY_HOURS = 24;
/** One attempt waits this long for an answer. */
export const DELIVERY_TIMEOUT_MS = 10_000;
export const LOCK_MINUTES_DEFAULT = 60;
