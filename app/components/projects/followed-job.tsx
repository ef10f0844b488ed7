import { lazyWidget } from "~/lib/lazy-widget";

/**
 * The databases step's creation job, its progress and what a screen reader is told as it goes
 * (job-progress.tsx's FollowedJobProgress): shown only once a user started the creation, so loaded then, not
 * with the step (decision 029). The server renders it in the page's HTML, so a page whose job runs on arrival
 * shows its progress with JavaScript on and off.
 */
export const FollowedJob = lazyWidget(() => import("./job-progress").then((m) => m.FollowedJobProgress));
