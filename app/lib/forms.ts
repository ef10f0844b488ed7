import { useForm, type SubmissionResult } from "@conform-to/react";

/**
 * A Conform form whose errors come from the server: the action parses with the form's Zod schema
 * (forms.server.ts) and answers `submission.reply()`, which arrives here as `lastResult`. The browser
 * gets no schema: Zod and its Conform adapter stay out of the page's JavaScript, and a form behaves
 * the same with JavaScript on or off.
 */
export function useServerForm(
  options: { id?: string; lastResult?: SubmissionResult<string[]> | null; defaultValue?: Record<string, unknown> } = {},
) {
  return useForm<Record<string, any>, Record<string, any>, string[]>({
    id: options.id,
    lastResult: options.lastResult,
    defaultValue: options.defaultValue as never,
  });
}
