import { data, Form } from "react-router";
import { forceUnlockSchema, saveScriptSchema, type Script, type ScriptDiff } from "../../../contracts/templates";
import { formatTimestamp } from "~/components/dictionary/column-format";
import { FormErrors, TextField } from "~/components/forms/fields";
import { RefusalAlert } from "~/components/forms/refusal-alert";
import { SqlField } from "~/components/forms/sql-field";
import { StatusButton } from "~/components/forms/status-button";
import { useIntentPending } from "~/components/projects/use-intent-pending";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { companyHref } from "~/lib/company-href";
import { lazyWidget } from "~/lib/lazy-widget";
import { redirectWithFlash } from "~/lib/flash.server";
import { getFormProps, useServerForm, type FormResult } from "~/lib/forms";
import { invalid, parseFormData, readFormData, refusedByService, serviceFailure, unknownIntent } from "~/lib/forms.server";
import { requireTemplateWrite, scriptOf, templateOf, templateScope } from "./templates.server";
import type { Route } from "./+types/script-edit";

// What changed meanwhile, shown only after a save based on a stale version was refused: loaded then, not with the page (decision 029).
const LineDiff = lazyWidget(() => import("~/components/templates/line-diff").then((m) => m.LineDiff));

/**
 * A script's editor. Only the holder of its lock edits: "Lock for editing" first, then every save is a
 * new version based on the one the page showed. A save on a stale version is refused and the page
 * shows what changed meanwhile beside the text the user wrote (kept), so nothing is lost either way.
 */

export async function loader({ context }: Route.LoaderArgs) {
  const [script, { template }, { shell, scriptAccess, lockReason }] = await Promise.all([scriptOf(context), templateOf(context), templateScope(context)]);
  // A job on the workspace does not stop the editor (templateScope): a run keeps the versions it started with.
  const editable = scriptAccess.canWrite && template.status !== "Archived";
  // The lock's times in words here: the page's code need not carry the formats for them.
  const lockTimes = { since: formatTimestamp(script.lockedAt), lapses: formatTimestamp(script.lockExpiresAt) };
  return { script, lockTimes, editable, me: shell.user.id, admin: shell.admin, runUnderWay: lockReason === "ProjectRun" };
}

/** What a version saved while the workspace's run is under way changes: the next run, not that one. */
export const savedDuringRunMessage = (version: number) =>
  `Version ${version} saved. The run under way keeps the versions it started with; the next run uses version ${version}.`;

/** `lockLost`: a save refused because the user no longer holds the lock; their text comes back in the editor. */
type ActionData = { errors: string[]; result?: FormResult; stale?: ScriptDiff | null; staleMessage?: string; form?: string; lockLost?: boolean };

/** Codes of a save refused for the lock rather than for the text: the message goes at the top. */
const LOCK_REFUSALS = new Set(["lock_required", "locked_by_other"]);

// After a refusal (409: the lock or the script changed meanwhile), the header and lock show how things are now.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

export async function action({ request, context }: Route.ActionArgs) {
  const [{ paths, companyId, lockReason }, { template, api }, script] = await Promise.all([
    requireTemplateWrite(context, (p) => p.list, { scriptText: true }),
    templateOf(context),
    scriptOf(context),
  ]);
  const here = companyHref(paths.script(template.id, script.levelId, script.id), companyId);
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  const topRefusal = (err: unknown) => {
    const failure = serviceFailure(err);
    if (!failure || failure.status >= 500) throw err;
    return data<ActionData>({ errors: failure.body.errors }, { status: failure.status });
  };

  if (intent === "save" || intent === "relock-save") {
    const submission = parseFormData(formData, saveScriptSchema);
    if (submission.status !== "success") return data<ActionData>({ ...invalid(submission).data, errors: [], form: "save" }, { status: 400 });
    try {
      // One post for both, so the text lost its lock with is never dropped by a page load between them.
      if (intent === "relock-save") await api.lock(script.id);
      const saved = await api.saveScript(script.id, submission.value);
      return redirectWithFlash(here, lockReason === "ProjectRun" ? savedDuringRunMessage(saved.version) : `Version ${saved.version} saved.`);
    } catch (err) {
      const failure = serviceFailure(err);
      if (failure?.status === 409 && failure.body.code === "stale_version") {
        // What changed since the version the user edited: shown beside their text, which is kept.
        const current = await api.getScript(script.id);
        const { baseVersion } = submission.value;
        // A base no version of the script has (a forged or mangled post) has nothing to compare: the refusal alone, at the top.
        if (baseVersion < 1 || baseVersion >= current.version) {
          return data<ActionData>({ result: submission.reply(), errors: failure.body.errors, form: "save" }, { status: 409 });
        }
        const stale = await api.diff(script.id, baseVersion, current.version);
        // The data API's words (staleSaveMessage): who saved it (the user's other tab, or someone else) and which version.
        return data<ActionData>({ result: submission.reply(), errors: [], stale, staleMessage: failure.body.errors.join(" "), form: "save" }, { status: 409 });
      }
      if (failure?.status === 409 && LOCK_REFUSALS.has(failure.body.code ?? "")) {
        // At the top, with the text kept in the editor: the lock panel shows who holds the lock now.
        return data<ActionData>({ result: submission.reply(), errors: failure.body.errors, form: "save", lockLost: true }, { status: 409 });
      }
      const refused = refusedByService(submission, err);
      return data<ActionData>({ ...refused.data, errors: [], form: "save" }, refused.init ?? { status: 409 });
    }
  }
  if (intent === "lock" || intent === "unlock") {
    try {
      await (intent === "lock" ? api.lock(script.id) : api.unlock(script.id));
    } catch (err) {
      return topRefusal(err);
    }
    return redirectWithFlash(here, intent === "lock" ? "The script is locked for you: edit and save it." : "The script is unlocked.");
  }
  if (intent === "force-unlock") {
    const submission = parseFormData(formData, forceUnlockSchema);
    if (submission.status !== "success") return data<ActionData>({ ...invalid(submission).data, errors: [], form: "force-unlock" }, { status: 400 });
    try {
      await api.forceUnlock(script.id, submission.value.reason);
    } catch (err) {
      const refused = refusedByService(submission, err);
      return data<ActionData>({ ...refused.data, errors: [], form: "force-unlock" }, refused.init ?? { status: 409 });
    }
    return redirectWithFlash(here, "The lock was forced open and recorded in the lock audit.");
  }
  unknownIntent(intent);
}

export default function ScriptEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { script, lockTimes, editable, me, admin, runUnderWay } = loaderData;
  const result = actionData as ActionData | undefined;
  const holding = script.lockState === "Locked" && script.lockedBy === me;
  return (
    <div className="flex flex-col gap-4">
      {result?.errors.length ? <RefusalAlert refusal={result.errors}>{result.errors.join(" ")}</RefusalAlert> : null}
      {editable ? (
        <LockPanel script={script} lockTimes={lockTimes} holding={holding} admin={admin} result={result?.form === "force-unlock" ? result.result : undefined} />
      ) : null}
      {editable && (holding || result?.lockLost) ? (
        <Editor script={script} holding={holding} runUnderWay={runUnderWay} result={result?.form === "save" ? result : undefined} />
      ) : (
        <Card>
          <h3 className="text-base font-semibold">SQL (version {script.version})</h3>
          {editable && !holding ? <p className="mt-1 text-sm text-muted-foreground">Lock the script for editing to change it.</p> : null}
          <pre aria-label="SQL" className="mt-3 overflow-x-auto rounded-md bg-muted/40 p-3 font-mono text-[13px] leading-5">
            {script.sql}
          </pre>
        </Card>
      )}
    </div>
  );
}

function LockPanel({
  script,
  lockTimes,
  holding,
  admin,
  result,
}: {
  script: Script;
  lockTimes: { since: string; lapses: string };
  holding: boolean;
  admin: boolean;
  result: FormResult | undefined;
}) {
  const lockPending = useIntentPending("lock");
  const lockedByOther = script.lockState === "Locked" && !holding;
  const [form, fields] = useServerForm({ id: "force-unlock", lastResult: result, required: ["reason"] });
  return (
    <Card aria-label="Lock">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm">
          {holding ? (
            <>
              You hold the lock since <time dateTime={script.lockedAt ?? undefined}>{lockTimes.since}</time>; it lapses at{" "}
              <time dateTime={script.lockExpiresAt ?? undefined}>{lockTimes.lapses}</time> unless you save.
            </>
          ) : lockedByOther ? (
            <>
              Locked by {script.lockedByName ?? "someone else"} since <time dateTime={script.lockedAt ?? undefined}>{lockTimes.since}</time>: only they can save
              it.
            </>
          ) : (
            "Nobody is editing this script."
          )}
        </p>
        {!lockedByOther ? (
          <Form method="post">
            <input type="hidden" name="intent" value={holding ? "unlock" : "lock"} />
            {holding ? (
              <Button type="submit" variant="outline">
                Unlock
              </Button>
            ) : (
              <StatusButton type="submit" pending={lockPending}>
                Lock for editing
              </StatusButton>
            )}
          </Form>
        ) : null}
      </div>
      {lockedByOther && admin ? (
        <Form method="post" {...getFormProps(form)} className="mt-4 flex flex-wrap items-end gap-3">
          <input type="hidden" name="intent" value="force-unlock" />
          <FormErrors form={form} />
          <TextField label="Reason for forcing the lock" field={fields.reason!} className="min-w-0 grow basis-80" />
          <Button type="submit" variant="outline">
            Force unlock
          </Button>
        </Form>
      ) : null}
    </Card>
  );
}

function Editor({ script, holding, runUnderWay, result }: { script: Script; holding: boolean; runUnderWay: boolean; result: ActionData | undefined }) {
  const intent = holding ? "save" : "relock-save";
  // The lock lost to someone who holds it now (an administrator forced it open, then they locked it), not merely lost.
  const lockedByOther = script.lockState === "Locked" && !holding;
  const pending = useIntentPending(intent);
  // After a stale save, the next save is based on the newest version: the user has seen what changed.
  const baseVersion = result?.stale ? result.stale.to : script.version;
  const [form, fields] = useServerForm({ id: "save-script", lastResult: result?.result, required: ["sql"], defaultValue: { sql: script.sql } });
  return (
    <Card>
      {result?.stale ? (
        <div className="mb-4 flex flex-col gap-3">
          <RefusalAlert refusal={result.stale}>
            {result.staleMessage} Below is what changed meanwhile; your text is kept in the editor. Save again to make it version {result.stale.to + 1}.
          </RefusalAlert>
          <LineDiff diff={result.stale} label={`Changes between version ${result.stale.from} and version ${result.stale.to}`} />
        </div>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="baseVersion" value={baseVersion} />
        <FormErrors form={form} />
        <SqlField
          label="SQL"
          field={fields.sql!}
          description={`Editing version ${script.version}. Checked with PostgreSQL's parser when you save.${
            runUnderWay ? " A run is under way: it keeps the versions it started with, and a version saved now is used from the next run." : ""
          }`}
        />
        <TextField label="Comment" field={fields.comment!} description="Why this change: shown in the script's history." />
        {lockedByOther ? (
          // Locking again would be refused as this save was: the text stays here to be copied, with no button that cannot work.
          <p className="text-sm">
            Not saved: {script.lockedByName ?? "someone else"} holds the lock now. Your text is kept here: copy it, and save it once they have unlocked the
            script.
          </p>
        ) : (
          <div>
            <StatusButton type="submit" pending={pending}>
              {holding ? "Save new version" : "Lock again and save"}
            </StatusButton>
          </div>
        )}
      </Form>
    </Card>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
