/**
 * The selected company's people (client portal) as pages show them: by id for the names a page
 * shows, never the company's whole list (a company may have thousands).
 */
import type { RouterContextProvider } from "react-router";
import type { CompanyUser } from "../../contracts/client-portal";
import type { Caller } from "./api.server";
import { companyUsersByIds, companyUsersPage } from "./api/workspaces.server";
import { serviceFailure } from "./forms.server";
import { forSelectedCompany, shellOf } from "./guards.server";
import type { PeopleSearch } from "./list-search";

/**
 * The client portal's people could not be had: a page that shows names still works without them
 * (with ids or "someone else"), so only the portal's own refusals (a redirect) and bugs are thrown.
 */
export function namesUnavailable(err: unknown): null {
  if (err instanceof Response || !serviceFailure(err)) throw err;
  return null;
}

/**
 * A page of the company's people for a picker ("Add a user", a SQL credential's User), searched by
 * name or e-mail and counted by the client portal in SQL; null when it could not answer.
 */
export function companyPeoplePage(as: Caller, companyId: string, search: PeopleSearch) {
  return companyUsersPage(as, companyId, { name: search.name || undefined, page: search.page, pageSize: search.pageSize }).catch(namesUnavailable);
}

/** The selected company's people with these ids, asked by id; null when the client portal could not answer. */
export async function companyUsersNamed(context: Readonly<RouterContextProvider>, ids: readonly string[]): Promise<CompanyUser[] | null> {
  const { value } = await forSelectedCompany(context, (as, companyId) => companyUsersByIds(as, companyId, ids).catch(namesUnavailable));
  return value;
}

/**
 * The names of the people with these user ids, for "started by" and the like: the caller's own is
 * known, the others are asked by id. A failed call only costs their names.
 */
async function companyUserNames(context: Readonly<RouterContextProvider>, ids: readonly string[]): Promise<Record<string, string>> {
  const { user } = await shellOf(context);
  const people = await companyUsersNamed(
    context,
    ids.filter((id) => id !== user.id),
  );
  const names: Record<string, string> = { [user.id]: user.name };
  for (const u of people ?? []) names[u.id] = u.name;
  return names;
}

/** A call's answer with the names of the people it names (`idsOf`), asked as soon as it answered. */
export async function withUserNames<T>(
  context: Readonly<RouterContextProvider>,
  answer: Promise<T>,
  idsOf: (value: T) => (string | null | undefined)[],
): Promise<[T, Record<string, string>]> {
  const value = await answer;
  return [
    value,
    await companyUserNames(
      context,
      idsOf(value).filter((id): id is string => Boolean(id)),
    ),
  ];
}
