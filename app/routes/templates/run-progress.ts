import type { RunProgress } from "../../../contracts/runs";
import { pollAnswer } from "~/lib/live-poll.server";
import { projectScope } from "../workspace/workspace.server";
import { readStepSearch, type StepSearch } from "./run-steps.server";
import type { Route } from "./+types/run-progress";

/** What a poll answers: the run and its page of steps without their SQL, which page, and when it was read (the server's clock). */
export type RunPoll = { run: RunProgress; search: StepSearch; readAt: number };

/**
 * …/run-history/{runId}/progress: what a run's page polls every second with JavaScript while the run
 * goes on (useLiveRun): the run and the same page of steps as the page, without their SQL, which
 * does not change and, for a run of long scripts, was most of each answer. Guarded as the page is,
 * here and in the data API (another company's run: 404).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const search = readStepSearch(request);
  const { api } = await projectScope(context);
  return pollAnswer<RunPoll>({ run: await api.runs.progress(params.runId, search), search });
}
