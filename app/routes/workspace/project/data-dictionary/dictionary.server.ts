/**
 * The workspace's own data dictionary as this folder's pages need it: loaded once per request for
 * every page below (its version and counts), and the guard of the pages that review an upload.
 */
import { createContext, data, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import type { ProjectDictionary } from "../../../../../contracts/dictionary";
import type { ServiceFailure } from "~/lib/api.server";
import { newestPendingReview } from "~/lib/api/dictionary-tables.server";
import { serviceFailure } from "~/lib/forms.server";
import { REVIEW_PARAM } from "~/lib/workspace-paths";
import { projectContext, projectScope, requireWorkspace } from "../../workspace.server";

/** The workspace's dictionary (its version and counts), loaded once per request for every page below. */
export const projectDictionaryContext = createContext<ProjectDictionary | { failure: { status: number; body: ServiceFailure } } | null>(null);

/** Like the workspace's middleware, a failure is thrown by the loaders (projectDictionary), never from here. */
export const loadProjectDictionary: MiddlewareFunction<Response> = async ({ context }, next) => {
  const scope = context.get(projectContext);
  if ("project" in scope) {
    try {
      context.set(projectDictionaryContext, await projectScope(context).api.dictionary.get());
    } catch (err) {
      const failure = serviceFailure(err);
      if (!failure) throw err;
      context.set(projectDictionaryContext, { failure });
    }
  }
  return next();
};

export function projectDictionary(context: Readonly<RouterContextProvider>): ProjectDictionary {
  projectScope(context);
  const dictionary = context.get(projectDictionaryContext);
  if (!dictionary) throw new Error("loadProjectDictionary did not run");
  if ("failure" in dictionary) throw data<ServiceFailure>(dictionary.failure.body, { status: dictionary.failure.status });
  return dictionary;
}

/** Reviewing and applying an upload changes the workspace's dictionary: write access, not locked. */
export function reviewGuard(context: Readonly<RouterContextProvider>) {
  const { paths, project } = projectScope(context);
  return requireWorkspace(context, { write: paths.dictionary.tables(project.id), unlocked: true });
}

/** Deletes a table of the workspace's dictionary and answers its name, for the message that says so. */
export async function deleteTableNamed(scope: Pick<ReturnType<typeof projectScope>, "api">, tableId: string, version: number): Promise<string> {
  const { name } = await scope.api.dictionary.table(tableId);
  await scope.api.dictionary.deleteTable(tableId, version);
  return name;
}

/** The newest upload of the workspace's dictionary waiting for review, linked from its pages; null when none. */
export async function pendingReviewLink(scope: Pick<ReturnType<typeof projectScope>, "api" | "paths" | "project">) {
  const newest = await newestPendingReview(scope.api.dictionary);
  if (!newest) return null;
  const { fileName, createdAt, errorCount } = newest;
  return { review: { fileName, createdAt, errorCount }, to: { path: scope.paths.dictionary.review(scope.project.id), search: { [REVIEW_PARAM]: newest.id } } };
}
