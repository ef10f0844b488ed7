import { Form, Link, redirect, type UIMatch } from "react-router";
import { createConfigurationSchema } from "../../../../contracts/configurations";
import { createMappingProjectSchema } from "../../../../contracts/mappings";
import { createProjectSchema } from "../../../../contracts/projects";
import { PROJECT_STATUS_LABELS, PROJECT_STATUSES, SOURCE_TYPES, SOURCE_TYPE_LABELS } from "../../../../contracts/values/projects";
import { nounInIds, type WorkspaceDescriptor, type WorkspaceKind } from "../../../../contracts/workspaces";
import { FormErrors, SelectField, TextareaField, TextField } from "~/components/forms/fields";
import { CheckboxGroupField } from "~/components/forms/choice-fields";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { formatCountOf, formatTimestamp } from "~/components/projects/format";
import { WizardSteps } from "~/components/projects/wizard-steps";
import { buttonVariants } from "~/components/ui/button";
import { cn } from "~/lib/utils";
import { Card, CardDescription } from "~/components/ui/card";
import { adminDataSources, checkDefaultConfiguration } from "~/lib/api/workspaces.server";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { getFormProps, useServerForm } from "~/lib/forms";
import { invalid, parseForm, refusedByService } from "~/lib/forms.server";
import { useWorkspacePaths, wizardTitle, workspaceOfPath, workspacePaths } from "~/lib/workspace-paths";
import { selectableApplications } from "~/lib/api/applications.server";
import { forSelectedCompany } from "~/lib/guards.server";
import { workspaceKind, workspaceKindScope } from "../workspace.server";
import type { Route } from "./+types/details";

/**
 * Wizard step 1 of every kind (DOMAIN.md; spec §2 "create", a mapping project's "create/new/basic-settings").
 * The company comes from the scope, not from the form. A project also chooses its source type (a
 * mapping project has none: its files are flat files); a configuration chooses at least one of the
 * company's schemes (its admin data sources), and the company's first configuration becomes its
 * default (a later one is made the default from its details page, which moves it).
 */
/**
 * The statuses of a workspace whose setup is not finished (paths.setupIncomplete, as the list's and the
 * workspace's own pages say it): this page lists the company's unfinished ones, so a user continues one
 * rather than starting again. Here rather than beside nextSetupStep in contracts/workspaces.ts: that
 * module is in every page's shell chunk, and the statuses' list would bring every project label with it.
 */
const unfinishedStatuses = (ws: WorkspaceDescriptor) => PROJECT_STATUSES.filter(workspacePaths(ws).setupIncomplete);

const SCHEMAS = {
  migration: createProjectSchema.omit({ companyId: true }),
  onboarding: createConfigurationSchema.omit({ companyId: true, isDefault: true }),
  translation: createMappingProjectSchema.omit({ companyId: true }),
} satisfies Record<WorkspaceKind, unknown>;

export async function loader({ context }: Route.LoaderArgs) {
  const { ws, api } = workspaceKind(context);
  const onboarding = ws.kind === "onboarding";
  const { value } = await forSelectedCompany(context, (as, companyId) =>
    Promise.all([
      // At most SELECT_LIMIT applications, by name (a searchable picker is the next step past that).
      selectableApplications(as, companyId),
      onboarding ? adminDataSources(as, companyId) : [],
      onboarding ? checkDefaultConfiguration(as, companyId) : null,
      // Browser Back from step 2 shows this page again, and a second submit would start a second
      // setup (a workspace cannot be deleted): the unfinished ones are offered to continue instead.
      // The smallest page the lists allow; the rest are one link away.
      api.search({ companyId, status: unfinishedStatuses(ws), page: 1, pageSize: 10, sort: "-updatedAt" }),
    ]),
  );
  // The form's own id (madeIdSchema): sent twice (a double click without JavaScript, a reload that resends it, Back and
  // submit), it makes one workspace and both sendings continue at its next step; the page read again gives a new one.
  const madeId = crypto.randomUUID();
  if (!value) return { madeId, applications: [], schemes: [], defaultConfiguration: null, unfinished: { items: [], total: 0 } };
  const [applications, schemes, defaults, unfinished] = value;
  return {
    madeId,
    applications: applications.map((a) => ({ value: a.id, label: a.name })),
    schemes: schemes.map((s) => ({ value: s.id, label: s.name })),
    defaultConfiguration: defaults?.defaultConfiguration ?? null,
    unfinished: {
      items: unfinished.items.map((w) => ({ id: w.id, name: w.name, status: w.status, updatedAt: w.updatedAt, canWrite: w.canWrite })),
      total: unfinished.total,
    },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { shell, api, paths, ws } = await workspaceKindScope(context);
  const { submission } = await parseForm(request, SCHEMAS[ws.kind]);
  if (submission.status !== "success") return invalid(submission);
  if (!shell.company) return invalid(submission);
  try {
    const created = await api.create({ ...submission.value, companyId: shell.company.id });
    return redirect(companyHref(paths.wizard(created.id, ws.dictionaryStep), shell.company.id));
  } catch (err) {
    return refusedByService(submission, err);
  }
}

export const handle = {
  breadcrumb: (match: UIMatch<unknown, unknown>) => `Create ${workspaceOfPath(match.pathname).noun}`,
  title: (_match: UIMatch<unknown, unknown>, pathname: string) => wizardTitle(pathname, "details", `Create ${workspaceOfPath(pathname).noun}`),
};

export default function CreateWorkspace({ loaderData, actionData }: Route.ComponentProps) {
  const href = useCompanyHref();
  const pending = useIsPending();
  const paths = useWorkspacePaths();
  const { ws } = paths;
  const onboarding = ws.kind === "onboarding";
  const mapping = ws.kind === "translation";
  const [form, fields] = useServerForm({
    id: `create-${nounInIds(ws)}`,
    lastResult: actionData?.result,
    required: mapping ? ["name", "applicationId"] : ["name", "applicationId", "sourceType"],
  });
  const { applications, schemes, defaultConfiguration } = loaderData;
  const missing = applications.length === 0 ? "applications" : onboarding && schemes.length === 0 ? "schemes" : null;

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" className="text-2xl font-semibold tracking-tight">
        Create {ws.noun}
      </h1>
      <WizardSteps current="details" />
      <UnfinishedSetups unfinished={loaderData.unfinished} />
      {missing ? (
        <Card className="mt-6 max-w-2xl">
          <h2 className="text-base font-semibold">{missing === "applications" ? "No applications yet" : "No schemes yet"}</h2>
          <CardDescription>
            {missing === "schemes"
              ? "A configuration serves at least one of the company's schemes, and the client portal lists none for this company yet."
              : onboarding
                ? "A configuration takes a client's data from an application, and no application is registered in this company yet. Register the application first."
                : mapping
                  ? "A mapping project translates the codes of files that come from an application, and no application is registered in this company yet. Register the application first."
                  : "A project migrates data from a legacy application, and no application is registered in this company yet. Register the application first."}
          </CardDescription>
          {missing === "applications" ? (
            <Link to={href("/migration/application/create")} className={cn(buttonVariants(), "mt-4")}>Create application</Link>
          ) : null}
        </Card>
      ) : (
        <Card className="mt-6 max-w-2xl">
          {onboarding ? (
            <p className="mb-4 text-sm" role="note">
              {defaultConfiguration
                ? `The company's default configuration is ${defaultConfiguration.name}. To make this one the default instead, mark it on its details page once it is created.`
                : "This will be the company's default configuration: it is the first one."}
            </p>
          ) : null}
          <Form method="post" {...getFormProps(form)} className="space-y-4">
            <FormErrors form={form} />
            <input type="hidden" name="id" value={loaderData.madeId} />
            <TextField label={onboarding ? "Configuration name" : mapping ? "Mapping project name" : "Project name"} field={fields.name!} autoComplete="off" />
            <SelectField
              label="Application"
              field={fields.applicationId!}
              options={applications}
              placeholder="Choose an application"
              description={mapping ? "The application the client's files come from." : undefined}
            />
            {mapping ? null : onboarding ? (
              <CheckboxGroupField
                label="Schemes"
                field={fields.schemeIds!}
                options={schemes}
                description="The schemes whose deliveries this configuration takes: at least one."
              />
            ) : (
              <SelectField
                label="Source type"
                field={fields.sourceType!}
                options={SOURCE_TYPES.map((t) => ({ value: t, label: SOURCE_TYPE_LABELS[t] }))}
                placeholder="Choose a source type"
                description="Backup: the legacy data arrives as a database backup. Flat file: as CSV, text, Stata or Excel files."
              />
            )}
            <TextareaField label="Description" field={fields.description!} />
            <div className="flex items-center gap-3">
              <StatusButton type="submit" pending={pending}>
                Save and continue
              </StatusButton>{" "}
              <Link to={href(paths.list)} className="text-sm text-brand hover:underline">
                Cancel
              </Link>
            </div>
          </Form>
        </Card>
      )}
    </section>
  );
}

/**
 * The company's workspaces of this kind whose setup is not finished: a writer's link resumes it at its step, a reader's
 * opens its Details (paths.resume), where the step would only have sent them back with "That needs write access".
 */
function UnfinishedSetups({ unfinished }: { unfinished: Route.ComponentProps["loaderData"]["unfinished"] }) {
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const { ws } = paths;
  if (unfinished.total === 0) return null;
  const one = unfinished.total === 1;
  return (
    <Card className="mt-6 max-w-2xl" aria-labelledby="unfinished-title">
      <h2 id="unfinished-title" className="text-base font-semibold">
        {`Unfinished ${ws.nounPlural}`}
      </h2>
      <CardDescription>
        {one
          ? `The setup of this ${ws.noun} is not finished. To go on with it, continue it rather than creating it again.`
          : `The setup of these ${ws.nounPlural} is not finished. To go on with one, continue it rather than creating it again.`}
      </CardDescription>
      <ul className="mt-3 divide-y divide-border text-sm">
        {unfinished.items.map((w) => {
          const link = paths.resume(w, w.canWrite);
          return (
            <li key={w.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2">
              <Link to={href(link.to)} className="font-medium text-brand hover:underline">
                {link.resumes ? `Continue ${w.name}` : `Open ${w.name} (read only)`}
              </Link>{" "}
              <span className="text-muted-foreground">
                {PROJECT_STATUS_LABELS[w.status]} · updated {formatTimestamp(w.updatedAt)}
              </span>
            </li>
          );
        })}
      </ul>
      {unfinished.total > unfinished.items.length ? (
        <Link to={href(paths.list, { status: unfinishedStatuses(ws) })} className="mt-2 inline-block text-sm text-brand hover:underline">
          {`All ${formatCountOf(unfinished.total, `unfinished ${ws.noun}`, `unfinished ${ws.nounPlural}`)}`}
        </Link>
      ) : null}
    </Card>
  );
}

