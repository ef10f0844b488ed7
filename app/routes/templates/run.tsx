import { Fragment } from "react";
import { data, Link, redirect, useLocation } from "react-router";
import { z } from "zod";
import { MAX_RUN_CHOICES, ON_ERROR_CHOICES, ON_ERROR_LABELS, RUN_START_STATUSES, RUN_TYPES, type OnError, type RunType } from "../../../contracts/values/runs";
import { choiceOf, whenFieldsPass } from "../../../contracts/common";
import { PROJECT_STATUS_LABELS } from "../../../contracts/values/projects";
import type { ChosenScript } from "../../../contracts/templates";
import { FormErrors, SelectField } from "~/components/forms/fields";
import { CheckboxGroupField, RadioGroupField } from "~/components/forms/choice-fields";
import { RefusalAlert } from "~/components/forms/refusal-alert";
import { useIntentPending } from "~/components/projects/use-intent-pending";
import { namedTicks, TickedTemplates, TicksForm, TicksPostButton } from "~/components/templates/ticked-templates";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { PastTheEnd } from "~/components/ui/pagination";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { useServerForm, type FormResult } from "~/lib/forms";
import type { ListPaging } from "~/lib/list-search";
import { parseFormData, readFormData, serviceFailure, unknownIntent } from "~/lib/forms.server";
import { useTemplatePaths } from "./paths";
import { cappedTicks, readTickedSearch, requireTemplateWrite, ticksNavigation, workspaceOwnerOf, workspaceTemplates } from "./templates.server";
import { requireWorkspace } from "../workspace/workspace.server";
import type { Route } from "./+types/run";

/**
 * "Run" (…/templates/run): Full or Test; all templates, some templates, some levels or one script;
 * on error stop (default) or go on. A job: the page of the run follows it. A Full run's preflight
 * refuses scripts that do not parse or name tables that do not exist, each listed here.
 *
 * The templates to choose from (with their levels and scripts) come a page at a time, found by name, as
 * "Assign templates" offers its (TickedTemplates): every field of the page belongs to the one form, whose
 * paging and searching post the ticks, the type, what to run, the script and on error here, to be redirected to
 * the next URL carrying them (ticksNavigation: at most 100 templates and 100 levels, or refused at the top), and
 * the ticks of other pages travel as hidden fields until "Start the run" (intent "start") posts them all.
 */

/** The one form of the page: its search, fields, page buttons and "Start the run" submit it, each from its place. */
const FORM_ID = "run";

const SCOPES = [
  { value: "all", label: "All templates" },
  { value: "templates", label: "Chosen templates" },
  { value: "levels", label: "Chosen levels" },
  { value: "script", label: "One script" },
] as const;

type Scope = (typeof SCOPES)[number]["value"];
const SCOPE_VALUES = SCOPES.map((s) => s.value) as [Scope, ...Scope[]];

const fieldsSchema = z.object({
  type: z.enum(RUN_TYPES, { error: "Choose Full or Test" }),
  scope: choiceOf(SCOPE_VALUES, "Choose what to run", "all"),
  templateIds: z.array(z.string()).default([]),
  levelIds: z.array(z.string()).default([]),
  scriptId: z.string().optional(),
  onError: choiceOf(ON_ERROR_CHOICES, "Choose what happens on an error", "stop"),
});

/** The ticks a page carries to the next, at most MAX_RUN_CHOICES of each (ticksNavigation), and its other fields. */
const TICKS = [
  { name: "templateIds", max: MAX_RUN_CHOICES, noun: "templates" },
  { name: "levelIds", max: MAX_RUN_CHOICES, noun: "levels" },
];
const KEPT = ["type", "scope", "scriptId", "onError"];

const formSchema = fieldsSchema.superRefine(
  (v, ctx) => {
    if (v.scope === "templates" && !v.templateIds.length) ctx.addIssue({ code: "custom", path: ["templateIds"], message: "Choose at least one template" });
    if (v.scope === "levels" && !v.levelIds.length) ctx.addIssue({ code: "custom", path: ["levelIds"], message: "Choose at least one level" });
    // The ticks of this page come on top of the others' (at most MAX_RUN_CHOICES, as the loader carries them).
    if (v.scope === "templates" && new Set(v.templateIds).size > MAX_RUN_CHOICES)
      ctx.addIssue({ code: "custom", path: ["templateIds"], message: `Choose at most ${MAX_RUN_CHOICES} templates: untick some.` });
    if (v.scope === "levels" && new Set(v.levelIds).size > MAX_RUN_CHOICES)
      ctx.addIssue({ code: "custom", path: ["levelIds"], message: `Choose at most ${MAX_RUN_CHOICES} levels: untick some.` });
    if (v.scope === "script" && !v.scriptId) ctx.addIssue({ code: "custom", path: ["scriptId"], message: "Choose the script" });
  },
  whenFieldsPass("scope", "templateIds", "levelIds", "scriptId"),
);

/**
 * What the page was asked for (?type=&scope=&templateIds=&levelIds=&scriptId=&onError=, with the templates'
 * search and page): what the user chose, carried from page to page. A value the form does not offer falls
 * back to the form's default; ids are the data API's to check when the run starts. At most MAX_RUN_CHOICES
 * templates and as many levels go on (`dropped` says which were cut), so that the URL stays short enough to read.
 */
type RunSearch = ListPaging<"name"> & {
  name: string;
  type: RunType;
  scope: Scope;
  templateIds: string[];
  levelIds: string[];
  scriptId: string | null;
  onError: OnError;
  dropped: { templateIds: boolean; levelIds: boolean };
};

function readRunSearch(url: URL): RunSearch {
  const params = url.searchParams;
  const oneOf = <T extends string>(key: string, values: readonly T[], fallback: T): T => {
    const value = params.get(key);
    return values.includes(value as T) ? (value as T) : fallback;
  };
  const templates = cappedTicks(params.getAll("templateIds"), MAX_RUN_CHOICES);
  const levels = cappedTicks(params.getAll("levelIds"), MAX_RUN_CHOICES);
  return {
    ...readTickedSearch(url),
    type: oneOf("type", RUN_TYPES, "Test"),
    scope: oneOf("scope", SCOPE_VALUES, "all"),
    templateIds: templates.ids,
    levelIds: levels.ids,
    scriptId: params.get("scriptId") || null,
    onError: oneOf("onError", ON_ERROR_CHOICES, "stop"),
    dropped: { templateIds: templates.capped, levelIds: levels.capped },
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const owner = workspaceOwnerOf(request);
  await requireTemplateWrite(context, (p) => p.list);
  const search = readRunSearch(new URL(request.url));
  // The workspace's templates with their levels and scripts, a page at a time: one call, whatever their number.
  const [{ project, paths }, templates] = await Promise.all([
    requireWorkspace(context),
    // What was chosen is named too (the script, the templates and levels ticked), for a page that does not list it.
    workspaceTemplates(context, owner).runChoices({
      name: search.name || undefined,
      scriptId: search.scriptId ?? undefined,
      templateId: search.templateIds,
      levelId: search.levelIds,
      page: search.page,
      pageSize: search.pageSize,
    }),
  ]);
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
    search,
    templates,
  };
}

type ActionData = { result?: FormResult; errors: string[] };

export async function action({ request, context }: Route.ActionArgs) {
  await requireTemplateWrite(context, (p) => p.list);
  const { project, api, paths, companyId } = await requireWorkspace(context, { write: true, unlocked: true });
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  if (intent === null) {
    // Search, Clear search or a page button (ticksNavigation): refused, the page shows the fields as the user left them.
    const to = ticksNavigation(request, formData, { ticks: TICKS, keep: KEPT });
    if (to.to !== undefined) return redirect(to.to);
    return data<ActionData>({ result: parseFormData(formData, fieldsSchema).reply(), errors: [to.refusal] }, { status: 400 });
  }
  if (intent !== "start") unknownIntent(intent);
  const submission = parseFormData(formData, formSchema);
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
  const { templates, search, notRunnable } = loaderData;
  const href = useCompanyHref();
  const paths = useTemplatePaths();
  const pending = useIntentPending("start");
  // A new page or search starts the fields from the URL's choices (Back and Forward included); a refused post keeps the user's.
  const shown = useLocation().search;
  const result = actionData as ActionData | undefined;
  const [form, fields] = useServerForm({
    id: FORM_ID,
    lastResult: result?.result,
    required: ["type"],
    defaultValue: {
      type: search.type,
      scope: search.scope,
      templateIds: search.templateIds,
      levelIds: search.levelIds,
      scriptId: search.scriptId ?? undefined,
      onError: search.onError,
    },
  });
  const [first, ...more] = result?.errors ?? [];
  const levels = templates.items.flatMap((t) => t.levels.map((l) => ({ value: l.id, label: `${t.name}: ${l.name}` })));
  // Under a heading of their template and level: a page of templates may hold hundreds of scripts.
  const scripts = templates.items.flatMap((t) =>
    t.levels.flatMap((l) => l.scripts.map((s) => ({ value: s.id, label: s.name, group: `${t.name}: ${l.name}` }))),
  );
  // What was chosen on other pages: hidden fields of the form (a script, an option of its select), posted with this page's.
  const listedTemplates = new Set(templates.items.map((t) => t.id));
  const listedLevels = new Set(levels.map((l) => l.value));
  const templatesElsewhere = search.templateIds.filter((id) => !listedTemplates.has(id));
  const levelsElsewhere = search.levelIds.filter((id) => !listedLevels.has(id));
  const scriptElsewhere = search.scriptId && !scripts.some((s) => s.value === search.scriptId) ? search.scriptId : null;
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
      ) : templates.total === 0 && !search.name ? (
        <p className="mt-3 text-sm">There are no templates to run yet: assign one first.</p>
      ) : (
        // Each chooser shows with the choice of What to run it belongs to, by CSS (`:has` the radio checked), so that
        // it follows the radios without JavaScript too and a browser without `:has` shows them all: the radios' ids are
        // `${FORM_ID}-scope-${value}`, written out in each class for Tailwind to find.
        <TicksForm id={FORM_ID} className="group/run mt-4 flex flex-col gap-5">
          <FormErrors form={form} />
          <Fragment key={`type and scope ${shown}`}>
            <RadioGroupField
              label="Type"
              field={fields.type!}
              options={[
                { value: "Full", label: "Full", description: "Each script's changes are kept (each script in its own transaction)." },
                { value: "Test", label: "Test", description: "Everything is rolled back at the end: see what the run would change." },
              ]}
            />
            <RadioGroupField label="What to run" field={fields.scope!} options={SCOPES} />
          </Fragment>
          <div className="group-has-[#run-scope-all:checked]/run:hidden">
            <TickedTemplates
              formId={FORM_ID}
              label="Find templates to run"
              search={search}
              keep={{ templateIds: templatesElsewhere, levelIds: levelsElsewhere }}
              result={templates}
              pagesLabel="Pages of templates"
            >
              {templates.total === 0 ? (
                <p className="text-sm">{`No template's name contains “${search.name}”.`}</p>
              ) : templates.items.length === 0 ? (
                <PastTheEnd page={templates.page} />
              ) : null}
              <Fragment key={`choices ${shown}`}>
                <CheckboxGroupField
                  className="group-has-[#run-scope-templates:not(:checked)]/run:hidden"
                  label="Templates"
                  field={fields.templateIds!}
                  options={templates.items.map((t) => ({ value: t.id, label: t.name }))}
                  description={`With Chosen templates.${chosenElsewhere(templatesElsewhere, templates.chosenTemplates, "template", "templates")}${search.dropped.templateIds ? dropped("templates") : ""}`}
                />
                <CheckboxGroupField
                  className="group-has-[#run-scope-levels:not(:checked)]/run:hidden"
                  label="Levels"
                  field={fields.levelIds!}
                  options={levels}
                  description={`With Chosen levels.${chosenElsewhere(
                    levelsElsewhere,
                    templates.chosenLevels.map((l) => ({ id: l.id, name: `${l.templateName}: ${l.name}` })),
                    "level",
                    "levels",
                  )}${search.dropped.levelIds ? dropped("levels") : ""}`}
                />
                <SelectField
                  className="group-has-[#run-scope-script:not(:checked)]/run:hidden"
                  label="Script"
                  field={fields.scriptId!}
                  placeholder="Choose a script"
                  options={
                    scriptElsewhere ? [{ value: scriptElsewhere, label: chosenOnAnotherPage(scriptElsewhere, templates.chosenScript) }, ...scripts] : scripts
                  }
                  description="With One script."
                />
              </Fragment>
            </TickedTemplates>
          </div>
          <RadioGroupField
            key={`on error ${shown}`}
            label="On error"
            field={fields.onError!}
            options={ON_ERROR_CHOICES.map((c) => ({ value: c, label: ON_ERROR_LABELS[c] }))}
          />
          <div className="flex flex-wrap gap-2">
            <TicksPostButton form={FORM_ID} name="intent" value="start" pending={pending}>
              Start the run
            </TicksPostButton>{" "}
            <Link to={href(paths.list)} className={buttonVariants({ variant: "outline" })}>
              Back to the templates
            </Link>
          </div>
        </TicksForm>
      )}
    </Card>
  );
}

/** " 5 more templates chosen on other pages: “Alpha”, “Bravo”, “Charlie” and 2 more.": the ticks this page does not show, which the form keeps. */
function chosenElsewhere(ids: readonly string[], named: readonly { id: string; name: string }[], one: string, many: string): string {
  if (!ids.length) return "";
  const names = namedTicks(ids, named);
  return ` ${ids.length} more ${ids.length === 1 ? one : many} chosen on other pages${names ? `: ${names}` : ""}.`;
}

/** The option of the script chosen on another page: named as this page's are, when the data API found it. */
function chosenOnAnotherPage(id: string, chosen: ChosenScript | null): string {
  return chosen?.id === id ? `${chosen.templateName}: ${chosen.levelName}: ${chosen.name} (on another page)` : "The script chosen on another page";
}

/** " A run takes at most 100 templates: …": the ticks the loader did not carry on (readRunSearch). */
const dropped = (many: string) => ` A run takes at most ${MAX_RUN_CHOICES} ${many}: the ticks past the ${MAX_RUN_CHOICES}th were dropped.`;

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
