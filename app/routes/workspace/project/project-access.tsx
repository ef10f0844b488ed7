import { DEFAULT_PAGE_SIZE } from "../../../../contracts/values/common";
import type { SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { z } from "zod";
import { USER_IDS_AT_ONCE, type CompanyUser } from "../../../../contracts/client-portal";
import { formBoolean, whenFieldsPass } from "../../../../contracts/common";
import { CheckboxField, FormErrors, SelectField } from "~/components/forms/fields";
import { RefusalAlert } from "~/components/forms/refusal-alert";
import { StatusButton } from "~/components/forms/status-button";
import { formatTimestamp } from "~/components/projects/format";
import { useIntentPending } from "~/components/projects/use-intent-pending";
import { Alert } from "~/components/ui/alert";
import { Card } from "~/components/ui/card";
import { PageSizeForm } from "~/components/ui/list-search-form";
import { Pagination, PastTheEnd } from "~/components/ui/pagination";
import { PeoplePagination, PeopleSearchForm } from "~/components/ui/people-search";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { readPaging, readPeopleSearch } from "~/lib/list-search.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { PAGING_KEYS, pagingParams, peopleSearchParams } from "~/lib/list-search";
import { getFormProps, refusalMessages, useServerForm } from "~/lib/forms";
import { actedOn, invalid, parseFormData, readFormData, refusedByService, unknownIntent } from "~/lib/forms.server";
import { mayEnterArea } from "../../../../contracts/areas";
import { readableRole } from "../../../../contracts/roles";
import { accessSettings, afterGuard, forSelectedCompany } from "~/lib/guards.server";
import { projectCalls, projectScope, requireWorkspace } from "../workspace.server";
import { companyPeoplePage, companyUsersNamed } from "~/lib/company-people.server";
import type { Route } from "./+types/project-access";

/**
 * Add or change a user's access. The boxes are read as the form sends them (an unchecked box sends
 * nothing, which means "no"); the body the data API gets follows its contract: write implies read.
 */
const grantSchema = z
  .object({
    userId: z.string({ error: "Choose a user" }).min(1, "Choose a user"),
    canRead: formBoolean.default(false),
    canWrite: formBoolean.default(false),
    /** A row's Save: the access the row showed (hidden), so that one changed meanwhile is refused, never overwritten. */
    was: z.enum(["read", "write"]).optional(),
  })
  .refine((v) => v.canRead || v.canWrite, {
    ...whenFieldsPass("canRead", "canWrite"),
    path: ["canRead"],
    message: "Give read or write access, or remove the user instead",
  });
/** A row's Remove: its user a hidden field (actedOn). */
const removeSchema = actedOn("userId");

/**
 * A grantee the company's people do not name: a staff user (SuperAdmin, Support), whom the client
 * portal does not list among any company's people. Never their user id; a sentence about what such a
 * user did says "by someone else" (the history, JobProgress).
 */
function someoneOutside(companyName: string | undefined): string {
  return `Someone outside ${companyName ?? "the company"} (staff)`;
}

/** The access list's page and page size from the URL: its one order, newest grant first, is no choice of the user's. */
const accessPaging = (params: URLSearchParams) => readPaging(params, ["-grantedAt"], "-grantedAt");

export async function loader({ request, context }: Route.LoaderArgs) {
  // Two lists page through the URL side by side, never the whole of either: the access list
  // (`?page=&pageSize=`), paged by the data API in SQL, and the company's people to add
  // (`?name=&usersPage=&usersPageSize=`), searched and counted by the client portal in SQL.
  // Both started beside the workspace's own load.
  const params = new URL(request.url).searchParams;
  const { page, pageSize } = accessPaging(params);
  const search = readPeopleSearch(params);
  const calls = projectCalls(context);
  const [{ access, ws, paths, project }, [grants, { value: people, shell }]] = await afterGuard(
    projectScope(context),
    Promise.all([calls.users({ page, pageSize }), forSelectedCompany(context, (as, companyId) => companyPeoplePage(as, companyId, search))]),
  );
  const [grantees, peopleWithAccess] = await Promise.all([
    // The names of the people with access on this page: asked by their ids.
    companyUsersNamed(
      context,
      grants.items.map((g) => g.userId),
    ),
    // Which of the page of people have access already (on any page of the list): asked by their ids.
    people?.items.length ? calls.users({ userId: people.items.map((u) => u.id), page: 1, pageSize: USER_IDS_AT_ONCE }) : null,
  ]);
  const byId = new Map((grantees ?? []).map((u) => [u.id, u]));
  // Ids are shown only when the names could not be loaded at all, as the page then says.
  const nameOf = (userId: string) => byId.get(userId)?.name ?? (grantees ? someoneOutside(shell.company?.name) : `User ${userId}`);
  // People whose role in this company does not open the area: a grant alone does not let them in,
  // and the page says so next to their names rather than letting the grant look like it worked.
  const cannotOpen: Record<string, string> = Object.fromEntries(
    [...(grantees ?? []), ...(people?.items ?? [])]
      .filter((u) => !mayEnterArea(ws.area, u.productRoleName ? [u.productRoleName] : [], accessSettings))
      .map((u) => [u.id, u.productRoleName ? readableRole(u.productRoleName) : "no role"]),
  );
  const users = grants.items.map((g) => ({ ...g, user: byId.get(g.userId) ?? null, name: nameOf(g.userId), cannotOpenAs: cannotOpen[g.userId] ?? null }));
  const granted = new Set(peopleWithAccess?.items.map((g) => g.userId));
  return {
    here: paths.page(project.id, "users/project-access"),
    canWrite: access.canWrite,
    noun: ws.noun,
    namesMissing: people === null || grantees === null,
    users,
    grants: { page, pageSize, total: grants.total },
    search,
    // The page of the company's people, those with access already left out of the select.
    people: people ? { total: people.total, candidates: people.items.filter((u) => !granted.has(u.id)), onPage: people.items.length } : null,
    cannotOpen,
    area: ws.kind === "onboarding" ? "Data Onboarding" : "Migrations",
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { project, companyId, api, paths, ws, shell } = await projectScope(context);
  const here = paths.page(project.id, "users/project-access");
  await requireWorkspace(context, { write: here });
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  // Back to both lists where they were (the forms post to this page's URL): the access list's page and the people picker's search.
  const params = new URL(request.url).searchParams;
  const back = companyHref(here, companyId, {
    ...pagingParams(PAGING_KEYS, accessPaging(params)),
    ...peopleSearchParams(readPeopleSearch(params)),
  });

  // "set" adds a user (the picker) and never changes the access of one given it meanwhile from another
  // tab or by someone else: the data API answers 409, said at the top of the Add form, their row now in
  // the list. "change" changes a row's grant and never gives back an access removed meanwhile (404), nor
  // overwrites one changed meanwhile (409, `was`): said at the top, the row as it is now.
  if (intent === "set" || intent === "change") {
    const submission = parseFormData(formData, grantSchema);
    if (submission.status !== "success") return invalid(submission, [/^was$/]);
    const { userId, ...grant } = submission.value;
    try {
      await api.setUser(userId, { ...grant, existing: intent === "change", adding: intent === "set" });
    } catch (err) {
      return refusedByService(submission, err);
    }
    return redirectWithFlash(back, `Access saved: ${grant.canWrite ? "read and write" : "read only"}.`);
  }

  if (intent === "remove") {
    const submission = parseFormData(formData, removeSchema);
    if (submission.status !== "success") return invalid(submission);
    const { userId } = submission.value;
    try {
      await api.removeUser(userId);
    } catch (err) {
      return refusedByService(submission, err);
    }
    // Their own access removed, the user may not see this page any more (SuperAdmin and Support always may):
    // back to the list, not to a "not found" of the page they were just on.
    if (userId === shell.user.id && !shell.admin) {
      return redirectWithFlash(companyHref(paths.list, companyId), `Access removed: you no longer see the ${ws.noun} ${project.name}.`);
    }
    return redirectWithFlash(back, `Access removed: the user no longer sees this ${ws.noun}.`);
  }

  return unknownIntent(intent);
}

// After a refused save, show the list as it is now: 409, a user added meanwhile (in another tab or by
// someone else), whose row then shows their access; 404, a user removed meanwhile, whose row goes.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

export const handle = { breadcrumb: "Project access" };

type UserRow = Route.ComponentProps["loaderData"]["users"][number];

export default function ProjectAccess({ loaderData, actionData }: Route.ComponentProps) {
  const { canWrite, noun, namesMissing, users, grants, people, search, here, area, cannotOpen } = loaderData;
  const href = useCompanyHref();
  // Each list's links and search keep the other list where it is.
  const grantsParams = (page: number) => ({
    page: page === 1 ? undefined : page,
    pageSize: grants.pageSize === DEFAULT_PAGE_SIZE ? undefined : grants.pageSize,
  });
  const lastResult = actionData?.result as SubmissionResult<string[]> | undefined;
  const resultFor = (form: string) => (lastResult?.initialValue?.formKey === form ? lastResult : undefined);
  // A refusal of a row's form that is not on the page any more (its access removed from another tab, or a
  // row of another page of the list) is said at the top: the form that would have said it is gone.
  // The Add form is drawn only while there is somebody to add (the user refused as added meanwhile may have been the last).
  const shownForms = canWrite ? [...(people?.candidates.length ? ["add"] : []), ...users.flatMap((u) => [changeFormOf(u), `remove-${u.userId}`])] : [];
  const formKey = lastResult?.initialValue?.formKey;
  const unplaced = lastResult && !shownForms.includes(String(formKey ?? "")) ? refusalMessages(lastResult) : [];

  return (
    <div className="space-y-6">
      <Card aria-labelledby="access-title">
        <h2 id="access-title" className="text-lg font-semibold">
          Who may read and write this {noun}
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          SuperAdmin and Support users may always read and write.{" "}
          {canWrite ? "Write access includes read access." : "Only users with write access can change this list."}
        </p>
        {unplaced.length ? (
          <RefusalAlert refusal={lastResult} className="mt-3">
            {unplaced.join(" ")}
          </RefusalAlert>
        ) : null}
        {namesMissing ? (
          <Alert className="mt-3">The names of the company's users could not be loaded from the client portal; user ids are shown instead.</Alert>
        ) : null}
        {grants.total > 0 ? (
          // A new size starts the list at its first page and keeps the people picker's search and page.
          <PageSizeForm
            action={here}
            label="Page size of users with access"
            pageSize={grants.pageSize}
            pageSizeId="grants-page-size"
            keep={peopleSearchParams(search)}
            className="mt-4"
          />
        ) : null}
        <div className="mt-4">
          {grants.total === 0 ? (
            <p className="text-sm text-muted-foreground">No user has been given access to this {noun} yet.</p>
          ) : users.length === 0 ? (
            <PastTheEnd page={grants.page} />
          ) : canWrite ? (
            <ul className="divide-y divide-border rounded-lg border border-border" aria-label="Users with access">
              {users.map((u) => (
                <li key={u.userId} className="flex flex-wrap items-start justify-between gap-4 p-4">
                  <UserName row={u} />
                  <div className="flex flex-wrap items-start gap-3">
                    <ChangeForm key={changeFormOf(u)} row={u} lastResult={resultFor(changeFormOf(u))} />
                    <RemoveForm row={u} lastResult={resultFor(`remove-${u.userId}`)} />
                  </div>
                </li>
              ))}
            </ul>
          ) : (
            <Table aria-label="Users with access">
              <TableHeader>
                <TableRow>
                  <TableHead>User</TableHead>
                  <TableHead>Can read</TableHead>
                  <TableHead>Can write</TableHead>
                  <TableHead>Since</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {users.map((u) => (
                  <TableRow key={u.userId}>
                    <TableCell>
                      <UserName row={u} />
                    </TableCell>
                    <TableCell>{u.canRead ? "Yes" : "No"}</TableCell>
                    <TableCell>{u.canWrite ? "Yes" : "No"}</TableCell>
                    <TableCell className="whitespace-nowrap">{formatTimestamp(u.grantedAt)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          {grants.total > 0 ? (
            <Pagination
              label="Pages of users with access"
              page={grants.page}
              pageSize={grants.pageSize}
              total={grants.total}
              noun={["user with access", "users with access"]}
              href={(page) => href(here, { ...peopleSearchParams(search), ...grantsParams(page) })}
            />
          ) : null}
        </div>
      </Card>

      {canWrite ? (
        <AddForm
          people={people}
          search={search}
          here={here}
          area={area}
          noun={noun}
          cannotOpen={cannotOpen}
          keep={grantsParams(grants.page)}
          lastResult={resultFor("add")}
        />
      ) : null}
    </div>
  );
}

function UserName({ row }: { row: UserRow }) {
  return (
    <div className="text-sm">
      <p className="font-medium">{row.name}</p>
      {row.user ? <p className="text-muted-foreground">{row.user.email}</p> : null}
      <p className="text-xs text-muted-foreground">Since {formatTimestamp(row.grantedAt)}</p>
      {row.cannotOpenAs ? <p className="text-xs text-amber-800">Cannot open this area yet: the role in this company is {row.cannotOpenAs}.</p> : null}
    </div>
  );
}

const accessShown = (row: { canWrite: boolean }) => (row.canWrite ? "write" : "read");

/**
 * A row's Save form, named by its user and the access it shows: a refusal of a Save based on an access
 * changed since (the row shows the new one) is not this form's, and is said at the top of the page.
 */
const changeFormOf = (row: { userId: string; canWrite: boolean }) => `change-${row.userId}-${accessShown(row)}`;

function ChangeForm({ row, lastResult }: { row: UserRow; lastResult?: SubmissionResult<string[]> }) {
  const was = accessShown(row);
  const formName = changeFormOf(row);
  const pending = useIntentPending("change", { userId: row.userId });
  const [form, fields] = useServerForm({
    id: formName,
    lastResult,
    defaultValue: { userId: row.userId, canRead: row.canRead ? "on" : "", canWrite: row.canWrite ? "on" : "" },
  });
  return (
    <Form method="post" {...getFormProps(form)} aria-label={`Access of ${row.name}`} className="flex flex-wrap items-start gap-3">
      <input type="hidden" name="formKey" value={formName} />
      <input type="hidden" name="userId" value={row.userId} />
      <input type="hidden" name="was" value={was} />
      <FormErrors form={form} />
      <CheckboxField label="Can read" field={fields.canRead!} />
      <CheckboxField label="Can write" field={fields.canWrite!} />
      <StatusButton type="submit" name="intent" value="change" size="sm" variant="outline" pending={pending}>
        Save
      </StatusButton>
    </Form>
  );
}

function RemoveForm({ row, lastResult }: { row: UserRow; lastResult?: SubmissionResult<string[]> }) {
  const formName = `remove-${row.userId}`;
  const pending = useIntentPending("remove", { userId: row.userId });
  const [form] = useServerForm({ id: formName, lastResult });
  return (
    <Form method="post" {...getFormProps(form)}>
      <input type="hidden" name="formKey" value={formName} />
      <input type="hidden" name="userId" value={row.userId} />
      <FormErrors form={form} />
      <StatusButton type="submit" name="intent" value="remove" size="sm" variant="ghost" pending={pending} aria-label={`Remove ${row.name}`}>
        Remove
      </StatusButton>
    </Form>
  );
}

type AddProps = Pick<Route.ComponentProps["loaderData"], "people" | "search" | "here" | "area" | "noun" | "cannotOpen"> & {
  /** The access list's page, which finding people keeps. */
  keep: Record<string, string | number | undefined>;
  lastResult?: SubmissionResult<string[]>;
};

/** The company's people a page at a time, searched through the URL (a GET form and links): the select offers the page's people without access. */
function AddForm({ people, search, here, area, noun, cannotOpen, keep, lastResult }: AddProps) {
  const candidates: CompanyUser[] = people?.candidates ?? [];
  const blocked = candidates.filter((u) => cannotOpen[u.id]);
  const pending = useIntentPending("set", { formKey: "add" });
  const [form, fields] = useServerForm({ id: "add-user", lastResult, defaultValue: { canRead: "on" }, required: ["userId"] });
  return (
    <Card aria-labelledby="add-title">
      <h2 id="add-title" className="text-lg font-semibold">
        Add a user
      </h2>
      {people ? <PeopleSearchForm action={here} search={search} keep={keep} id="access-users" className="mt-3" /> : null}
      {!people ? (
        <p className="mt-2 text-sm text-muted-foreground">The company's users could not be loaded.</p>
      ) : candidates.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">
          {people.total === 0
            ? search.name
              ? "No user of this company has a name or e-mail containing this search."
              : "This company has no users."
            : people.onPage === 0
              ? "There is nobody on this page. Go back with Previous."
              : people.total > people.onPage
                ? `Everybody here already has access to the ${noun}: search for others, or see the other pages.`
                : search.name
                  ? `Everybody found already has access to the ${noun}: search for others.`
                  : `Every user of this company already has access to the ${noun}.`}
        </p>
      ) : (
        <>
          {blocked.length > 0 ? (
            <div className="mt-2 text-sm" id="cannot-open">
              <p>
                These users are listed, but their role in this company does not open {area}: access to this {noun} lets them in only once their role changes.
              </p>
              <ul className="mt-1 list-disc pl-5">
                {blocked.map((u) => (
                  <li key={u.id}>
                    {u.name}: {cannotOpen[u.id]}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <Form method="post" {...getFormProps(form)} aria-labelledby="add-title" className="mt-4 flex flex-wrap items-end gap-4">
            <input type="hidden" name="formKey" value="add" />
            <FormErrors form={form} />
            <SelectField
              label="User"
              field={fields.userId!}
              options={candidates.map((u) => ({ value: u.id, label: `${u.name} (${u.email})` }))}
              placeholder="Choose a user"
              className="min-w-0 basis-72"
            />
            <CheckboxField label="Can read" field={fields.canRead!} className="pb-2" />
            <CheckboxField label="Can write" field={fields.canWrite!} className="pb-2" />
            <StatusButton type="submit" name="intent" value="set" pending={pending}>
              Add user
            </StatusButton>
          </Form>
        </>
      )}
      {people && people.total > 0 ? <PeoplePagination here={here} search={search} total={people.total} keep={keep} /> : null}
    </Card>
  );
}
