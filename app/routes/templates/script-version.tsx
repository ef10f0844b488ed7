import { Form, Link, data, type UIMatch } from "react-router";
import { z } from "zod";
import { versionInPath, versionSchema } from "../../../contracts/common";
import { formatTimestamp } from "~/components/dictionary/column-format";
import { RefusalAlert } from "~/components/forms/refusal-alert";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { INCOMPLETE_REQUEST, parseFormData, readFormData, serviceFailure, unknownIntent } from "~/lib/forms.server";
import { useTemplatePaths } from "./paths";
import { requireTemplateWrite, scriptOf, templateOf, templateScope } from "./templates.server";
import type { Route } from "./+types/script-version";

/** The version the URL names (versionInPath, as the data API reads it), else no version of the script: 404 before the data API is asked. */
function versionInUrl(params: { version: string }): number {
  const number = versionInPath(params.version);
  if (number === null) throw data({ errors: ["Version not found."] }, { status: 404 });
  return number;
}

/** One version's SQL, and "Restore this version": a new version with its text (the lock's holder). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const [script, { template, api }, { shell, scriptAccess: access }] = await Promise.all([scriptOf(context), templateOf(context), templateScope(context)]);
  const number = versionInUrl(params);
  const version = await api.version(script.id, number);
  const holding = script.lockState === "Locked" && script.lockedBy === shell.user.id;
  return {
    script: { id: script.id, levelId: script.levelId, templateId: script.templateId, version: script.version },
    version,
    canRestore: access.canWrite && template.status !== "Archived" && holding && version.version !== script.version,
    needsLock: access.canWrite && template.status !== "Archived" && !holding && version.version !== script.version,
  };
}

const restoreSchema = z.object({ version: versionSchema });

export async function action({ request, params, context }: Route.ActionArgs) {
  const [{ paths, companyId }, { template, api }, script] = await Promise.all([
    requireTemplateWrite(context, (p) => p.list, { scriptText: true }),
    templateOf(context),
    scriptOf(context),
  ]);
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  if (intent !== "restore") unknownIntent(intent);
  // Based on the newest version the page showed, as a save is: restored after a save since (another tab), the data API refuses it.
  const submission = parseFormData(formData, restoreSchema);
  if (submission.status !== "success") return data({ errors: [INCOMPLETE_REQUEST] }, { status: 400 });
  const number = versionInUrl(params);
  try {
    const restored = await api.restoreVersion(script.id, number, submission.value.version);
    return redirectWithFlash(
      companyHref(paths.script(template.id, script.levelId, script.id, "history"), companyId),
      `Version ${number} restored as version ${restored.version}.`,
    );
  } catch (err) {
    const failure = serviceFailure(err);
    if (!failure || failure.status >= 500) throw err;
    return data({ errors: failure.body.errors }, { status: failure.status });
  }
}

// Not found (a version the script has not): no loader data, so no crumb naming what the URL says ("Version abc").
export const handle = { breadcrumb: (match: UIMatch) => (match.loaderData ? `Version ${match.params.version}` : null) };

// After a restore refused as stale (409), with JavaScript, the page reads the script again: its form then sends the newest version.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

export default function ScriptVersion({ loaderData, actionData }: Route.ComponentProps) {
  const { script, version, canRestore, needsLock } = loaderData;
  const href = useCompanyHref();
  const paths = useTemplatePaths();
  return (
    <Card>
      {actionData?.errors?.length ? (
        <RefusalAlert refusal={actionData.errors} className="mb-3">
          {actionData.errors.join(" ")}
        </RefusalAlert>
      ) : null}
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 className="text-base font-semibold">Version {version.version}</h3>
          <p className="text-sm text-muted-foreground">
            Saved <time dateTime={version.createdAt}>{formatTimestamp(version.createdAt)}</time> by {version.authorName ?? version.author}
            {version.comment ? `: ${version.comment}` : ""}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {version.version !== script.version ? (
            <Link
              to={href(paths.script(script.templateId, script.levelId, script.id, "history"), { from: version.version, to: script.version })}
              className={buttonVariants({ variant: "outline" })}
            >
              Compare with the newest
            </Link>
          ) : null}
          {canRestore ? (
            <Form method="post">
              <input type="hidden" name="intent" value="restore" />
              <input type="hidden" name="version" value={script.version} />
              <Button type="submit">Restore this version</Button>
            </Form>
          ) : null}
        </div>
      </div>
      {needsLock ? <p className="mt-2 text-sm text-muted-foreground">Lock the script for editing to restore this version.</p> : null}
      <pre aria-label={`SQL of version ${version.version}`} className="mt-3 overflow-x-auto rounded-md bg-muted/40 p-3 font-mono text-[13px] leading-5">
        {version.sql}
      </pre>
    </Card>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
