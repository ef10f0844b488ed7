import { RUN_STEP_STATUSES } from "../../../contracts/values/runs";
import { readChoices, readPaging } from "~/lib/list-search.server";

/**
 * Which of a run's steps its page shows, from the URL: a page of them in order, filtered by status.
 * The page's loader and its poll (run-progress.ts) read the same, so a poll answers the page shown.
 */
export function readStepSearch(request: Request) {
  const p = new URL(request.url).searchParams;
  // A page of the steps, in order, filtered by status: a run of thousands of scripts is paged in SQL.
  const { page, pageSize } = readPaging(p, ["position"], "position");
  return { status: readChoices(p, "status", RUN_STEP_STATUSES), page, pageSize };
}

export type StepSearch = ReturnType<typeof readStepSearch>;
