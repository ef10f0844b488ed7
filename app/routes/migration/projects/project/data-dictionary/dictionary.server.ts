/**
 * The data API's endpoints of a project's own data dictionary (spec §7), as this folder's pages call
 * them: the project's copy, edited without touching the master it may have come from.
 */
import { createContext, data, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import {
  projectDictionarySchema,
  tableSchema,
  tablesPageSchema,
  type ProjectDictionary,
} from "../../../../../../contracts/dictionary";
import { callService, type ServiceFailure } from "~/lib/api.server";
import { dictionaryEndpoints } from "~/lib/dictionary-api.server";
import { serviceFailure } from "~/lib/forms.server";
import { projectDictionaryPaths } from "~/components/projects/next-step";
import { caller, projectApi, projectContext, projectScope, requireProjectUnlocked, requireProjectWrite } from "../../project.server";

type As = ReturnType<typeof caller>;
const dictionaryApi = (projectId: string, ...rest: string[]) => projectApi(projectId, ["/data-dictionary", ...rest.map(encodeURIComponent)].join("/"));

export const getProjectDictionary = (as: As, projectId: string) =>
  callService("data-api", projectApi(projectId, "/data-dictionary"), as, { schema: projectDictionarySchema });

export const listProjectTables = (as: As, projectId: string, query: { name?: string; page: number; pageSize: number }) =>
  callService("data-api", dictionaryApi(projectId, "tables"), as, { schema: tablesPageSchema, query });

export const getProjectTable = (as: As, projectId: string, tableId: string) =>
  callService("data-api", dictionaryApi(projectId, "tables", tableId, "table-details"), as, { schema: tableSchema });

const endpoints = (as: As, projectId: string) => dictionaryEndpoints(as, dictionaryApi(projectId));

export const createProjectTable = (as: As, projectId: string, body: Parameters<ReturnType<typeof endpoints>["createTable"]>[0]) =>
  endpoints(as, projectId).createTable(body);
export const updateProjectTable = (as: As, projectId: string, body: Parameters<ReturnType<typeof endpoints>["updateTable"]>[0]) =>
  endpoints(as, projectId).updateTable(body);
export const deleteProjectTable = (as: As, projectId: string, tableId: string, version: number) => endpoints(as, projectId).deleteTable(tableId, version);
export const uploadProjectDictionaryFile = (as: As, projectId: string, file: File) => endpoints(as, projectId).upload(file);
export const getProjectReview = (as: As, projectId: string, reviewId: string) => endpoints(as, projectId).getReview(reviewId);
export const applyProjectReview = (as: As, projectId: string, reviewId: string) => endpoints(as, projectId).applyReview(reviewId);
export const discardProjectReview = (as: As, projectId: string, reviewId: string) => endpoints(as, projectId).discardReview(reviewId);

/** The project's dictionary (its version and counts), loaded once per request for every page below. */
export const projectDictionaryContext = createContext<ProjectDictionary | { failure: { status: number; body: ServiceFailure } } | null>(null);

/** Like the project's middleware, a failure is thrown by the loaders (projectDictionary), never from here. */
export const loadProjectDictionary: MiddlewareFunction<Response> = async ({ context }, next) => {
  const scope = context.get(projectContext);
  if ("project" in scope) {
    try {
      context.set(projectDictionaryContext, await getProjectDictionary(caller(context), scope.project.id));
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

/** Reviewing and applying an upload changes the project's dictionary: write access, project not locked. */
export function reviewGuard(context: Readonly<RouterContextProvider>) {
  const scope = projectScope(context);
  requireProjectWrite(context, projectDictionaryPaths.tables(scope.project.id));
  requireProjectUnlocked(context);
  return scope;
}
