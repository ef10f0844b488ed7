import type { SubmissionResult } from "@conform-to/react";
import { useMemo } from "react";
import { Form, Link } from "react-router";
import { z } from "zod";
import { sqlLevelSchema } from "../../../../contracts/sql-access";
import { SQL_LEVEL_HINTS, SQL_LEVEL_LABELS, SQL_LEVELS } from "../../../../contracts/values/sql-access";
import { FormErrors, SelectField } from "~/components/forms/fields";
import { StatusButton } from "~/components/forms/status-button";
import { useIntentPending } from "~/components/projects/use-intent-pending";
import { Alert } from "~/components/ui/alert";
import { Card } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { getFormProps, useServerForm } from "~/lib/forms";
import { invalid, parseFormData, readFormData, refusedByService, unknownIntent } from "~/lib/forms.server";
import { afterGuard } from "~/lib/guards.server";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { projectCalls, projectScope, requireWorkspace } from "../workspace.server";
import type { Route } from "./+types/sql-permissions";

/** The page's one form: each credential's level, with the level the page showed (a stale save is refused by the data API). */
const permissionsSchema = z.object({
  entries: z.array(z.object({ credentialId: z.string().min(1), level: sqlLevelSchema, was: sqlLevelSchema })).min(1),
});

/** What the form sends hidden: its rows (none is a forged post), each one's credential and the level the page showed. */
const HIDDEN_ENTRY_FIELDS = [/^entries$/, /^entries\[\d+\]\.(credentialId|was)$/];

/**
 * A workspace's SQL permissions (issue 13, …/users/sql-permissions): for each SQL credential of the
 * company, None, Read or Write in this workspace's databases. Anyone who may read the workspace sees
 * them; those with write access change them. Credentials are made under Additional Options.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const [{ project, access, ws, companyId }, permissions] = await afterGuard(projectScope(context), projectCalls(context).sqlPermissions());
  return { projectId: project.id, noun: ws.noun, canWrite: access.canWrite && !project.isLocked, locked: project.isLocked, permissions, companyId };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { project, companyId, api, paths } = await projectScope(context);
  const here = paths.page(project.id, "users/sql-permissions");
  await requireWorkspace(context, { write: here, unlocked: true });
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  if (intent !== "save") return unknownIntent(intent);
  const submission = parseFormData(formData, permissionsSchema);
  if (submission.status !== "success") return invalid(submission, HIDDEN_ENTRY_FIELDS);
  const changed = submission.value.entries.filter((e) => e.level !== e.was);
  if (changed.length === 0) return redirectWithFlash(companyHref(here, companyId), "Nothing to save: no level was changed.");
  try {
    const { changed: done } = await api.setSqlPermissions({ entries: changed });
    // The same save sent again (a double submit, Back and resend), or levels another tab set the same: the data API changed none.
    if (done === 0) return redirectWithFlash(companyHref(here, companyId), "Nothing changed: each credential had the level chosen already.");
    return redirectWithFlash(companyHref(here, companyId), `SQL permissions saved: ${done} ${done === 1 ? "credential" : "credentials"} changed.`);
  } catch (err) {
    return refusedByService(submission, err);
  }
}

// After a refused save, show the credentials and levels as they are now: 409, a level changed meanwhile (in another tab or by
// someone else); 404, a credential revoked meanwhile, which leaves the list.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

export const handle = { breadcrumb: "SQL permissions" };

type Entry = { credentialId: string; level: string; was: string };

/**
 * A refused save comes back with the entries it posted, but the list may have changed meanwhile (a
 * credential made or revoked, a level changed by someone else), and the form's rows are the list's:
 * each credential gets back the level chosen for it, unless someone changed it since the page showed
 * it (that change is shown instead, as the conflict's message asks the user to look again), or it is no
 * level the form offers (a forged one: its select would show the first option, None, as if chosen; the
 * stored level is shown beside the refusal instead).
 */
function alignedToList(result: SubmissionResult<string[]> | undefined, items: { credentialId: string; level: string }[]) {
  if (!result?.initialValue) return result;
  const posted = Array.isArray(result.initialValue.entries) ? (result.initialValue.entries as Partial<Entry>[]) : [];
  const byId = new Map(posted.map((e) => [e.credentialId, e]));
  const entries = items.map((item): Entry => {
    const sent = byId.get(item.credentialId);
    const chosen = sent?.level && (SQL_LEVELS as readonly string[]).includes(sent.level) && sent.was === item.level;
    return { credentialId: item.credentialId, level: chosen ? sent.level! : item.level, was: item.level };
  });
  // A row's own error is kept only where the rows are the ones posted, in the same order; elsewhere (a post of some
  // rows only: a forged level) it is said at the top, or the page would come back refused without a word.
  const same = posted.length === items.length && posted.every((e, i) => e.credentialId === items[i]!.credentialId);
  if (same) return { ...result, initialValue: { ...result.initialValue, entries } };
  const errors = Object.entries(result.error ?? {});
  const rowErrors = errors.filter(([name]) => name.startsWith("entries[")).flatMap(([, messages]) => messages ?? []);
  const top = [...new Set([...(result.error?.[""] ?? []), ...rowErrors])];
  const error = Object.fromEntries([...errors.filter(([name]) => name !== "" && !name.startsWith("entries[")), ...(top.length ? [["", top]] : [])]);
  return { ...result, initialValue: { ...result.initialValue, entries }, error };
}

export default function SqlPermissions({ loaderData, actionData }: Route.ComponentProps) {
  const { noun, canWrite, locked, permissions, projectId } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const pending = useIntentPending("save");
  const items = permissions.items;
  // Memoised: the form starts over from a result only when a new one arrives.
  const lastResult = useMemo(() => alignedToList(actionData?.result as SubmissionResult<string[]> | undefined, items), [actionData, items]);
  const [form, fields] = useServerForm({
    id: "sql-permissions",
    lastResult,
    defaultValue: { entries: items.map((i) => ({ credentialId: i.credentialId, level: i.level, was: i.level })) },
  });
  const entries = fields.entries!.getFieldList();

  return (
    <Card aria-labelledby="sql-title">
      <h2 id="sql-title" className="text-lg font-semibold">
        SQL permissions
      </h2>
      <p className="mt-1 max-w-3xl text-sm text-muted-foreground">
        What each SQL credential of the company may do in this {noun}&apos;s databases ({permissions.database ?? "not created yet"}).{" "}
        {SQL_LEVELS.map((l) => `${SQL_LEVEL_LABELS[l]}: ${SQL_LEVEL_HINTS[l]}`).join("; ")}. Credentials are created, rotated and revoked under Additional
        Options.
      </p>
      {!permissions.databasesExist ? (
        <Alert className="mt-4">
          This {noun} has no databases yet.{" "}
          <Link to={href(paths.page(projectId, "databases/current"))} className="text-brand underline underline-offset-2">
            Create them
          </Link>{" "}
          before granting SQL access.
        </Alert>
      ) : items.length === 0 ? (
        <p className="mt-4 text-sm text-muted-foreground">The company has no SQL credentials yet.</p>
      ) : canWrite ? (
        <Form method="post" {...getFormProps(form)} aria-labelledby="sql-title" className="mt-4">
          <FormErrors form={form} />
          <ul className="divide-y divide-border rounded-lg border border-border" aria-label="SQL credentials">
            {items.map((item, i) => {
              const entry = entries[i]!.getFieldset<"credentialId" | "level" | "was">();
              return (
                <li key={item.credentialId} className="flex flex-wrap items-end justify-between gap-4 p-4">
                  <div className="text-sm">
                    <p className="font-medium">{item.name}</p>
                    <p className="text-muted-foreground">
                      <code>{item.login}</code> · {item.status} · expires {item.expiresOn}
                    </p>
                  </div>
                  <input type="hidden" name={entry.credentialId.name} value={item.credentialId} />
                  <input type="hidden" name={entry.was.name} value={item.level} />
                  <SelectField
                    label={`SQL permission of ${item.name} (${item.login})`}
                    field={entry.level}
                    options={SQL_LEVELS.map((l) => ({ value: l, label: SQL_LEVEL_LABELS[l] }))}
                    className="min-w-0 basis-64"
                  />
                </li>
              );
            })}
          </ul>
          <StatusButton type="submit" name="intent" value="save" pending={pending} className="mt-4">
            Save permissions
          </StatusButton>
        </Form>
      ) : (
        <>
          <p className="mt-4 text-sm">
            {locked
              ? `The ${noun} is locked by a running job: the levels can be changed once it ends.`
              : "Only users with write access can change these levels."}
          </p>
          <Table aria-label="SQL credentials" className="mt-2">
            <TableHeader>
              <TableRow>
                <TableHead>Who</TableHead>
                <TableHead>Login name</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Level</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {items.map((item) => (
                <TableRow key={item.credentialId}>
                  <TableCell>{item.name}</TableCell>
                  <TableCell>
                    <code>{item.login}</code>
                  </TableCell>
                  <TableCell>{item.status}</TableCell>
                  <TableCell>{SQL_LEVEL_LABELS[item.level]}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </>
      )}
    </Card>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
