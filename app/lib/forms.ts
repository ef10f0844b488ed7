import { useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";

/**
 * A Conform form validated by the same Zod schema as the server: in the browser when JavaScript
 * runs, always on the server. `lastResult` is the action's `result`.
 */
export function useValidatedForm<S extends z.ZodType>(
  schema: S,
  options: { id?: string; lastResult?: SubmissionResult<string[]> | null; defaultValue?: Record<string, unknown> } = {},
) {
  return useForm<Record<string, any>, z.output<S>, string[]>({
    id: options.id,
    lastResult: options.lastResult,
    defaultValue: options.defaultValue as never,
    constraint: getZodConstraint(schema as never),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: schema as never }),
  });
}
