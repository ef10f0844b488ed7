import { data, Form, Link } from "react-router";
import { z } from "zod";
import { descriptionSchema, nameSchema, nameToEdit, versionSchema } from "../../../contracts/common";
import { moveSchema, templateStatusSchema, templateTypeSchema, type Level, type Template } from "../../../contracts/templates";
import { ONLY_DRAFT_DELETED_MESSAGE, TEMPLATE_STATUS_MOVES } from "../../../contracts/values/templates";
import { formatTimestamp } from "~/components/dictionary/column-format";
import { FormErrors, SelectField, TextareaField, TextField } from "~/components/forms/fields";
import { RefusalAlert } from "~/components/forms/refusal-alert";
import { StatusButton } from "~/components/forms/status-button";
import { useIntentPending } from "~/components/projects/use-intent-pending";
import { ConfirmCard, useConfirmParam } from "~/components/forms/confirm-card";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { deleteDraftMasterTemplate } from "~/lib/api/templates.server";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { callerOf } from "~/lib/guards.server";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { redirectWithFlash } from "~/lib/flash.server";
import { getFormProps, useServerForm, type FormResult } from "~/lib/forms";
import { cn } from "~/lib/utils";
import { INCOMPLETE_REQUEST, invalid, parseFormData, readFormData, refusedByService, serviceFailure, unknownIntent } from "~/lib/forms.server";
import { templateTypesOf, useTemplatePaths } from "./paths";
import { requireTemplateWrite, templateOf, templateScope } from "./templates.server";
import type { Route } from "./+types/template-edit";

/**
 * A template's page: its details, its status, and its levels with their scripts in run order. Every
 * change is a form post (JavaScript only spares the reload) based on the template's version, so a
 * change made on a page someone else changed meanwhile is refused rather than applied blind.
 */

const detailsSchema = z.object({ version: versionSchema, name: nameSchema, description: descriptionSchema, type: templateTypeSchema });
const statusSchema = z.object({ version: versionSchema, status: templateStatusSchema });
const levelSchema = z.object({ version: versionSchema, name: nameSchema });
const levelTarget = z.object({ version: versionSchema, levelId: z.string().min(1) });
const scriptTarget = z.object({ version: versionSchema, scriptId: z.string().min(1) });
const versionOnly = z.object({ version: versionSchema });

export async function loader({ context }: Route.LoaderArgs) {
  const [{ template }, { access, paths }] = await Promise.all([templateOf(context), templateScope(context)]);
  // The details form's name: one stored with a tab or an invisible character (before names refused them) comes cleaned, with a note.
  return { template, name: nameToEdit(template.name), canWrite: access.canWrite, master: paths.owner.kind === "master" };
}

// After a refusal (409: the template changed meanwhile), its levels and the version the forms send are read again: the next try is applied.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

/** A refusal that is no field's: shown at the top of the page with its status. */
const refusal = (status: number, message: string) =>
  data({ errors: [message] as string[], form: null as string | null, result: null as FormResult | null }, { status });

export async function action({ request, context }: Route.ActionArgs) {
  const [{ paths, companyId }, { template, api }] = await Promise.all([requireTemplateWrite(context, (p) => p.list), templateOf(context)]);
  const here = companyHref(paths.edit(template.id), companyId);
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  /** Runs a write whose refusal (409, 400) belongs at the top of the page; done, back here (or to `to`). */
  const simple = async <S extends z.ZodType>(schema: S, write: (value: z.output<S>) => Promise<unknown>, done: string, to = here) => {
    const submission = parseFormData(formData, schema);
    if (submission.status !== "success") return refusal(400, INCOMPLETE_REQUEST);
    try {
      await write(submission.value as z.output<S>);
    } catch (err) {
      const failure = serviceFailure(err);
      if (failure && failure.status < 500) return refusal(failure.status, failure.body.errors[0] ?? "Refused.");
      throw err;
    }
    return redirectWithFlash(to, done);
  };
  /**
   * Runs a write from a form with fields: its refusal goes next to them. A form the page no longer shows (its level
   * deleted, the template archived, in another tab) has no fields to show it by: it is said at the top, as `simple`'s.
   */
  const withFields = async <S extends z.ZodType>(form: string, schema: S, write: (value: z.output<S>) => Promise<unknown>, done: string) => {
    if (!formsShown(template).includes(form)) return simple(schema, write, done);
    const submission = parseFormData(formData, schema);
    if (submission.status !== "success") return data({ ...invalid(submission).data, form, errors: [] as string[] }, { status: 400 });
    try {
      await write(submission.value as z.output<S>);
    } catch (err) {
      const refused = refusedByService(submission, err);
      return data({ ...refused.data, form, errors: [] as string[] }, refused.init ?? { status: 409 });
    }
    return redirectWithFlash(here, done);
  };

  switch (intent) {
    case "update":
      return withFields("details", detailsSchema, ({ version, ...details }) => api.update({ version, ...details }), "Template saved.");
    case "status":
      return simple(statusSchema, (v) => api.changeStatus(v), "Status changed.");
    case "add-level":
      return withFields("add-level", levelSchema, (v) => api.addLevel(v), "Level added.");
    case "rename-level": {
      const levelId = String(formData.get("levelId") ?? "");
      return withFields(levelFormId(levelId), levelSchema, (v) => api.renameLevel(levelId, v), "Level renamed.");
    }
    case "move-level":
      return simple(levelTarget.extend({ direction: moveSchema.shape.direction }), ({ levelId, ...v }) => api.moveLevel(levelId, v), "Level moved.");
    case "delete-level":
      return simple(levelTarget, ({ levelId, version }) => api.deleteLevel(levelId, version), "Level deleted.");
    case "move-script":
      return simple(scriptTarget.extend({ direction: moveSchema.shape.direction }), ({ scriptId, ...v }) => api.moveScript(scriptId, v), "Script moved.");
    case "delete-script":
      return simple(scriptTarget, ({ scriptId, version }) => api.deleteScript(scriptId, version), "Script deleted.");
    case "delete":
      // A Draft master template only, made by mistake (the data API says so again); a workspace's is removed from its list.
      if (paths.owner.kind !== "master") unknownIntent(intent);
      if (template.status !== "Draft") return refusal(409, ONLY_DRAFT_DELETED_MESSAGE);
      return simple(
        versionOnly,
        ({ version }) => deleteDraftMasterTemplate(callerOf(context), template.id, version),
        `Template ${template.name} deleted.`,
        companyHref(paths.list, companyId),
      );
    default:
      unknownIntent(intent);
  }
}

/** The forms with fields the page shows to a user who may write (the details, a level's rename, add a level): none for an archived template. */
const formsShown = (template: Template) =>
  template.status === "Archived" ? [] : ["details", "add-level", ...template.levels.map((level) => levelFormId(level.id))];
const levelFormId = (levelId: string) => `level-${levelId}`;

type ActionData = { errors: string[]; form: string | null; result: FormResult | null } | undefined;
const resultFor = (actionData: ActionData, form: string) => (actionData?.form === form ? actionData.result : undefined);

export default function TemplateEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { template, canWrite, master } = loaderData;
  const href = useCompanyHref();
  const paths = useTemplatePaths();
  const editable = canWrite && template.status !== "Archived";
  const errors = (actionData as ActionData)?.errors ?? [];
  // What the area's templates are assigned to: a migration's projects, onboarding's configurations, translations' mapping projects.
  const assignees = useWorkspacePaths().ws.nounPlural;
  return (
    <div className="flex flex-col gap-6">
      {errors.length ? <RefusalAlert refusal={errors}>{errors.join(" ")}</RefusalAlert> : null}
      {template.status === "Archived" ? (
        <p className="text-sm text-muted-foreground">This template is archived: it is read-only and can no longer be assigned to {assignees}.</p>
      ) : null}
      {canWrite && master ? <StatusForm template={template} assignees={assignees} /> : null}
      {template.masterTemplateId ? (
        <p className="text-sm">
          Copied from a master template (version {template.masterVersion}).{" "}
          <Link to={href(paths.compareMaster(template.id))} className="font-medium text-brand underline underline-offset-2">
            Compare with master
          </Link>
        </p>
      ) : null}
      {editable ? (
        <DetailsForm template={template} name={loaderData.name} lastResult={resultFor(actionData as ActionData, "details")} />
      ) : (
        <DetailsView template={template} />
      )}
      <LevelsSection template={template} editable={editable} actionData={actionData as ActionData} />
      {canWrite && master && template.status === "Draft" ? <DeleteDraft template={template} assignees={assignees} /> : null}
    </div>
  );
}

function StatusForm({ template, assignees }: { template: Template; assignees: string }) {
  const moves = TEMPLATE_STATUS_MOVES[template.status];
  if (!moves.length) return null;
  return (
    <Form method="post" className="flex flex-wrap items-center gap-2" aria-label="Template status">
      <input type="hidden" name="intent" value="status" />
      <input type="hidden" name="version" value={template.version} />
      {moves.map((m) => (
        <Button key={m.to} type="submit" name="status" value={m.to} variant="outline">
          {m.label}
        </Button>
      ))}{" "}
      <span className="text-sm text-muted-foreground">{template.status === "Draft" ? `Only Available templates can be assigned to ${assignees}.` : null}</span>
    </Form>
  );
}

/** A Draft made by mistake: deleted after a confirmation (`?delete={templateId}`, a link away, so one click never deletes). */
function DeleteDraft({ template, assignees }: { template: Template; assignees: string }) {
  const confirm = useConfirmParam("delete");
  if (confirm.value === template.id)
    return (
      <ConfirmCard
        id="delete-template"
        title={`Delete template ${template.name}?`}
        intent="delete"
        fields={{ version: template.version }}
        submitLabel="Delete template"
        cancelHref={confirm.cancelHref}
      >
        Its levels and scripts, with their versions, are deleted with it; this cannot be undone. It was never made available, so no {assignees} have a copy of
        it.
      </ConfirmCard>
    );
  return (
    <Card className="max-w-3xl">
      <h2 className="text-base font-semibold">Delete this template</h2>
      <p className="mt-1 text-sm text-muted-foreground">A Draft was never made available, so nothing uses it. Once available, it can only be archived.</p>
      <Link to={confirm.openHref(template.id)} className={cn(buttonVariants({ variant: "outline" }), "mt-3")}>
        Delete template
      </Link>
    </Card>
  );
}

function DetailsView({ template }: { template: Template }) {
  return (
    <Card className="max-w-3xl">
      <h2 className="text-base font-semibold">Details</h2>
      <p className="mt-2 text-sm">{template.description || "No description."}</p>
    </Card>
  );
}

function DetailsForm({
  template,
  name,
  lastResult,
}: {
  template: Template;
  name: { name: string; note: string | null };
  lastResult: FormResult | null | undefined;
}) {
  const pending = useIntentPending("update");
  // The owner's types, and the template's own if it is not one of them (made before the owner's rule): shown as it is.
  const owned = templateTypesOf(useTemplatePaths().owner);
  const types = owned.includes(template.type) ? owned : [...owned, template.type];
  const [form, fields] = useServerForm({
    id: "template-details",
    lastResult,
    required: ["name", "type"],
    defaultValue: { name: name.name, description: template.description ?? "", type: template.type, version: template.version },
  });
  return (
    <Card className="max-w-3xl">
      <h2 className="text-base font-semibold">Details</h2>
      <Form method="post" {...getFormProps(form)} className="mt-4 flex flex-col gap-4">
        <input type="hidden" name="intent" value="update" />
        <input type="hidden" name="version" value={template.version} />
        <FormErrors form={form} />
        <TextField label="Name" field={fields.name!} description={name.note} />
        <TextareaField label="Description" field={fields.description!} />
        <SelectField label="Type" field={fields.type!} options={types.map((t) => ({ value: t, label: t }))} />
        <div>
          <StatusButton type="submit" pending={pending}>
            Save details
          </StatusButton>
        </div>
      </Form>
    </Card>
  );
}

function LevelsSection({ template, editable, actionData }: { template: Template; editable: boolean; actionData: ActionData }) {
  const pending = useIntentPending("add-level");
  const [form, fields] = useServerForm({ id: "add-level", lastResult: resultFor(actionData, "add-level"), required: ["name"] });
  return (
    <section aria-labelledby="levels-title" className="flex flex-col gap-4">
      <h2 id="levels-title" className="text-lg font-semibold">
        Levels and scripts
      </h2>
      <p className="text-sm text-muted-foreground">A run executes the levels in this order, and each level's scripts in theirs.</p>
      {template.levels.length === 0 ? <p className="text-sm">No levels yet. Add the first level, then its scripts.</p> : null}
      {template.levels.map((level, i) => (
        <LevelCard
          key={level.id}
          template={template}
          level={level}
          first={i === 0}
          last={i === template.levels.length - 1}
          editable={editable}
          actionData={actionData}
        />
      ))}
      {editable ? (
        <Card className="max-w-3xl">
          <Form method="post" {...getFormProps(form)} className="flex flex-wrap items-end gap-3">
            <input type="hidden" name="intent" value="add-level" />
            <input type="hidden" name="version" value={template.version} />
            <FormErrors form={form} />
            <TextField label="New level name" field={fields.name!} className="min-w-0 grow basis-64" />
            <StatusButton type="submit" pending={pending}>
              Add level
            </StatusButton>
          </Form>
        </Card>
      ) : null}
    </section>
  );
}

function MoveButtons({
  intent,
  idName,
  id,
  version,
  first,
  last,
  label,
}: {
  intent: string;
  idName: string;
  id: string;
  version: number;
  first: boolean;
  last: boolean;
  label: string;
}) {
  return (
    <Form method="post" className="inline-flex gap-1">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name={idName} value={id} />
      <input type="hidden" name="version" value={version} />
      <Button type="submit" name="direction" value="up" variant="outline" size="sm" disabled={first} aria-label={`Move ${label} up`}>
        <Icon name="arrow-up" />
      </Button>
      <Button type="submit" name="direction" value="down" variant="outline" size="sm" disabled={last} aria-label={`Move ${label} down`}>
        <Icon name="arrow-down" />
      </Button>
    </Form>
  );
}

function LevelCard({
  template,
  level,
  first,
  last,
  editable,
  actionData,
}: {
  template: Template;
  level: Level;
  first: boolean;
  last: boolean;
  editable: boolean;
  actionData: ActionData;
}) {
  const href = useCompanyHref();
  const paths = useTemplatePaths();
  const formId = levelFormId(level.id);
  const [form, fields] = useServerForm({
    id: `rename-${formId}`,
    lastResult: resultFor(actionData, formId),
    required: ["name"],
    defaultValue: { name: level.name },
  });
  return (
    <Card aria-labelledby={`${formId}-title`}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id={`${formId}-title`} className="text-base font-semibold">
          Level {level.order}: {level.name}
        </h3>
        {editable ? (
          <div className="flex flex-wrap items-center gap-2">
            <MoveButtons
              intent="move-level"
              idName="levelId"
              id={level.id}
              version={template.version}
              first={first}
              last={last}
              label={`level ${level.name}`}
            />
            <Link to={href(paths.scriptCreate(template.id, level.id))} className={buttonVariants({ size: "sm" })}>
              <Icon name="plus" />
              Add script<span className="sr-only"> to {level.name}</span>
            </Link>
            {level.scripts.length === 0 ? (
              <Form method="post">
                <input type="hidden" name="intent" value="delete-level" />
                <input type="hidden" name="levelId" value={level.id} />
                <input type="hidden" name="version" value={template.version} />
                <Button type="submit" variant="outline" size="sm">
                  Delete level<span className="sr-only"> {level.name}</span>
                </Button>
              </Form>
            ) : null}
          </div>
        ) : null}
      </div>
      {level.scripts.length === 0 ? (
        <p className="mt-3 text-sm text-muted-foreground">No scripts in this level yet.</p>
      ) : (
        <Table aria-label={`Scripts of ${level.name}`} className="mt-3">
          <TableHeader>
            <TableRow>
              <TableHead>#</TableHead>
              <TableHead>Script</TableHead>
              <TableHead className="text-right">Version</TableHead>
              <TableHead>Lock</TableHead>
              <TableHead>Last change</TableHead>
              {editable ? <TableHead>Order</TableHead> : null}
            </TableRow>
          </TableHeader>
          <TableBody>
            {level.scripts.map((s, j) => (
              <TableRow key={s.id}>
                <TableCell className="tabular-nums">{s.order}</TableCell>
                <TableCell className="font-medium">
                  <Link
                    to={href(editable ? paths.script(template.id, level.id, s.id) : paths.scriptView(template.id, level.id, s.id))}
                    className="text-brand hover:underline"
                  >
                    {s.name}
                  </Link>
                </TableCell>
                <TableCell className="text-right tabular-nums">{s.version}</TableCell>
                <TableCell>
                  {s.lockState === "Locked" ? `Locked by ${s.lockedByName ?? "someone"}` : s.lockState === "ForceUnlocked" ? "Force unlocked" : "Unlocked"}
                </TableCell>
                <TableCell className="whitespace-nowrap text-muted-foreground">
                  <time dateTime={s.updatedAt}>{formatTimestamp(s.updatedAt)}</time>
                  {s.updatedByName ? ` by ${s.updatedByName}` : null}
                </TableCell>
                {editable ? (
                  <TableCell>
                    <MoveButtons
                      intent="move-script"
                      idName="scriptId"
                      id={s.id}
                      version={template.version}
                      first={j === 0}
                      last={j === level.scripts.length - 1}
                      label={`script ${s.name}`}
                    />
                  </TableCell>
                ) : null}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {editable ? (
        <Form method="post" {...getFormProps(form)} className="mt-4 flex flex-wrap items-end gap-3">
          <input type="hidden" name="intent" value="rename-level" />
          <input type="hidden" name="levelId" value={level.id} />
          <input type="hidden" name="version" value={template.version} />
          <FormErrors form={form} />
          <TextField label={`Rename level ${level.name}`} field={fields.name!} className="min-w-0 basis-64" />
          <Button type="submit" variant="outline">
            Rename<span className="sr-only"> level {level.name}</span>
          </Button>
        </Form>
      ) : null}
    </Card>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
