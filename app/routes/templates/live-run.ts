import { useLivePoll } from "~/lib/live-poll";
import type { RunDetails } from "../../../contracts/runs";
import type { RunPoll } from "./run-progress";

/** What a run's page's loader read of the run (with the steps' SQL), and when (the server's clock, as a poll's readAt). */
type LoadedRun = { run: RunDetails; search: unknown; readAt: number };

/**
 * A run as its page shows it while it goes on (with JavaScript): `poll` asks the run's progress (the
 * same page of steps without their SQL, run-progress.ts) and the page shows it over what its loader
 * read (shownRun). The page's loaders are read again, once, when a poll says the run ended (the page
 * then offers Rerun, the project is unlocked) or shows a step the loader did not read; and when a
 * poll is refused (useLivePoll).
 */
export function useLiveRun(loaded: LoadedRun, progressHref: string) {
  const { polled, poll } = useLivePoll<RunPoll>(progressHref, loaded.readAt, (p) => shownRun(loaded, p).reload);
  return { run: shownRun(loaded, polled).run, poll };
}

/**
 * The run to show: the poll's when it is newer than the loader's and of the same run and page of
 * steps, each step with the SQL the loader read (it does not change), else the loader's. A poll that
 * shows a step the loader did not read (a filtered page gaining a failure) has no SQL for it: the
 * loader's run is shown until the loaders are read again (`reload`), as they are once the run ended.
 */
export function shownRun(loaded: LoadedRun, polled: RunPoll | undefined): { run: RunDetails; reload: boolean } {
  const current = polled && polled.run.id === loaded.run.id && polled.readAt > loaded.readAt && sameSearch(polled.search, loaded.search) ? polled.run : null;
  if (!current) return { run: loaded.run, reload: false };
  const sqlOf = new Map(loaded.run.steps.map((s) => [s.position, s.sql]));
  if (!current.steps.every((s) => sqlOf.has(s.position))) return { run: loaded.run, reload: true };
  return { run: { ...current, steps: current.steps.map((s) => ({ ...s, sql: sqlOf.get(s.position)! })) }, reload: current.status !== "IN_PROGRESS" };
}

/** Both read by readStepSearch: equal when their JSON is. */
const sameSearch = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
