import type { SubmissionResult } from "@conform-to/react";
import { data, Form, Link } from "react-router";
import {
  revokeSqlCredentialSchema,
  rotateSqlCredentialQuerySchema,
  sqlCredentialFieldsSchema,
  lastExpiryDay,
  todayUtc,
  withUserOrService,
  type IssuedSqlCredential,
  type SqlCredentialStatus,
} from "../../../contracts/sql-access";
import { SQL_CREDENTIAL_CONNECTION_LIMIT, SQL_CREDENTIAL_STATUSES, SQL_LEVEL_LABELS } from "../../../contracts/values/sql-access";
import { ConfirmCard, useConfirmParam } from "~/components/forms/confirm-card";
import { FormErrors, SelectField, TextareaField, TextField } from "~/components/forms/fields";
import { RefusalAlert } from "~/components/forms/refusal-alert";
import { StatusButton } from "~/components/forms/status-button";
import { formatTimestamp } from "~/components/projects/format";
import { useIntentPending } from "~/components/projects/use-intent-pending";
import { Alert } from "~/components/ui/alert";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { ListSearchForm } from "~/components/ui/list-search-form";
import { EmptyList, PagedList } from "~/components/ui/list-page";
import { PeoplePagination, PeopleSearchForm } from "~/components/ui/people-search";
import { SelectFilter } from "~/components/ui/select-filter";
import { SortableHeader } from "~/components/ui/sortable-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import type { Caller } from "~/lib/api.server";
import { sqlAccessApi } from "~/lib/api/sql-access.server";
import { companyPeoplePage } from "~/lib/company-people.server";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { getFormProps, refusalMessages, useServerForm } from "~/lib/forms";
import { actedOnIdSchema, invalid, parseFormData, readFormData, refusalOf, refusedByService, serviceFailure, unknownIntent } from "~/lib/forms.server";
import { callerOf, forSelectedCompany, shellOf } from "~/lib/guards.server";
import { PAGING_KEYS, pagingParams, peopleSearchParams, type PeopleSearch } from "~/lib/list-search";
import { readPaging, readPeopleSearch } from "~/lib/list-search.server";
import type { Route } from "./+types/sql-credentials";

const PATH = "/additional-options/sql-credentials/users";
const SORTS = ["-createdAt", "createdAt", "name", "-name", "expiresOn", "-expiresOn"] as const;
type Sort = (typeof SORTS)[number];

/**
 * A row's Rotate posts when the password it shows was set, always (hidden): a post without it (forged or cut short) is
 * refused in words, not sent on as a rotation that checks nothing (the data API takes one without it from other clients).
 */
const rotateFormSchema = rotateSqlCredentialQuerySchema.pick({ passwordSetAt: true }).required();

/** The create form as it posts: the company comes from the page, not the form. */
const createFormSchema = withUserOrService(sqlCredentialFieldsSchema.omit({ companyId: true }));

function readSearch(url: URL) {
  const p = url.searchParams;
  const status = p.get("status");
  return {
    status: (SQL_CREDENTIAL_STATUSES as readonly string[]).includes(status ?? "") ? (status as SqlCredentialStatus) : undefined,
    ...readPaging<Sort>(p, SORTS, "-createdAt"),
  };
}

/** The list's filter, sort, page and page size as URL parameters, the defaults left out: its links, and a revocation's way back, keep them. */
function listParamsOf(search: ReturnType<typeof readSearch>) {
  return { status: search.status, sort: search.sort === "-createdAt" ? undefined : search.sort, ...pagingParams(PAGING_KEYS, search) };
}

/**
 * SQL credentials (issue 13): a company's PostgreSQL logins, created, rotated and revoked by SuperAdmin
 * and Support (the area layout's guard). A password is shown once, in the answer to the post that
 * made it (never in a redirect, a cookie or the list), with how to connect.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const search = readSearch(url);
  // The User select offers a page of the company's people, searched by the client portal in SQL
  // (`?name=&usersPage=&usersPageSize=`), never the whole company: it may have thousands.
  const peopleSearch = readPeopleSearch(url.searchParams);
  const revokeId = url.searchParams.get("revoke");
  const { shell, value } = await forSelectedCompany(context, (as, companyId) =>
    Promise.all([
      sqlAccessApi(as).credentials({ companyId, status: search.status, sort: search.sort, page: search.page, pageSize: search.pageSize }),
      // The names come from the client portal; without them a credential can still be made for a service.
      companyPeoplePage(as, companyId, peopleSearch),
      // The credential ?revoke= names, asked by its id: on whichever page of the list it is, whatever the list's filter.
      revokeId === null ? null : credentialOfCompany(as, companyId, revokeId),
    ]),
  );
  const [credentials, people, named] = value ?? [null, null, null];
  // The expiry input's min and max: the days the data API accepts (expiresOnSchema).
  const today = todayUtc();
  const expiry = { min: today, max: lastExpiryDay(today) };
  // The create form's id for the credential it makes: sent again (a reload of the password's page), it makes no second one.
  const madeId = crypto.randomUUID();
  const revokeMissing = credentials && revokeId !== null ? revocationMissing(named) : null;
  const page = { companyId: shell.company?.id ?? null, companyName: shell.company?.name ?? null, search, credentials, people, peopleSearch, expiry, madeId };
  // A ?revoke= naming no credential of the company (an unknown id, another company's): said, a 404, nothing told of that id.
  const answer = { ...page, revoking: revokeMissing ? null : named, revokeMissing: revokeMissing?.message ?? null };
  return revokeMissing?.status === 404 ? data(answer, { status: 404 }) : answer;
}

/** The company's credential of that id, or null when it has none (unknown, another company's: the data API's 404). */
async function credentialOfCompany(as: Caller, companyId: string, id: string) {
  if (!id) return null;
  try {
    return (await sqlAccessApi(as).credential(id, companyId)).credential;
  } catch (err) {
    if (serviceFailure(err)?.status === 404) return null;
    throw err;
  }
}

/**
 * Why the page cannot ask to revoke the credential `?revoke=` names: it is revoked already (an old link, a tab left open),
 * or the company has none of that id (the same words and a 404 for any such id). Null when it can, on any page of the list.
 */
function revocationMissing(named: { login: string; status: SqlCredentialStatus } | null) {
  if (!named) return { status: 404, message: "This link names no SQL credential of this company: nothing was revoked." };
  if (named.status === "Revoked")
    return { status: 200, message: `Credential ${named.login} is revoked already, perhaps from another tab: there is nothing to revoke.` };
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const shell = await shellOf(context);
  const companyId = shell.company?.id;
  if (!companyId) throw data({ errors: ["Choose a company first."] }, { status: 400 });
  const api = sqlAccessApi(callerOf(context));
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  // The password is in this answer only: no cache may keep it.
  const once = { headers: { "Cache-Control": "no-store" } };
  // Each refusal says which form it belongs to: a row's Rotate and its Revoke post the same id.

  if (intent === "create") {
    const submission = parseFormData(formData, createFormSchema);
    if (submission.status !== "success") return refusalOf("create", invalid(submission));
    try {
      const issued = await api.create({ companyId, ...submission.value });
      return data({ issued, result: submission.reply({ resetForm: true }) }, once);
    } catch (err) {
      return refusalOf("create", refusedByService(submission, err));
    }
  }

  if (intent === "rotate") {
    const submission = parseFormData(formData, actedOnIdSchema.and(rotateFormSchema));
    if (submission.status !== "success") return refusalOf("rotate", invalid(submission, [/^passwordSetAt$/]));
    try {
      // Based on the password the page showed: a rotation made since (another tab, another admin) is said, not undone.
      return data({ issued: await api.rotate(submission.value.id, companyId, submission.value.passwordSetAt), result: undefined }, once);
    } catch (err) {
      return refusalOf("rotate", refusedByService(submission, err));
    }
  }

  if (intent === "revoke") {
    const submission = parseFormData(formData, actedOnIdSchema.and(revokeSqlCredentialSchema));
    if (submission.status !== "success") return refusalOf("revoke", invalid(submission));
    try {
      const { credential } = await api.revoke(submission.value.id, companyId, submission.value.reason);
      // Back to the list as it was (its filter, sort and page, and the User select's search), without the confirmation.
      const url = new URL(request.url);
      const back = companyHref(PATH, companyId, { ...peopleSearchParams(readPeopleSearch(url.searchParams)), ...listParamsOf(readSearch(url)) });
      return redirectWithFlash(back, `Credential ${credential.login} revoked: it can no longer connect.`);
    } catch (err) {
      return refusalOf("revoke", refusedByService(submission, err));
    }
  }

  return unknownIntent(intent);
}

// After a refusal because a credential changed meanwhile (409: revoked), show the list as it is now.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

export const handle = { breadcrumb: "SQL Credentials" };

type LoaderData = Route.ComponentProps["loaderData"];
type Credential = NonNullable<LoaderData["credentials"]>["items"][number];

export default function SqlCredentials({ loaderData, actionData }: Route.ComponentProps) {
  const { companyId, companyName, search, credentials, people, peopleSearch, expiry, madeId, revoking, revokeMissing } = loaderData;
  const href = useCompanyHref();
  const issued = actionData && "issued" in actionData ? (actionData.issued as IssuedSqlCredential) : undefined;
  // The refusal of one form: the create form's, a row's rotation's or the revocation's.
  const refused = actionData && "form" in actionData ? actionData : undefined;
  const resultOf = (form: "create" | "rotate" | "revoke") => (refused?.form === form ? (refused.result as SubmissionResult<string[]>) : undefined);
  // ?revoke={credentialId}: the revocation's confirmation, a link away, so one click never revokes (revoking: the loader's).
  const confirm = useConfirmParam("revoke");
  // A refused revocation or rotation whose form is gone from the page (the credential revoked in another tab, or
  // not on this page of the list) is said at the top: its confirmation or its row would have said it.
  const revokeRefusal = revoking ? undefined : resultOf("revoke");
  const rotateRefusal = credentials?.items.some((c) => c.id === resultOf("rotate")?.initialValue?.id) ? undefined : resultOf("rotate");
  const unplaced = refusalMessages(revokeRefusal ?? rotateRefusal);
  // The list and the User select's people page through the URL side by side: each keeps the other where it is.
  const listParams = listParamsOf(search);
  const listHref = (extra: Record<string, string | number | undefined>) =>
    href(PATH, { ...peopleSearchParams(peopleSearch), status: search.status, sort: listParams.sort, pageSize: search.pageSize, ...extra });

  return (
    <section aria-labelledby="page-title" className="flex flex-col gap-6">
      <div>
        <h1 id="page-title" className="text-2xl font-semibold tracking-tight">
          SQL Credentials
        </h1>
        <p className="mt-1 max-w-3xl text-sm text-muted-foreground">
          A SQL credential is a PostgreSQL login for one person or service of {companyName ?? "the company"}, for their own SQL tools (DBeaver, psql, Excel,
          Power BI). It reaches no database until a project or configuration grants it Read or Write on its SQL permissions page. Its password is shown once; at
          most {SQL_CREDENTIAL_CONNECTION_LIMIT} sessions at a time; the server refuses it after its expiry date.
        </p>
      </div>

      {issued ? <IssuedPassword issued={issued} /> : null}
      {unplaced.length ? (
        <RefusalAlert refusal={revokeRefusal ?? rotateRefusal}>{unplaced.join(" ")}</RefusalAlert>
      ) : revokeMissing ? (
        <RefusalAlert refusal={revokeMissing}>{revokeMissing}</RefusalAlert>
      ) : null}
      {revoking ? <RevokeConfirmation credential={revoking} cancelHref={confirm.cancelHref} lastResult={resultOf("revoke")} /> : null}

      {!companyId || !credentials ? (
        <Alert>Choose a company to see its SQL credentials.</Alert>
      ) : (
        <>
          <ListSearchForm
            action={PATH}
            label="Filter SQL credentials"
            sort={search.sort}
            defaultSort="-createdAt"
            pageSize={search.pageSize}
            pageSizeId="credential-page-size"
            keep={peopleSearchParams(peopleSearch)}
            filtered={Boolean(search.status)}
          >
            <div className="mt-4 max-w-xs">
              <SelectFilter
                id="credential-status"
                label="Status"
                name="status"
                value={search.status ?? ""}
                options={[["", "Any status"], ...SQL_CREDENTIAL_STATUSES.map((s) => [s, s] as const)]}
                className="w-full shadow-xs"
              />
            </div>
          </ListSearchForm>
          <PagedList
            list={credentials}
            empty={
              <EmptyList title={search.status ? "No matching credentials" : "No SQL credentials yet"}>
                {search.status ? "No credential has this status." : "Create one below."}
              </EmptyList>
            }
            noun={["credential", "credentials"]}
            href={(page) => listHref({ page })}
          >
            <Table aria-label="SQL credentials">
              <TableHeader>
                <TableRow>
                  <SortableHeader<Sort> label="Who" column="name" sort={search.sort} to={(sort) => listHref({ sort })} className="px-3 text-left" />
                  <TableHead>Login name</TableHead>
                  <SortableHeader<Sort> label="Created" column="createdAt" sort={search.sort} to={(sort) => listHref({ sort })} className="px-3 text-left" />
                  <SortableHeader<Sort> label="Expires" column="expiresOn" sort={search.sort} to={(sort) => listHref({ sort })} className="px-3 text-left" />
                  <TableHead>Last used</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Databases</TableHead>
                  <TableHead>
                    <span className="sr-only">Actions</span>
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {credentials.items.map((c) => (
                  <CredentialRow key={c.id} credential={c} revokeHref={confirm.openHref(c.id)} lastResult={resultOf("rotate")} />
                ))}
              </TableBody>
            </Table>
          </PagedList>
          <CreateForm people={people} peopleSearch={peopleSearch} keep={listParams} expiry={expiry} madeId={madeId} lastResult={resultOf("create")} />
        </>
      )}
    </section>
  );
}

function CredentialRow({ credential: c, revokeHref, lastResult }: { credential: Credential; revokeHref: string; lastResult?: SubmissionResult<string[]> }) {
  const pending = useIntentPending("rotate", { id: c.id });
  const [form] = useServerForm({ id: `rotate-${c.id}`, lastResult: lastResult?.initialValue?.id === c.id ? lastResult : undefined });
  return (
    <TableRow>
      <TableCell>
        <p className="font-medium">{c.name}</p>
        <p className="text-xs text-muted-foreground">{c.userId ? "User" : "Service"}</p>
        {c.note ? <p className="text-xs text-muted-foreground">{c.note}</p> : null}
      </TableCell>
      <TableCell>
        <code className="text-xs">{c.login}</code>
      </TableCell>
      <TableCell className="whitespace-nowrap">{formatTimestamp(c.createdAt)}</TableCell>
      <TableCell className="whitespace-nowrap">{c.expiresOn}</TableCell>
      <TableCell className="whitespace-nowrap">{c.lastUsedAt ? formatTimestamp(c.lastUsedAt) : "Never seen"}</TableCell>
      <TableCell>{c.status}</TableCell>
      <TableCell>
        {c.databases.length === 0 ? (
          <span className="text-muted-foreground">None</span>
        ) : (
          <ul className="text-xs">
            {c.databases.map((d) => (
              <li key={d.workspaceId}>
                {d.workspaceName}: {SQL_LEVEL_LABELS[d.level]}
              </li>
            ))}
          </ul>
        )}
      </TableCell>
      <TableCell>
        {c.status === "Revoked" ? (
          // A rotation refused because the credential was revoked meanwhile says so here, where the button was.
          <FormErrors form={form} />
        ) : (
          <div className="flex flex-wrap items-center gap-2">
            <Form method="post" {...getFormProps(form)}>
              <input type="hidden" name="id" value={c.id} />
              <input type="hidden" name="passwordSetAt" value={c.passwordSetAt} />
              <FormErrors form={form} />
              <StatusButton
                type="submit"
                name="intent"
                value="rotate"
                size="sm"
                variant="outline"
                pending={pending}
                aria-label={`Rotate password of ${c.login}`}
              >
                Rotate password
              </StatusButton>
            </Form>
            <Link to={revokeHref} className={buttonVariants({ size: "sm", variant: "ghost" })} aria-label={`Revoke ${c.login}`}>
              Revoke
            </Link>
          </div>
        )}
      </TableCell>
    </TableRow>
  );
}

/** The only time a password is shown: with the host, port and a URI per database it reaches now. */
function IssuedPassword({ issued }: { issued: IssuedSqlCredential }) {
  const { credential, password, connection } = issued;
  const template = `postgresql://${connection.user}:${password}@${connection.host}:${connection.port}/<database>${connection.sslmode ? `?sslmode=${connection.sslmode}` : ""}`;
  return (
    <Card aria-labelledby="issued-title" tone="success">
      <h2 id="issued-title" className="text-lg font-semibold">
        Password of {credential.login}
      </h2>
      <p className="mt-1 text-sm">Copy it now: it is not shown again. Rotate the password to get a new one.</p>
      <dl className="mt-4 label-values max-w-3xl gap-x-4 gap-y-2 text-sm">
        <dt className="text-muted-foreground">Password</dt>
        <dd>
          <code data-testid="issued-password" className="rounded bg-white px-2 py-1 font-mono">
            {password}
          </code>
        </dd>
        <dt className="text-muted-foreground">User</dt>
        <dd>
          <code>{connection.user}</code>
        </dd>
        <dt className="text-muted-foreground">Host</dt>
        <dd>
          <code>{connection.host}</code>
        </dd>
        <dt className="text-muted-foreground">Port</dt>
        <dd>
          <code>{connection.port}</code>
        </dd>
        {connection.sslmode ? (
          <>
            <dt className="text-muted-foreground">sslmode</dt>
            <dd>
              <code>{connection.sslmode}</code>
            </dd>
          </>
        ) : null}
      </dl>
      {connection.uris.length === 0 ? (
        <p className="mt-4 text-sm">
          It reaches no database yet: grant it Read or Write on a project&apos;s or configuration&apos;s SQL permissions page, then connect with{" "}
          <code className="break-all">{template}</code>.
        </p>
      ) : (
        <div className="mt-4">
          <h3 className="text-sm font-medium">Connection URIs</h3>
          <ul className="mt-1 space-y-1 text-sm" aria-label="Connection URIs">
            {connection.uris.map((u) => (
              <li key={u.database}>
                {u.workspaceName}: <code className="break-all">{u.uri}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Card>
  );
}

function RevokeConfirmation({ credential, cancelHref, lastResult }: { credential: Credential; cancelHref: string; lastResult?: SubmissionResult<string[]> }) {
  return (
    <ConfirmCard
      id="revoke"
      title={`Revoke ${credential.login}?`}
      intent="revoke"
      fields={{ id: credential.id }}
      inputs={(fields) => <TextareaField label="Reason" field={fields.reason!} description="Kept in the audit log." />}
      submitLabel="Revoke credential"
      cancelHref={cancelHref}
      lastResult={lastResult}
    >
      {credential.name} can no longer connect, from now on: open sessions are ended. This cannot be undone; create a new credential instead.
    </ConfirmCard>
  );
}

type CreateProps = {
  people: LoaderData["people"];
  peopleSearch: PeopleSearch;
  /** The credentials list's parameters, which finding a user keeps. */
  keep: Record<string, string | number | undefined>;
  expiry: LoaderData["expiry"];
  madeId: string;
  lastResult?: SubmissionResult<string[]>;
};

/** The User select offers a page of the company's people, found through the URL (a GET form and links) above the form. */
function CreateForm({ people, peopleSearch, keep, expiry, madeId, lastResult }: CreateProps) {
  const pending = useIntentPending("create");
  const [form, fields] = useServerForm({
    id: "create-credential",
    lastResult,
    required: ["expiresOn"],
  });
  return (
    <Card aria-labelledby="create-title">
      <h2 id="create-title" className="text-lg font-semibold">
        Create credential
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">For a user of the company, or a named service (a reporting gateway, an ETL job): one or the other.</p>
      {people ? (
        <>
          <PeopleSearchForm action={PATH} search={peopleSearch} keep={keep} id="credential-users" className="mt-4" />
          {people.total > 0 ? <PeoplePagination here={PATH} search={peopleSearch} total={people.total} keep={keep} /> : null}
        </>
      ) : null}
      <Form method="post" {...getFormProps(form)} aria-labelledby="create-title" className="mt-4 grid max-w-3xl gap-4 sm:grid-cols-2">
        <FormErrors form={form} />
        <input type="hidden" name="id" value={madeId} />
        <SelectField
          label="User"
          field={fields.userId!}
          placeholder="None: a named service"
          options={(people?.items ?? []).map((u) => ({ value: u.id, label: `${u.name} (${u.email})` }))}
          description={peopleNote(people, peopleSearch)}
        />
        <TextField label="Service name" field={fields.serviceName!} />
        <TextField label="Expiry date" type="date" field={fields.expiresOn!} min={expiry.min} max={expiry.max} />
        <TextField label="Note" field={fields.note!} />
        <div className="sm:col-span-2">
          <StatusButton type="submit" name="intent" value="create" pending={pending}>
            Create credential
          </StatusButton>
        </div>
      </Form>
    </Card>
  );
}

/** Under the User select: why it offers nobody, or that it offers one page of the people found. */
function peopleNote(people: LoaderData["people"], search: PeopleSearch): string | undefined {
  if (!people) return "The company's users could not be loaded: name a service instead, or try again.";
  if (people.total === 0) return search.name ? "No user of this company has a name or e-mail containing this search." : "This company has no users.";
  if (people.items.length === 0) return "There is nobody on this page of users. Go back with Previous.";
  if (people.total > people.items.length)
    return `Offers ${people.items.length} of the ${people.total} users found: search with Find users above, or see their other pages.`;
  return undefined;
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
