import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { z } from "zod";
import { ON_ERROR_CHOICES, ON_ERROR_LABELS, RUN_START_STATUSES, RUN_TYPES } from "../../../contracts/values/runs";
import { whenFieldsPass } from "../../../contracts/common";
import { PROJECT_STATUS_LABELS } from "../../../contracts/values/projects";
import { CheckboxGroupField, FormErrors, RadioGroupField, RefusalAlert, SelectField } from "~/components/forms/fields";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { getFormProps, useServerForm, type FormResult } from "~/lib/forms";
import { readFormData, serviceFailure } from "~/lib/forms.server";
import { useTemplatePaths } from "./paths";
import { requireTemplateWrite, templateScope, workspaceOwnerOf, workspaceTemplates } from "./templates.server";
import { requireWorkspace } from "../workspace/workspace.server";
import type { Route } from "./+types/run";

/**
 * "Run" (…/templates/run): Full or Test; all templates, some templates, some levels or one script;
 * on error stop (default) or go on. A job: the page of the run follows it. A Full run's preflight
 * refuses scripts that do not parse or name tables that do not exist, each listed here.
 */
const SCOPES = [
  { value: "all", label: "All templates" },
  { value: "templates", label: "Chosen templates" },
  { value: "levels", label: "Chosen levels" },
  { value: "script", label: "One script" },
] as const;

const formSchema = z
  .object({
    type: z.enum(RUN_TYPES, { error: "Choose Full or Test" }),
    scope: z.enum(["all", "templates", "levels", "script"]).default("all"),
    templateIds: z.array(z.string()).default([]),
    levelIds: z.array(z.string()).default([]),
    scriptId: z.string().optional(),
    onError: z.enum(ON_ERROR_CHOICES).default("stop"),
  })
  .superRefine(
    (v, ctx) => {
      if (v.scope === "templates" && !v.templateIds.length) ctx.addIssue({ code: "custom", path: ["templateIds"], message: "Choose at least one template" });
      if (v.scope === "levels" && !v.levelIds.length) ctx.addIssue({ code: "custom", path: ["levelIds"], message: "Choose at least one level" });
      if (v.scope === "script" && !v.scriptId) ctx.addIssue({ code: "custom", path: ["scriptId"], message: "Choose the script" });
    },
    whenFieldsPass("scope", "templateIds", "levelIds", "scriptId"),
  );

/** The workspace's templates with their levels and scripts: what a run may be narrowed to. */
async function choices(context: Route.LoaderArgs["context"], request: Request) {
  const owner = workspaceOwnerOf(request);
  const { api } = await templateScope(context);
  const list = await workspaceTemplates(context, owner).list({ page: 1, pageSize: 100 });
  return Promise.all(list.items.map((t) => api(t.id).get()));
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireTemplateWrite(context, (p) => p.list);
  const [{ project, paths }, templates] = await Promise.all([requireWorkspace(context), choices(context, request)]);
  // A run starts only from these (the data API refuses the others): the page says why rather than offer a form that fails.
  const runnable = (RUN_START_STATUSES as readonly string[]).includes(project.status);
  return {
    notRunnable: runnable
      ? null
      : {
          noun: paths.ws.noun,
          status: PROJECT_STATUS_LABELS[project.status],
          setupStep: paths.setupIncomplete(project.status) ? paths.nextStep(project) : null,
        },
    templates: templates.map((t) => ({
      id: t.id,
      name: t.name,
      levels: t.levels.map((l) => ({ id: l.id, name: l.name, scripts: l.scripts.map((s) => ({ id: s.id, name: s.name })) })),
    })),
  };
}

type ActionData = { result?: FormResult; errors: string[] };

export async function action({ request, context }: Route.ActionArgs) {
  await requireTemplateWrite(context, (p) => p.list);
  const { project, api, paths, companyId } = await requireWorkspace(context, { write: true, unlocked: true });
  const submission = parseWithZod(await readFormData(request), { schema: formSchema });
  if (submission.status !== "success") return data<ActionData>({ result: submission.reply(), errors: [] }, { status: 400 });
  const v = submission.value;
  try {
    const { run } = await api.runs.start({
      type: v.type,
      onError: v.onError,
      templateIds: v.scope === "templates" ? v.templateIds : [],
      levelIds: v.scope === "levels" ? v.levelIds : [],
      scriptId: v.scope === "script" ? v.scriptId : null,
    });
    return redirectWithFlash(
      companyHref(paths.page(project.id, `templates/run-history/${run.id}/details`), companyId),
      `${v.type === "Test" ? "Test run" : "Run"} started.`,
    );
  } catch (err) {
    const failure = serviceFailure(err);
    if (!failure || failure.status >= 500) throw err;
    // A preflight's problems come one a line after its first.
    return data<ActionData>({ result: submission.reply(), errors: failure.body.errors }, { status: failure.status });
  }
}

export const handle = { breadcrumb: "Run" };

export default function RunTemplates({ loaderData, actionData }: Route.ComponentProps) {
  const { templates, notRunnable } = loaderData;
  const href = useCompanyHref();
  const paths = useTemplatePaths();
  const pending = useIsPending();
  const result = actionData as ActionData | undefined;
  const [form, fields] = useServerForm({
    id: "run",
    lastResult: result?.result,
    required: ["type"],
    defaultValue: { type: "Test", scope: "all", onError: "stop" },
  });
  const [first, ...more] = result?.errors ?? [];
  return (
    <Card className="max-w-3xl">
      <h2 className="text-lg font-semibold">Run the templates</h2>
      {first ? (
        <RefusalAlert refusal={result?.errors} className="mt-3">
          <p>{first}</p>
          {more.length ? (
            <ul aria-label="Problems" className="mt-2 list-disc pl-5">
              {more.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          ) : null}
        </RefusalAlert>
      ) : null}
      {notRunnable ? (
        <p className="mt-3 text-sm">
          A run starts once the {notRunnable.noun} is Active; it is &ldquo;{notRunnable.status}&rdquo;.{" "}
          {notRunnable.setupStep ? (
            <Link to={href(notRunnable.setupStep)} className="font-medium text-brand underline underline-offset-2">
              Finish its setup
            </Link>
          ) : null}
        </p>
      ) : templates.length === 0 ? (
        <p className="mt-3 text-sm">There are no templates to run yet: assign one first.</p>
      ) : (
        <Form method="post" {...getFormProps(form)} className="mt-4 flex flex-col gap-5">
          <FormErrors form={form} />
          <RadioGroupField
            label="Type"
            field={fields.type!}
            options={[
              { value: "Full", label: "Full", description: "Each script's changes are kept (each script in its own transaction)." },
              { value: "Test", label: "Test", description: "Everything is rolled back at the end: see what the run would change." },
            ]}
          />
          <RadioGroupField label="What to run" field={fields.scope!} options={SCOPES} />
          <CheckboxGroupField
            label="Templates"
            field={fields.templateIds!}
            options={templates.map((t) => ({ value: t.id, label: t.name }))}
            description="With Chosen templates."
          />
          <CheckboxGroupField
            label="Levels"
            field={fields.levelIds!}
            options={templates.flatMap((t) => t.levels.map((l) => ({ value: l.id, label: `${t.name}: ${l.name}` })))}
            description="With Chosen levels."
          />
          <SelectField
            label="Script"
            field={fields.scriptId!}
            placeholder="Choose a script"
            options={templates.flatMap((t) => t.levels.flatMap((l) => l.scripts.map((s) => ({ value: s.id, label: `${t.name}: ${l.name}: ${s.name}` }))))}
            description="With One script."
          />
          <RadioGroupField label="On error" field={fields.onError!} options={ON_ERROR_CHOICES.map((c) => ({ value: c, label: ON_ERROR_LABELS[c] }))} />
          <div className="flex flex-wrap gap-2">
            <StatusButton type="submit" pending={pending}>
              Start the run
            </StatusButton>{" "}
            <Link to={href(paths.list)} className={buttonVariants({ variant: "outline" })}>
              Back to the templates
            </Link>
          </div>
        </Form>
      )}
    </Card>
  );
}

export function meta() {
  return [{ title: "Run templates · Data Transformation" }];
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
