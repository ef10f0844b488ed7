import type { JobsPoll } from "~/components/projects/live-jobs";
import { afterGuard } from "~/lib/guards.server";
import { pollAnswer } from "~/lib/live-poll.server";
import { projectCalls, projectScope } from "../workspace.server";
import type { Route } from "./+types/background-process-progress";

/**
 * …/background-process/progress: what a job's page polls every second with JavaScript while a job runs
 * (useLiveJobs: the background-process page, a history entry, the databases step): the lock and the
 * running jobs with their steps, not the page's loaders (the shell's, the workspace's, the recent jobs
 * and their starters' names), which are read again once a job ends. Guarded as the background-process
 * page is, here and in the data API (another company's workspace: 404).
 */
export async function loader({ context }: Route.LoaderArgs) {
  const [, running] = await afterGuard(projectScope(context), projectCalls(context).runningJobs());
  return pollAnswer<JobsPoll>(running);
}
