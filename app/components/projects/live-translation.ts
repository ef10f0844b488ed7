import type { Translation } from "../../../contracts/mappings";
import { useLivePoll } from "~/lib/live-poll";

/** What a translation's page polls (translation-progress.ts): the translation without its report, and when it was read (the server's clock). */
export type TranslationPoll = { translation: Omit<Translation, "report">; readAt: number };

/**
 * A translation as its page shows it while it runs (with JavaScript): `poll` asks how far it has
 * read, the page shows that over what its loader read, and its loaders are read again once it ended
 * (its counts, report and download).
 */
export function useLiveTranslation(loaded: { translation: Translation; readAt: number }, href: string) {
  const { polled, poll } = useLivePoll<TranslationPoll>(href, loaded.readAt, (p) => p.translation.status !== "Running");
  const translation: Translation = polled ? { ...loaded.translation, ...polled.translation } : loaded.translation;
  return { translation, poll };
}
