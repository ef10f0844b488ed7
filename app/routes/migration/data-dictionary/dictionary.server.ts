import { createContext, data, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import type { Dictionary } from "../../../../contracts/dictionary";
import { mayEnterArea } from "~/lib/access";
import type { Caller } from "~/lib/api.server";
import { accessSettings, afterGuard, beside, callerOf, requireWrite, shellOf, type Shell } from "~/lib/guards.server";
import { getDictionary, getTable, pendingReviews } from "~/lib/api/dictionaries.server";
import { serviceFailure } from "~/lib/forms.server";
import { newestPendingReview, pendingReviewLinkTo } from "~/lib/api/dictionary-tables.server";
import { dictionaryAreaOf, dictionaryPathsOf, type MasterDictionaryPaths } from "./paths";

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
export async function requireMasterDataWrite(context: Readonly<RouterContextProvider>, parentPath: string) {
  const shell = await shellOf(context);
  await requireWrite(masterDataAccess(shell), parentPath, shell.company?.id ?? null);
  return { shell, companyId: shell.company!.id };
}

/**
 * The dictionary of the page, loaded once per request by the dictionary layout's middleware: its
 * summary, without its tables (`tables` is empty); pages read the tables they show a page at a time.
 */
const dictionaryContext = createContext<Promise<Dictionary>>();

/** The dictionary of the page (loadDictionary's), once the shell's guard and the company check passed. */
export function dictionaryOf(context: Readonly<RouterContextProvider>): Promise<Dictionary> {
  return context.get(dictionaryContext);
}

/**
 * The dictionary layout's middleware: loads `:dataDictionaryId` for the layout and every page below
 * it, beside the shell's data (the data API checks the same access). A dictionary of another company
 * than the selected one answers 404, like an unknown id.
 */
export const loadDictionary: MiddlewareFunction<Response> = async ({ request, params, context }, next) => {
  const id = params.dataDictionaryId;
  if (!id) throw data({ errors: ["Data dictionary not found."] }, { status: 404 });
  const dictionary = afterGuard(shellOf(context), getDictionary(callerOf(context), id)).then(([shell, found]) => {
    if (found.companyId !== shell.company?.id) throw data({ errors: ["Data dictionary not found."] }, { status: 404 });
    return found;
  });
  context.set(dictionaryContext, dictionary);
  return beside(request, dictionary, next);
};

/** One table of the dictionary with its columns; a table it does not hold answers 404 "Table not found." */
export async function tableOf(as: Caller, dictionaryId: string, tableId: string) {
  try {
    return await getTable(as, dictionaryId, tableId);
  } catch (err) {
    if (serviceFailure(err)?.status === 404) throw data({ errors: ["Table not found."] }, { status: 404 });
    throw err;
  }
}

/**
 * The newest upload of the dictionary still waiting for review, with the link to its review page
 * (the create wizard's or the edit pages'), for PendingReviewNotice; null when there is none.
 */
export async function pendingReviewLink(as: Caller, dictionaryId: string, mode: "create" | "edit") {
  const newest = await newestPendingReview({ pendingReviews: () => pendingReviews(as, dictionaryId) });
  return pendingReviewLinkTo(newest, dictionaryPathsOfRequest(as.request).review(mode, dictionaryId));
}
