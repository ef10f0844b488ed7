import { Form, Link, data } from "react-router";
import { z } from "zod";
import { versionSchema } from "../../../contracts/common";
import { formatTimestamp } from "~/components/dictionary/column-format";
import { RefusalAlert } from "~/components/forms/refusal-alert";
import { ConfirmCard, useConfirmParam } from "~/components/forms/confirm-card";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card, CardDescription } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import { Pagination, PastTheEnd } from "~/components/ui/pagination";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { INCOMPLETE_REQUEST, parseFormData, readFormData, serviceFailure, unknownIntent } from "~/lib/forms.server";
import { PAGING_KEYS, pagingParams } from "~/lib/list-search";
import { readPage } from "~/lib/list-search.server";
import { useTemplatePaths } from "./paths";
import { requireTemplateWrite, templateScope, workspaceOwnerOf, workspaceTemplates } from "./templates.server";
import { moveSchema, type TemplateSummary } from "../../../contracts/templates";
import type { Route } from "./+types/assigned";

/**
 * The run order's page size when the URL does not say: the whole order on one page, as a workspace
 * of up to 100 templates has it; beyond, the rest are on the next pages rather than out of reach.
 */
const RUN_ORDER_PAGE_SIZE = 100;

/** The page of the run order the URL asks (?page=&pageSize=), the one a move or removal goes back to. */
const runOrderPage = (request: Request) => readPage(new URL(request.url).searchParams, PAGING_KEYS, RUN_ORDER_PAGE_SIZE);

/** The template a row's button acts on, at the version the page showed; a move's direction. */
const templateTarget = z.object({ templateId: z.string().min(1), version: versionSchema });
const moveTarget = templateTarget.extend({ direction: moveSchema.shape.direction });

/** A workspace's templates in run order (…/templates/assigned), a page at a time: open, reorder, remove; assign or create more. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const owner = workspaceOwnerOf(request);
  const paging = runOrderPage(request);
  const [{ access }, templates] = await Promise.all([templateScope(context), workspaceTemplates(context, owner).list(paging)]);
  return { templates, canWrite: access.canWrite };
}

export async function action({ request, context }: Route.ActionArgs) {
  const owner = workspaceOwnerOf(request);
  const { paths, companyId } = await requireTemplateWrite(context, (p) => p.list);
  const api = workspaceTemplates(context, owner);
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  const back = companyHref(paths.list, companyId, pagingParams(PAGING_KEYS, runOrderPage(request), RUN_ORDER_PAGE_SIZE));
  // What the page's buttons always send: a post without it (or moving any way but up or down) is refused, nothing changed.
  const incomplete = () => data({ errors: [INCOMPLETE_REQUEST] }, { status: 400 });
  try {
    if (intent === "move") {
      const move = parseFormData(formData, moveTarget);
      if (move.status !== "success") return incomplete();
      const { templateId, ...body } = move.value;
      await api.move(templateId, body);
      return redirectWithFlash(back, "Run order changed.");
    }
    if (intent === "remove") {
      const removal = parseFormData(formData, templateTarget);
      if (removal.status !== "success") return incomplete();
      const { templateId, version } = removal.value;
      // Read before it goes: the message says whether a master stays behind.
      const template = await api.get(templateId);
      await api.remove(templateId, version);
      return redirectWithFlash(
        back,
        template.masterTemplateId
          ? `Template ${template.name} removed. Its master template is unchanged.`
          : `Template ${template.name} deleted with its levels and scripts.`,
      );
    }
  } catch (err) {
    const failure = serviceFailure(err);
    if (!failure || failure.status >= 500) throw err;
    return data({ errors: failure.body.errors }, { status: failure.status });
  }
  unknownIntent(intent);
}

export const handle = { breadcrumb: "Assigned" };

export default function AssignedTemplates({ loaderData, actionData }: Route.ComponentProps) {
  const { templates, canWrite } = loaderData;
  const href = useCompanyHref();
  const paths = useTemplatePaths();
  const items = templates.items;
  // Where this page starts in the run order: the numbers and the ends of the order are the whole order's.
  const offset = (templates.page - 1) * templates.pageSize;
  // ?remove={templateId}: the removal's confirmation, a link away, so one click never deletes a template.
  const confirm = useConfirmParam("remove");
  const removing = canWrite ? items.find((t) => t.id === confirm.value) : undefined;
  return (
    <section aria-labelledby="templates-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="templates-title" className="text-xl font-semibold">
          Templates
        </h2>
        {paths.runs ? (
          <div className="flex flex-wrap gap-2">
            {canWrite && items.length ? (
              <Link to={href(paths.runs.run)} className={buttonVariants()}>
                <Icon name="arrow-right" />
                Run
              </Link>
            ) : null}{" "}
            <Link to={href(paths.runs.history)} className={buttonVariants({ variant: "outline" })}>
              Run history
            </Link>
          </div>
        ) : null}
      </div>
      {canWrite ? (
        <div className="flex flex-wrap gap-2">
          <Link to={href(paths.assign)} className={buttonVariants({ variant: "outline" })}>
            <Icon name="plus" />
            Assign templates
          </Link>{" "}
          <Link to={href(paths.create)} className={buttonVariants({ variant: "outline" })}>
            Create template
          </Link>
        </div>
      ) : null}
      {actionData?.errors?.length ? <RefusalAlert refusal={actionData.errors}>{actionData.errors.join(" ")}</RefusalAlert> : null}
      {removing ? <RemoveConfirmation template={removing} cancelHref={confirm.cancelHref} /> : null}
      {templates.total === 0 ? (
        <Card>
          <h3 className="text-base font-semibold">No templates yet</h3>
          <CardDescription>
            Assign master templates (each is copied here with its levels and scripts), or create a template that exists only here.
          </CardDescription>
        </Card>
      ) : items.length === 0 ? (
        <PastTheEnd page={templates.page} />
      ) : (
        <Table aria-label="Templates in run order">
          <TableHeader>
            <TableRow>
              <TableHead>#</TableHead>
              <TableHead>Template</TableHead>
              <TableHead>Type</TableHead>
              <TableHead className="text-right">Levels</TableHead>
              <TableHead className="text-right">Scripts</TableHead>
              <TableHead>From</TableHead>
              <TableHead>Last change</TableHead>
              {canWrite ? <TableHead>Actions</TableHead> : null}
            </TableRow>
          </TableHeader>
          <TableBody>
            {items.map((t, i) => (
              <TableRow key={t.id}>
                <TableCell className="tabular-nums">{offset + i + 1}</TableCell>
                <TableCell className="font-medium">
                  <Link to={href(paths.edit(t.id))} className="text-brand hover:underline">
                    {t.name}
                  </Link>
                </TableCell>
                <TableCell>{t.type}</TableCell>
                <TableCell className="text-right tabular-nums">{t.levelCount}</TableCell>
                <TableCell className="text-right tabular-nums">{t.scriptCount}</TableCell>
                <TableCell>{t.masterTemplateId ? `Master, version ${t.masterVersion}` : "Made here"}</TableCell>
                <TableCell className="whitespace-nowrap text-muted-foreground">
                  <time dateTime={t.updatedAt}>{formatTimestamp(t.updatedAt)}</time>
                </TableCell>
                {canWrite ? (
                  <TableCell>
                    <div className="flex flex-wrap gap-1">
                      <Form method="post" className="inline-flex gap-1">
                        <input type="hidden" name="intent" value="move" />
                        <input type="hidden" name="templateId" value={t.id} />
                        <input type="hidden" name="version" value={t.version} />
                        <Button
                          type="submit"
                          name="direction"
                          value="up"
                          variant="outline"
                          size="sm"
                          disabled={offset + i === 0}
                          aria-label={`Move template ${t.name} up`}
                        >
                          <Icon name="arrow-up" />
                        </Button>
                        <Button
                          type="submit"
                          name="direction"
                          value="down"
                          variant="outline"
                          size="sm"
                          disabled={offset + i === templates.total - 1}
                          aria-label={`Move template ${t.name} down`}
                        >
                          <Icon name="arrow-down" />
                        </Button>
                      </Form>
                      <Link to={confirm.openHref(t.id)} className={buttonVariants({ variant: "outline", size: "sm" })}>
                        Remove<span className="sr-only"> template {t.name}</span>
                      </Link>
                    </div>
                  </TableCell>
                ) : null}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {templates.total > templates.pageSize ? (
        <Pagination
          page={templates.page}
          pageSize={templates.pageSize}
          total={templates.total}
          noun={["template", "templates"]}
          href={(page) => href(paths.list, pagingParams(PAGING_KEYS, { page, pageSize: templates.pageSize }, RUN_ORDER_PAGE_SIZE))}
        />
      ) : null}
    </section>
  );
}

function RemoveConfirmation({ template: t, cancelHref }: { template: TemplateSummary; cancelHref: string }) {
  const contents = `its ${t.levelCount === 1 ? "level" : `${t.levelCount} levels`} and ${t.scriptCount === 1 ? "script" : `${t.scriptCount} scripts`}, with all their versions`;
  return (
    <ConfirmCard
      id="remove-template"
      title={t.masterTemplateId ? `Remove template ${t.name}?` : `Delete template ${t.name}?`}
      intent="remove"
      fields={{ templateId: t.id, version: t.version }}
      submitLabel={t.masterTemplateId ? "Remove template" : "Delete template"}
      cancelHref={cancelHref}
    >
      {t.masterTemplateId
        ? `The copy made here is deleted with ${contents}, including any changes made here. The master template is unchanged: assign it again for a fresh copy.`
        : `It was made here and exists nowhere else: it is deleted with ${contents}. This cannot be undone.`}
    </ConfirmCard>
  );
}

// After a 409 (the template changed meanwhile) the page is read again: its forms then send the version it shows, so the next try is applied.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
