import type { TranslationPoll } from "~/components/projects/live-translation";
import { afterGuard } from "~/lib/guards.server";
import { pollAnswer } from "~/lib/live-poll.server";
import { projectCalls, projectScope } from "../workspace.server";
import type { Route } from "./+types/translation-progress";

/**
 * translate/{translationId}/progress: what a translation's page polls every second with JavaScript
 * while it runs (useLiveTranslation): how far it has read, not the page's loaders (the shell's, the
 * workspace's), which are read again once it ends. Guarded as the page is, here and in the data API
 * (another company's translation: 404).
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const [, { report: _report, ...translation }] = await afterGuard(projectScope(context), projectCalls(context).translations.get(params.translationId));
  return pollAnswer<TranslationPoll>({ translation });
}
