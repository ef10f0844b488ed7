import { Form, Link, data, useLocation } from "react-router";
import { z } from "zod";
import { nameSchema, versionSchema } from "../../../contracts/common";
import { templateVersionSchema } from "../../../contracts/templates";
import { formatTimestamp } from "~/components/dictionary/column-format";
import { FormErrors, TextField } from "~/components/forms/fields";
import { RefusalAlert } from "~/components/forms/refusal-alert";
import { StatusButton } from "~/components/forms/status-button";
import { useIntentPending } from "~/components/projects/use-intent-pending";
import { ConfirmCard, useConfirmParam } from "~/components/forms/confirm-card";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { LabelValueList } from "~/components/ui/label-value-list";
import { companyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { getFormProps, useServerForm } from "~/lib/forms";
import { INCOMPLETE_REQUEST, invalid, parseFormData, readFormData, refusedByService, serviceFailure, unknownIntent } from "~/lib/forms.server";
import { cn } from "~/lib/utils";
import { requireTemplateWrite, scriptOf, templateOf, templateScope } from "./templates.server";
import type { Route } from "./+types/script-details";

/**
 * A script's details (rename, delete) and its info (where it sits, who changed it, its lock): one
 * module, registered for script/edit/{id}/details and …/info. Info is read-only.
 */
const renameSchema = z.object({ version: versionSchema, name: nameSchema });

export async function loader({ context }: Route.LoaderArgs) {
  const [script, { template }, { access }] = await Promise.all([scriptOf(context), templateOf(context), templateScope(context)]);
  const { sql, ...rest } = script;
  return { script: rest, lines: sql.split("\n").length, templateVersion: template.version, editable: access.canWrite && template.status !== "Archived" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const [{ paths, companyId }, { template, api }, script] = await Promise.all([
    requireTemplateWrite(context, (p) => p.list),
    templateOf(context),
    scriptOf(context),
  ]);
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  /** A refusal said at the top of the page. */
  const topRefusal = (err: unknown) => {
    const failure = serviceFailure(err);
    if (!failure || failure.status >= 500) throw err;
    return data({ errors: failure.body.errors }, { status: failure.status });
  };
  /** A post without what the page's form always sends (a forged or truncated one): said at the top, nothing changed. */
  const incomplete = () => data({ errors: [INCOMPLETE_REQUEST] }, { status: 400 });
  if (intent === "rename") {
    const submission = parseFormData(formData, renameSchema);
    // The page of an archived template's script has no rename form (archived meanwhile, in another tab): the refusal goes at the top.
    const formShown = template.status !== "Archived";
    if (submission.status !== "success") return formShown ? invalid(submission) : incomplete();
    try {
      await api.renameScript(script.id, submission.value);
    } catch (err) {
      return formShown ? refusedByService(submission, err) : topRefusal(err);
    }
    return redirectWithFlash(companyHref(paths.script(template.id, script.levelId, script.id, "details"), companyId), "Script renamed.");
  }
  if (intent === "delete") {
    // Read as the template page's delete-script is: a post without the version is incomplete, never version 0 refused as stale.
    const submission = parseFormData(formData, templateVersionSchema);
    if (submission.status !== "success") return incomplete();
    try {
      await api.deleteScript(script.id, submission.value.version);
    } catch (err) {
      return topRefusal(err);
    }
    return redirectWithFlash(companyHref(paths.edit(template.id), companyId), `Script ${script.name} deleted with its versions.`);
  }
  unknownIntent(intent);
}

export default function ScriptDetails({ loaderData, actionData }: Route.ComponentProps) {
  const { script, lines, templateVersion, editable } = loaderData;
  const info = useLocation().pathname.endsWith("/info");
  // ?delete={scriptId}: the deletion's confirmation, a link away, so one click never deletes.
  const confirm = useConfirmParam("delete");
  const pending = useIntentPending("rename");
  const result = actionData && "result" in actionData ? actionData.result : undefined;
  const errors = actionData && "errors" in actionData ? (actionData.errors as string[]) : [];
  const [form, fields] = useServerForm({ id: "rename-script", lastResult: result, required: ["name"], defaultValue: { name: script.name } });
  return (
    <div className="flex flex-col gap-4">
      {errors.length ? <RefusalAlert refusal={errors}>{errors.join(" ")}</RefusalAlert> : null}
      <Card>
        <LabelValueList
          label="Script information"
          rows={[
            ["Template", script.templateName],
            ["Level", script.levelName],
            ["Position in its level", String(script.order)],
            ["Versions", String(script.version)],
            ["Lines in the newest version", String(lines)],
            ["Created", formatTimestamp(script.createdAt)],
            ["Last saved", `${formatTimestamp(script.updatedAt)}${script.updatedByName ? ` by ${script.updatedByName}` : ""}`],
            [
              "Lock",
              script.lockState === "Locked"
                ? `Locked by ${script.lockedByName ?? "someone"} until ${formatTimestamp(script.lockExpiresAt!)}`
                : script.lockState === "ForceUnlocked"
                  ? "Force unlocked"
                  : "Unlocked",
            ],
          ]}
        />
      </Card>
      {editable && !info ? (
        <>
          <Card className="max-w-2xl">
            <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
              <input type="hidden" name="intent" value="rename" />
              <input type="hidden" name="version" value={templateVersion} />
              <FormErrors form={form} />
              <TextField label="Name" field={fields.name!} />
              <div>
                <StatusButton type="submit" pending={pending}>
                  Rename script
                </StatusButton>
              </div>
            </Form>
          </Card>
          {confirm.value === script.id ? (
            <ConfirmCard
              id="delete-script"
              title={`Delete script ${script.name}?`}
              intent="delete"
              fields={{ version: templateVersion }}
              submitLabel="Delete script"
              cancelHref={confirm.cancelHref}
            >
              Its {script.version === 1 ? "version" : `${script.version} versions`} and its lock audit are deleted with it; this cannot be undone. Runs that
              used it keep the SQL they ran.
            </ConfirmCard>
          ) : (
            <Card className="max-w-2xl">
              <h3 className="text-base font-semibold">Delete this script</h3>
              <p className="mt-1 text-sm text-muted-foreground">Its versions and lock audit go with it. Runs that used it keep the SQL they ran.</p>
              <Link to={confirm.openHref(script.id)} className={cn(buttonVariants({ variant: "outline" }), "mt-3")}>
                Delete script
              </Link>
            </Card>
          )}
        </>
      ) : null}
    </div>
  );
}

export const handle = { breadcrumb: "Details" };

// After a 409 (the template changed meanwhile) the page is read again: its forms then send the version it shows, so the next try is applied.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
