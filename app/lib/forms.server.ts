import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { z } from "zod";
import type { ServiceFailure } from "./api.server";

const UNREADABLE = "The form could not be read. Reload the page and try again.";

/** The posted form; a body that cannot be read (a broken multipart body) is a 400, never a 500. */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data<ServiceFailure>({ errors: [UNREADABLE] }, { status: 400 });
  }
}

/** Parses a form post with its schema (the server always validates); a forged intent is a 400 too. */
export async function parseForm<S extends z.ZodType>(request: Request, schema: S) {
  const formData = await readFormData(request);
  try {
    return { formData, submission: parseWithZod(formData, { schema: schema as never }) as Submission<z.output<S>> };
  } catch {
    throw data<ServiceFailure>({ errors: [UNREADABLE] }, { status: 400 });
  }
}

/** Several buttons on one page send an `intent`; anything else is a bad request, never a 500. */
export function unknownIntent(intent: unknown): never {
  throw data<ServiceFailure>({ errors: [`Unknown action${typeof intent === "string" && intent ? `: ${intent}` : ""}.`] }, { status: 400 });
}

/** 400 with the field errors next to the fields; nothing was changed. */
export function invalid(submission: Submission<unknown>) {
  return data({ result: submission.reply() }, { status: 400 });
}

/**
 * A service refused the write (a duplicate name, a stale version: 409, a validation error): show
 * its messages next to the fields it names, the rest at the top of the form, with its 4xx status.
 * Anything else (401 redirects, 5xx) is rethrown for the guards and the error page.
 */
export function refusedByService(submission: Submission<unknown>, err: unknown) {
  const failure = serviceFailure(err);
  if (!failure || failure.status >= 500) throw err;
  // The API names nested fields with dots (columns.0.name), Conform with brackets (columns[0].name).
  const fieldErrors = Object.fromEntries(
    Object.entries(failure.body.fieldErrors ?? {}).map(([name, errors]) => [name.replace(/\.(\d+)(?=\.|$)/g, "[$1]"), errors]),
  );
  const known = Object.keys(fieldErrors).length > 0;
  return data(
    {
      result: submission.reply({
        formErrors: known ? failure.body.errors.filter((e) => !Object.values(fieldErrors).flat().includes(e)) : failure.body.errors,
        fieldErrors,
      }),
    },
    { status: failure.status },
  );
}

/** The status and body of a failure thrown by callService (a `data()` value), or null. */
export function serviceFailure(err: unknown): { status: number; body: ServiceFailure } | null {
  if (!err || typeof err !== "object" || (err as { type?: unknown }).type !== "DataWithResponseInit") return null;
  const { data: body, init } = err as { data: ServiceFailure; init: ResponseInit | null };
  return { status: init?.status ?? 500, body };
}
