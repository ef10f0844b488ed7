import { createContext, data, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import type { Dictionary } from "../../../../contracts/dictionary";
import { mayEnterArea } from "~/lib/access";
import { accessSettings, requireWrite, shellContext, type Shell } from "~/lib/guards.server";
import { getDictionary, pendingReviews } from "~/lib/api/dictionaries.server";
import { newestPendingReview } from "~/lib/api/dictionary-tables.server";
import { dictionaryAreaOf, dictionaryPathsOf, REVIEW_PARAM, type MasterDictionaryPaths } from "./paths";

/** On the server: the master dictionary paths of the area the request is in (see paths.ts). */
export const dictionaryPathsOfRequest = (request: Request): MasterDictionaryPaths => dictionaryPathsOf(new URL(request.url).pathname);

/**
 * Master data (applications and dictionaries) belongs to the company: whoever may work in the area
 * of the page there (Migration, or Onboarding for /onboarding/data-dictionary) may change it. The
 * data API is the authority and asks for a Migration role, which every Onboarding role is too: this
 * only spares the user a form the API would refuse.
 */
export function masterDataAccess(shell: Shell): { canWrite: boolean } {
  const area = dictionaryAreaOf(new URL(shell.request.url).pathname);
  return { canWrite: shell.company !== null && mayEnterArea(area, shell.roles, accessSettings) };
}

/** For pages and actions that write: the shell and the company, else a redirect to `parentPath`. */
export function requireMasterDataWrite(context: Readonly<RouterContextProvider>, parentPath: string) {
  const shell = context.get(shellContext);
  requireWrite(masterDataAccess(shell), parentPath, shell.company?.id ?? null);
  return { shell, companyId: shell.company!.id };
}

/** The dictionary of the page, loaded once per request by the dictionary layout's middleware. */
export const dictionaryContext = createContext<Dictionary>();

/**
 * The dictionary layout's middleware: loads `:dataDictionaryId` for the layout and every page below
 * it. A dictionary of another company than the selected one answers 404, like an unknown id.
 */
export const loadDictionary: MiddlewareFunction<Response> = async ({ params, context }, next) => {
  const shell = context.get(shellContext);
  const id = params.dataDictionaryId;
  if (!id) throw data({ errors: ["Data dictionary not found."] }, { status: 404 });
  const dictionary = await getDictionary(shell, id);
  if (dictionary.companyId !== shell.company?.id) throw data({ errors: ["Data dictionary not found."] }, { status: 404 });
  context.set(dictionaryContext, dictionary);
  return next();
};

/**
 * The newest upload of the dictionary still waiting for review, with the link to its review page
 * (the create wizard's or the edit pages'), for PendingReviewNotice; null when there is none.
 */
export async function pendingReviewLink(shell: Shell, dictionaryId: string, mode: "create" | "edit") {
  const newest = await newestPendingReview({ pendingReviews: () => pendingReviews(shell, dictionaryId) });
  if (!newest) return null;
  const { fileName, createdAt, errorCount } = newest;
  const path = dictionaryPathsOfRequest(shell.request).review(mode, dictionaryId);
  return { review: { fileName, createdAt, errorCount }, to: { path, search: { [REVIEW_PARAM]: newest.id } } };
}
