import type { SubmissionResult } from "@conform-to/react";
import { data, Form, Link, redirect } from "react-router";
import { lockMinutesGiven, webhookFieldsSchema } from "../../../contracts/notifications";
import { DELIVERY_RETRY_HOURS, SIGNATURE_HEADER, WEBHOOK_EVENT_LABELS, WEBHOOK_EVENTS, type WebhookEvent } from "../../../contracts/values/notifications";
import { ConfirmCard, useConfirmParam } from "~/components/forms/confirm-card";
import { FormErrors, TextField } from "~/components/forms/fields";
import { CheckboxGroupField } from "~/components/forms/choice-fields";
import { RefusalAlert } from "~/components/forms/refusal-alert";
import { StatusButton } from "~/components/forms/status-button";
import { formatTimestamp } from "~/components/projects/format";
import { useIntentPending } from "~/components/projects/use-intent-pending";
import { Alert } from "~/components/ui/alert";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { sqlAccessApi } from "~/lib/api/sql-access.server";
import { companyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { getFormProps, refusalMessages, useServerForm } from "~/lib/forms";
import { actedOnIdSchema, invalid, parseFormData, readFormData, refusalOf, refusedByService, unknownIntent } from "~/lib/forms.server";
import { callerOf, forSelectedCompany, shellOf, type Shell } from "~/lib/guards.server";
import { hasRole, ROLES } from "../../../contracts/roles";
import type { Route } from "./+types/notifications";

/** The add form as it posts: the company comes from the page. */
const addSchema = webhookFieldsSchema.omit({ companyId: true }).superRefine(lockMinutesGiven);

/**
 * Notifications (issue 13): the selected company's webhooks, each event POSTed as signed JSON and
 * retried for a day; "Send test" tries one at once, and each webhook lists its latest deliveries.
 * The secret is shown once, in the answer to the post that added the webhook.
 */
export async function loader({ context }: Route.LoaderArgs) {
  // Asked beside the shell's data; the page's own guard decides before its answer (or refusal) is used.
  const { shell, value } = await forSelectedCompany(context, (as, companyId) =>
    sqlAccessApi(as)
      .webhooks(companyId)
      .then(
        (webhooks) => ({ webhooks }),
        (refusal: unknown) => ({ refusal }),
      ),
  );
  requireWebhookManager(shell);
  if (value && "refusal" in value) throw value.refusal;
  // The add form's id for the webhook it adds: sent again (a reload of the secret's page), it adds no second one.
  return { companyName: shell.company?.name ?? null, webhooks: value?.webhooks ?? null, madeId: crypto.randomUUID() };
}

/**
 * Registered under Additional Options (admins: the area's guard) and under Migrations for the
 * company's ClientAdmin: anyone else in Migrations (an Analyst) is sent to Permission Denied here,
 * before the data API would refuse them.
 */
function requireWebhookManager(shell: Shell) {
  if (!shell.admin && !hasRole(shell.roles, ROLES.ClientAdmin)) throw redirect(companyHref("/permission-denied", shell.company?.id));
}

export async function action({ request, context }: Route.ActionArgs) {
  const shell = await shellOf(context);
  requireWebhookManager(shell);
  const companyId = shell.company?.id;
  if (!companyId) throw data({ errors: ["Choose a company first."] }, { status: 400 });
  const api = sqlAccessApi(callerOf(context));
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  // Back to this page, whichever of its two paths it was posted from.
  const here = companyHref(new URL(request.url).pathname, companyId);

  if (intent === "add") {
    const submission = parseFormData(formData, addSchema);
    if (submission.status !== "success") return invalid(submission);
    try {
      const created = await api.addWebhook({ companyId, ...submission.value });
      // The secret is in this answer only: no cache may keep it.
      return data(
        { secret: created.secret, url: created.webhook.url, result: submission.reply({ resetForm: true }) },
        { headers: { "Cache-Control": "no-store" } },
      );
    } catch (err) {
      return refusedByService(submission, err);
    }
  }

  // A refused test or removal is said at the top of the page, not in the Add form (its webhook may be gone).
  const submission = parseFormData(formData, actedOnIdSchema);
  if (submission.status !== "success") return refusalOf("webhook", invalid(submission));
  try {
    if (intent === "test") {
      const delivery = await api.testWebhook(submission.value.id, companyId);
      if (delivery.status === "Delivered") return redirectWithFlash(here, `Test delivered: the endpoint answered ${delivery.lastStatusCode}.`);
      // A failure, said as one; why in a sentence of its own (Node's "connect ECONNREFUSED …" ends without a full stop).
      const why = delivery.lastError ?? "No answer.";
      const retried = delivery.status === "Pending" ? ` It is retried for ${DELIVERY_RETRY_HOURS} hours.` : "";
      return redirectWithFlash(here, { kind: "error", text: `Test not delivered: ${why}${/[.!?]$/.test(why) ? "" : "."}${retried}` });
    }
    if (intent === "remove") {
      await api.removeWebhook(submission.value.id, companyId);
      return redirectWithFlash(here, "Webhook removed: nothing more is sent to it.");
    }
  } catch (err) {
    return refusalOf("webhook", refusedByService(submission, err));
  }
  return unknownIntent(intent);
}

export const handle = { breadcrumb: "Notifications" };

type Webhooks = NonNullable<Route.ComponentProps["loaderData"]["webhooks"]>;

export default function Notifications({ loaderData, actionData }: Route.ComponentProps) {
  const { companyName, webhooks } = loaderData;
  const created = actionData && "secret" in actionData ? (actionData as unknown as { secret: string; url: string }) : undefined;
  const lastResult = actionData?.result as SubmissionResult<string[]> | undefined;
  const aboutAWebhook = actionData && "form" in actionData;
  const refusals = aboutAWebhook ? refusalMessages(lastResult) : [];
  // ?remove={webhookId}: the removal's confirmation, a link away, so one click never removes a webhook.
  const confirm = useConfirmParam("remove");
  const removing = webhooks?.find((w) => w.id === confirm.value);
  return (
    <section aria-labelledby="page-title" className="flex flex-col gap-6">
      <div>
        <h1 id="page-title" className="text-2xl font-semibold tracking-tight">
          Notifications
        </h1>
        <p className="mt-1 max-w-3xl text-sm text-muted-foreground">
          Webhooks of {companyName ?? "the company"}: each event is POSTed as JSON, signed in the {SIGNATURE_HEADER} header (sha256= and the hex HMAC-SHA256 of
          the body with the webhook&apos;s secret), and retried with backoff for {DELIVERY_RETRY_HOURS} hours. A failing endpoint never slows a run.
        </p>
      </div>
      {refusals.length > 0 ? <RefusalAlert refusal={lastResult}>{refusals.join(" ")}</RefusalAlert> : null}
      {created ? (
        <Card aria-labelledby="secret-title" tone="success">
          <h2 id="secret-title" className="text-lg font-semibold">
            Signing secret of {created.url}
          </h2>
          <p className="mt-1 text-sm">Copy it now: it is not shown again. Check each request&apos;s {SIGNATURE_HEADER} with it.</p>
          <code data-testid="webhook-secret" className="mt-3 block rounded bg-white px-2 py-1 font-mono text-sm break-all">
            {created.secret}
          </code>
        </Card>
      ) : null}
      {removing ? (
        <ConfirmCard
          id="remove-webhook"
          title={`Remove the webhook to ${removing.url}?`}
          intent="remove"
          fields={{ id: removing.id }}
          submitLabel="Remove webhook"
          cancelHref={confirm.cancelHref}
        >
          Nothing more is sent to it, and deliveries still being retried stop. This cannot be undone: add it again to get a new secret.
        </ConfirmCard>
      ) : null}
      {!webhooks ? (
        <Alert>Choose a company to see its webhooks.</Alert>
      ) : webhooks.length === 0 ? (
        <p className="text-sm text-muted-foreground">No webhook yet.</p>
      ) : (
        webhooks.map((w) => <WebhookCard key={w.id} webhook={w} removeHref={confirm.openHref(w.id)} />)
      )}
      {webhooks ? <AddForm madeId={loaderData.madeId} lastResult={created || aboutAWebhook ? undefined : lastResult} /> : null}
    </section>
  );
}

function WebhookCard({ webhook: w, removeHref }: { webhook: Webhooks[number]; removeHref: string }) {
  const testing = useIntentPending("test", { id: w.id });
  return (
    <Card aria-label={`Webhook ${w.url}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="text-sm">
          <p className="font-medium break-all">{w.url}</p>
          <p className="text-muted-foreground">
            {w.events.map((e) => (e === "lock.held" ? `${WEBHOOK_EVENT_LABELS[e]} (${w.lockMinutes})` : WEBHOOK_EVENT_LABELS[e])).join(", ")} · added{" "}
            {formatTimestamp(w.createdAt)}
          </p>
        </div>
        <div className="flex gap-2">
          <Form method="post">
            <input type="hidden" name="id" value={w.id} />
            <StatusButton type="submit" name="intent" value="test" size="sm" variant="outline" pending={testing} aria-label={`Send test to ${w.url}`}>
              Send test
            </StatusButton>
          </Form>
          <Link to={removeHref} className={buttonVariants({ size: "sm", variant: "ghost" })} aria-label={`Remove ${w.url}`}>
            Remove
          </Link>
        </div>
      </div>
      {w.deliveries.length === 0 ? (
        <p className="mt-3 text-sm text-muted-foreground">Nothing sent yet.</p>
      ) : (
        <Table aria-label={`Deliveries to ${w.url}`} className="mt-3">
          <TableHeader>
            <TableRow>
              <TableHead>When</TableHead>
              <TableHead>Event</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>Attempts</TableHead>
              <TableHead>Answer</TableHead>
              <TableHead>Next attempt</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {w.deliveries.map((d) => (
              <TableRow key={d.id}>
                <TableCell className="whitespace-nowrap">{formatTimestamp(d.createdAt)}</TableCell>
                <TableCell>{d.event}</TableCell>
                <TableCell>{d.status}</TableCell>
                <TableCell>{d.attempts}</TableCell>
                <TableCell>{d.lastStatusCode ?? d.lastError ?? ""}</TableCell>
                <TableCell className="whitespace-nowrap">{d.status === "Pending" ? formatTimestamp(d.nextAttemptAt) : ""}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Card>
  );
}

function AddForm({ madeId, lastResult }: { madeId: string; lastResult?: SubmissionResult<string[]> }) {
  const pending = useIntentPending("add");
  const [form, fields] = useServerForm({ id: "add-webhook", lastResult, required: ["url", "events"] });
  return (
    <Card aria-labelledby="add-title">
      <h2 id="add-title" className="text-lg font-semibold">
        Add webhook
      </h2>
      <Form method="post" {...getFormProps(form)} aria-labelledby="add-title" className="mt-4 grid max-w-3xl gap-4">
        <FormErrors form={form} />
        <input type="hidden" name="id" value={madeId} />
        <TextField label="URL" field={fields.url!} placeholder="https://example.com/hooks/data-transformation" />
        <CheckboxGroupField
          label="Events"
          field={fields.events!}
          options={WEBHOOK_EVENTS.map((e: WebhookEvent) => ({ value: e, label: WEBHOOK_EVENT_LABELS[e] }))}
        />
        <TextField
          label="Lock held longer than (minutes)"
          type="number"
          field={fields.lockMinutes!}
          min={1}
          description="For the lock event: a lock held this long is reported once."
        />
        <div>
          <StatusButton type="submit" name="intent" value="add" pending={pending}>
            Add webhook
          </StatusButton>
        </div>
      </Form>
    </Card>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
