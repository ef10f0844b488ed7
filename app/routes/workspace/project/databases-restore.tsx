import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "react-router";
import { z } from "zod";
import { restoreBodySchema } from "../../../../contracts/backups";
import { MAX_UPLOAD_BYTES_DEFAULT } from "../../../../contracts/values/loads";
import { HISTORY_TYPE_LABELS } from "../../../../contracts/values/loads";
import { RESTORE_FILE_EXTENSIONS } from "../../../../contracts/values/backups";
import { CheckboxField, FileField, FormErrors, TextareaField } from "~/components/forms/fields";
import { RadioGroupField } from "~/components/forms/choice-fields";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { BackupsTable, backupLabel } from "~/components/backups/backups-table";
import { formatTimestamp } from "~/components/projects/format";
import { Card } from "~/components/ui/card";
import { PageSizeForm } from "~/components/ui/list-search-form";
import { Pagination } from "~/components/ui/pagination";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { PAGING_KEYS, pagingParams } from "~/lib/list-search";
import { readPage } from "~/lib/list-search.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { getFormProps, useServerForm } from "~/lib/forms";
import { invalid, parseFormData, readFormData, refusedByService, submitUpload, unknownIntent } from "~/lib/forms.server";
import { afterGuard } from "~/lib/guards.server";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { checkWorkspace, projectCalls, projectScope } from "../workspace.server";
import type { Route } from "./+types/databases-restore";

/** Restoring changes the source database: write access, and the workspace not locked (spec §5). */
async function guard(context: Route.LoaderArgs["context"]) {
  const scope = await projectScope(context);
  return checkWorkspace(scope, { write: scope.paths.databases.current(scope.project.id), unlocked: true });
}

/** The backups offered a page at a time, 10 unless the user chose another size (the radio group stays short). */
const BACKUPS_PER_PAGE = 10;
const RESTORE_BACKUP = "restore-backup";
const UNDO = "undo";
const REASON_HINT = "Optional: kept in the audit log with the restore.";

/**
 * databases/backup/update-source: restore the source database from one of the workspace's backups,
 * or from a file (a backup archive, a client's SQLite export); with `?undo={historyId}`, the page that
 * confirms an undo: the data as it was before that entry.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const search = new URL(request.url).searchParams;
  const undo = search.get("undo");
  const calls = projectCalls(context);
  const [{ project }, [backups, undone]] = await afterGuard(
    guard(context),
    Promise.all([calls.backups.list(readPage(search, PAGING_KEYS, BACKUPS_PER_PAGE)), undo ? calls.history.get(undo) : null]),
  );
  // The undo is based on the workspace's version as shown: sent again (Back, another tab) or after a change, the data API refuses it.
  return { projectId: project.id, version: project.version, backups, undo: undone && { entry: undone.entry, backup: undone.undoBackup } };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { project, companyId, api, paths } = await guard(context);
  const started = (entry: { id: string; fileName: string }, what: string) =>
    redirectWithFlash(companyHref(paths.databases.entry(project.id, entry.id), companyId), `${what} ${entry.fileName}: this page follows the job.`);

  if (/^multipart\/form-data/i.test(request.headers.get("content-type") ?? "")) {
    const limit = {
      maxBytes: MAX_UPLOAD_BYTES_DEFAULT + 1024 * 1024,
      tooLargeMessage: `The file is larger than ${MAX_UPLOAD_BYTES_DEFAULT / 1024 ** 3} GB, the most a restore takes`,
      noFileMessage: "Choose a backup archive (.tar) or a SQLite database (.sqlite, .db) to restore",
    };
    const { value, reply } = await submitUpload(request, limit, (upload) => api.restores.upload(upload));
    return reply ?? started(value.entry, "Restoring");
  }

  const formData = await readFormData(request);
  const intent = formData.get("intent");
  // Only the two forms' buttons: another intent (a forged post) has no form to be refused in.
  if (intent !== RESTORE_BACKUP && intent !== UNDO) unknownIntent(intent);
  const schema = z.object({ intent: z.enum([RESTORE_BACKUP, UNDO]) }).and(restoreBodySchema);
  const submission = parseFormData(formData, schema);
  if (submission.status !== "success") return invalid(submission);
  try {
    const { backupId, undo, version, compare, reason } = submission.value;
    const { entry } = await api.restores.start({ backupId, undo, version, compare, reason });
    return started(entry, intent === UNDO ? "Undoing: restoring the data as it was before" : "Restoring");
  } catch (err) {
    return refusedByService(submission, err);
  }
}

export const handle = { breadcrumb: "Restore" };
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

export default function RestoreSource({ loaderData, actionData }: Route.ComponentProps) {
  const { projectId, version, backups, undo } = loaderData;
  const result = (actionData as { result?: SubmissionResult<string[]> } | undefined)?.result;
  const intent = result?.initialValue?.intent;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const pending = useIsPending();
  const [backupForm, backupFields] = useServerForm({
    id: "restore-backup",
    lastResult: intent === RESTORE_BACKUP ? result : undefined,
    required: ["backupId"],
  });
  const [fileForm, fileFields] = useServerForm({ id: "restore-file", lastResult: intent === undefined ? result : undefined, required: ["file"] });
  const [undoForm, undoFields] = useServerForm({ id: "undo", lastResult: intent === UNDO ? result : undefined });

  if (undo) {
    const { entry, backup } = undo;
    return (
      <Card aria-labelledby="undo-title" className="max-w-3xl">
        <h2 id="undo-title" className="text-lg font-semibold">
          Undo {HISTORY_TYPE_LABELS[entry.type].toLowerCase()} of {entry.fileName}
        </h2>
        {backup ? (
          <Form method="post" {...getFormProps(undoForm)} className="mt-3 flex flex-col gap-4">
            <FormErrors form={undoForm} />
            <p className="text-sm">
              The source database goes back to the data as it was just before this {HISTORY_TYPE_LABELS[entry.type].toLowerCase()} (started{" "}
              {formatTimestamp(entry.createdAt)}): the backup {backup.name}. Everything loaded or restored since is replaced. The current data is backed up
              first, so the undo can itself be undone.
            </p>
            <input type="hidden" name="intent" value={UNDO} />
            <input type="hidden" name="undo" value={entry.id} />
            <input type="hidden" name="version" value={version} />
            <TextareaField label="Reason" field={undoFields.reason!} description={REASON_HINT} rows={2} />
            <div className="flex items-center gap-4">
              <StatusButton type="submit" pending={pending}>
                Undo
              </StatusButton>{" "}
              <Link to={href(paths.databases.entry(projectId, entry.id))} className="text-sm text-brand underline underline-offset-2">
                Cancel
              </Link>
            </div>
          </Form>
        ) : (
          <p className="mt-2 text-sm" role="alert">
            This entry cannot be undone: only a load or a restore that changed the data can, while the backup taken before it is kept.
          </p>
        )}
      </Card>
    );
  }

  return (
    <div className="flex max-w-5xl flex-col gap-6">
      <Card aria-labelledby="from-backup-title">
        <h2 id="from-backup-title" className="text-lg font-semibold">
          Restore a backup
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          The source database is replaced by the backup&apos;s, all or nothing; the destination database is left as it is. The current data is backed up first,
          so the restore can be undone from the history.
        </p>
        {backups.items.length === 0 ? (
          <p className="mt-3 text-sm text-muted-foreground">
            No backup yet.{" "}
            <Link to={href(paths.databases.current(projectId))} className="text-brand underline underline-offset-2">
              Back up now
            </Link>{" "}
            from the databases page, or restore a file below.
          </p>
        ) : (
          <Form method="post" {...getFormProps(backupForm)} aria-labelledby="from-backup-title" className="mt-4 flex flex-col gap-4">
            <FormErrors form={backupForm} />
            <input type="hidden" name="intent" value={RESTORE_BACKUP} />
            <RadioGroupField label="Backup" field={backupFields.backupId!} options={backups.items.map((b) => ({ value: b.id, label: backupLabel(b) }))} />
            <CheckboxField
              label="Compare with the current data"
              field={backupFields.compare!}
              description="Then lists the rows the restore added, removed and changed."
            />
            <TextareaField label="Reason" field={backupFields.reason!} description={REASON_HINT} rows={2} />
            <div>
              <StatusButton type="submit" pending={pending}>
                Restore
              </StatusButton>
            </div>
          </Form>
        )}
        {backups.items.length ? (
          <div className="mt-6">
            <PageSizeForm
              action={paths.databases.restore(projectId)}
              label="Backups page size"
              pageSize={backups.pageSize}
              pageSizeId="backups-page-size"
              className="mb-4"
            />
            <BackupsTable projectId={projectId} backups={backups.items} />
            <Pagination
              page={backups.page}
              pageSize={backups.pageSize}
              total={backups.total}
              noun={["backup", "backups"]}
              href={(page) => href(paths.databases.restore(projectId), pagingParams(PAGING_KEYS, { page, pageSize: backups.pageSize }, BACKUPS_PER_PAGE))}
            />
          </div>
        ) : null}
      </Card>

      <Card aria-labelledby="from-file-title">
        <h2 id="from-file-title" className="text-lg font-semibold">
          Restore from a file
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          A backup downloaded from this product, or a client&apos;s SQLite export: its tables go into the dictionary&apos;s tables of the same names (any case),
          column by column. The file is checked whole before anything changes.
        </p>
        <Form method="post" encType="multipart/form-data" {...getFormProps(fileForm)} aria-labelledby="from-file-title" className="mt-4 flex flex-col gap-4">
          <FormErrors form={fileForm} />
          <FileField
            label="Backup archive or SQLite database"
            field={fileFields.file!}
            accept={RESTORE_FILE_EXTENSIONS.join(",")}
            description="A .backup.tar archive, or a .sqlite / .db file, at most 5 GB."
          />
          <CheckboxField label="Compare with the current data" field={fileFields.compare!} />
          <TextareaField label="Reason" field={fileFields.reason!} description={REASON_HINT} rows={2} />
          <div>
            <StatusButton type="submit" pending={pending}>
              Restore from the file
            </StatusButton>
          </div>
        </Form>
      </Card>
    </div>
  );
}
