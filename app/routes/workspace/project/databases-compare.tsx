import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "react-router";
import { z } from "zod";
import { CHOOSE_COMPARISON_MESSAGE, type Backup } from "../../../../contracts/backups";
import { presentString } from "../../../../contracts/common";
import { FormErrors } from "~/components/forms/fields";
import { RadioGroupField } from "~/components/forms/choice-fields";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { formatCount, formatTimestamp } from "~/components/projects/format";
import { Card } from "~/components/ui/card";
import { PageSizeForm } from "~/components/ui/list-search-form";
import { Pagination } from "~/components/ui/pagination";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { PAGING_KEYS, pagingParams } from "~/lib/list-search";
import { readPage } from "~/lib/list-search.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { getFormProps, useServerForm } from "~/lib/forms";
import { invalid, parseFormData, readFormData, refusedByService } from "~/lib/forms.server";
import { afterGuard } from "~/lib/guards.server";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { checkWorkspace, projectCalls, projectScope } from "../workspace.server";
import type { Route } from "./+types/databases-compare";

/** A comparison locks the workspace (DataComparison): write access, and not locked. */
async function guard(context: Route.LoaderArgs["context"]) {
  const scope = await projectScope(context);
  return checkWorkspace(scope, { write: scope.paths.databases.current(scope.project.id), unlocked: true });
}

/** The deliveries offered a page at a time, 25 unless the user chose another size. */
const DELIVERIES_PER_PAGE = 25;

/**
 * What the page offers, and so all it checks and sends: a delivery's backup. The data API's body also
 * takes a history entry's id, which a post could hold instead and pass a check of that body, leaving
 * the data API to refuse the empty backupId under its raw name.
 */
const compareDeliverySchema = z.object({ backupId: presentString(CHOOSE_COMPARISON_MESSAGE).trim().min(1, CHOOSE_COMPARISON_MESSAGE) });

/**
 * databases/compare-source (onboarding): compare an earlier delivery with the current data. Each
 * flat-file load keeps the backup taken before the next change, so every delivery but the current
 * one can be picked.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const paging = readPage(new URL(request.url).searchParams, PAGING_KEYS, DELIVERIES_PER_PAGE);
  const [{ project }, deliveries] = await afterGuard(guard(context), projectCalls(context).backups.list({ ...paging, deliveries: true }));
  return { projectId: project.id, deliveries };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { project, api, companyId, paths } = await guard(context);
  const submission = parseFormData(await readFormData(request), compareDeliverySchema);
  if (submission.status !== "success") return invalid(submission);
  try {
    const { entry } = await api.compare(submission.value);
    return redirectWithFlash(companyHref(paths.databases.entry(project.id, entry.id), companyId), "Comparing the delivery with the current data.");
  } catch (err) {
    return refusedByService(submission, err);
  }
}

export const handle = { breadcrumb: "Compare a delivery" };

/** A delivery by its files and when it was loaded; the rows are its backup's, which holds the destination's as well as the delivery's. */
function deliveryLabel(b: Backup): string {
  const after = b.after!;
  return `${after.fileName}, loaded ${formatTimestamp(after.finishedAt)} (${formatCount(b.rowCount)} rows in both databases then)`;
}

export default function CompareSource({ loaderData, actionData }: Route.ComponentProps) {
  const { projectId, deliveries } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const pending = useIsPending();
  const [form, fields] = useServerForm({
    id: "compare-delivery",
    lastResult: (actionData as { result?: SubmissionResult<string[]> } | undefined)?.result,
    required: ["backupId"],
  });
  return (
    <Card aria-labelledby="compare-title" className="max-w-4xl">
      <h2 id="compare-title" className="text-lg font-semibold">
        Compare an earlier delivery with the current data
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        Per table: the rows added, removed and changed since that delivery, the columns that changed, and up to 20 rows of each kind.
      </p>
      {deliveries.items.length === 0 ? (
        <p className="mt-3 text-sm">
          No earlier delivery yet: once a second delivery is loaded, the first can be compared with it.{" "}
          <Link to={href(paths.databases.history(projectId))} className="text-brand underline underline-offset-2">
            History
          </Link>
        </p>
      ) : (
        <>
          {/* Its own GET form, outside the POST form that the deliveries' radio group belongs to. */}
          <PageSizeForm
            action={paths.databases.compare(projectId)}
            label="Deliveries page size"
            pageSize={deliveries.pageSize}
            pageSizeId="deliveries-page-size"
            className="mt-4"
          />
          <Form method="post" {...getFormProps(form)} className="mt-4 flex flex-col gap-4">
            <FormErrors form={form} />
            <RadioGroupField
              label="Earlier delivery"
              field={fields.backupId!}
              options={deliveries.items.map((b) => ({ value: b.id, label: deliveryLabel(b) }))}
            />
            <Pagination
              page={deliveries.page}
              pageSize={deliveries.pageSize}
              total={deliveries.total}
              noun={["delivery", "deliveries"]}
              href={(page) => href(paths.databases.compare(projectId), pagingParams(PAGING_KEYS, { page, pageSize: deliveries.pageSize }, DELIVERIES_PER_PAGE))}
            />
            <div>
              <StatusButton type="submit" pending={pending}>
                Compare
              </StatusButton>
            </div>
          </Form>
        </>
      )}
    </Card>
  );
}
