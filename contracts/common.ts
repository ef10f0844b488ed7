import { z } from "zod";
import { PAGE_SIZES } from "./values/common";

export * from "./values/common";

/**
 * A string field that must be filled in. A form's empty field arrives as missing (Conform drops
 * empty strings), which must read "Required", not a type error.
 */
export function requiredString(message = "Required") {
  return presentString(message).min(1, message).refine(hasNoNul, NUL_MESSAGE);
}

/** A string whose absence reads `message` (as requiredString's), for a field with rules of its own on what it holds. */
export function presentString(message: string) {
  return z.string({ error: (issue) => (issue.input === undefined || issue.input === null ? message : undefined) });
}

/**
 * For a rule across an object's fields (`.refine(rule, { ...whenFieldsPass("a", "b"), message })`): checked
 * also when another field is refused, so that a form lists every message at once rather than the rule's
 * only once the others are mended; but not when a field it reads is refused (its value is not one the
 * rule expects, and that field's own message says what is wrong).
 */
export function whenFieldsPass(...fields: readonly string[]) {
  return {
    // An issue without a field is the object's own (not an object at all: null, say), which no rule can read.
    when: (payload: { issues: readonly { path?: readonly PropertyKey[] | undefined }[] }) =>
      !payload.issues.some((issue) => issue.path?.[0] === undefined || fields.includes(String(issue.path[0]))),
  };
}

/** PostgreSQL's text holds no NUL character: a value with one is refused, whether typed, sent or read from a file (decision 024). */
export const NUL_MESSAGE = "Holds a NUL character (\\u0000), which no text may contain: remove it.";
const hasNoNul = (text: string) => !text.includes("\u0000");

/**
 * The largest whole number a request may give where the databases store an integer (a version, a
 * page): PostgreSQL's, past which its query failed with a 500 instead of a 400.
 */
export const INTEGER_MAX = 2_147_483_647;
/** A whole number from a request, from `min` up to INTEGER_MAX. */
export const wholeNumberSchema = (min: number) =>
  z.coerce.number().int().min(min).max(INTEGER_MAX, `At most ${INTEGER_MAX.toLocaleString("en-US")}`);

/**
 * The version a URL's path names (…/versions/{version}, the portal's …/version/{version}): a whole number from 1 up
 * to INTEGER_MAX, else null, which names no version (404 "Version not found.", never a 400 in Zod's words).
 */
export const versionInPath = (value: string): number | null => {
  const number = Number(value);
  return /^[0-9]+$/.test(value) && number >= 1 && number <= INTEGER_MAX ? number : null;
};

/** A written object carries the version it was based on; a stale one is refused with 409. */
export const versionSchema = wholeNumberSchema(0);

/**
 * Spec §3: names of tables and columns become SQL identifiers in the project databases, which are
 * PostgreSQL's: it cuts a longer identifier to 63 bytes (one character each, in these letters), so two
 * names alike in their first 63 would be one column, and the database would not match its dictionary.
 */
export const IDENTIFIER_MAX = 63;
export const identifierSchema = requiredString()
  .trim()
  .min(1, "Required")
  .max(IDENTIFIER_MAX, `At most ${IDENTIFIER_MAX} characters`)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "Use letters, digits and underscores, starting with a letter or underscore");

/** Display names (applications, dictionaries, projects, configurations, mapping projects, templates, their levels and scripts). */
export const NAME_MAX = 100;
/**
 * What a name may not hold inside it (its ends are trimmed): control characters (C0 and C1: tab, line
 * feed, …; NUL has its own message), Unicode's format characters (Cf: zero-width spaces and joiners,
 * bidi controls, the BOM, soft hyphens, …) and the line and paragraph separators. Each looks like a
 * space or like nothing in a list, so "Line\nbreak" and "Line break", or a name and the same with a
 * zero-width space, were two names that read alike. The zero-width non-joiner and joiner (U+200C,
 * U+200D) are kept: Persian and the Indic scripts spell words with them, and emoji sequences (a family)
 * are joined by them. Checked only on what is saved: a name stored with one still shows and can be renamed.
 */
const SPACE_LIKE = /[\u0001-\u001f\u007f-\u009f\u2028\u2029]/u;
const FORMAT = /(?![\u200c\u200d])\p{Cf}/u;
const INVISIBLE_CHARACTERS = new RegExp(`${SPACE_LIKE.source}|${FORMAT.source}`, "u");
export const INVISIBLE_CHARACTERS_MESSAGE = "A name cannot hold line breaks, tabs or invisible characters.";
export const hasNoInvisibleCharacters = (text: string) => !INVISIBLE_CHARACTERS.test(text);

export const CLEANED_NAME_NOTE =
  "The saved name holds a line break, a tab or an invisible character, which a name may no longer hold: it is shown here without, and saving keeps it so.";
/**
 * A stored name as an edit form offers it (its loader, on the server): one saved before nameSchema refused what
 * it may not hold inside it comes cleaned, each run of line breaks, tabs and other control characters a space and
 * each invisible character left out, with CLEANED_NAME_NOTE to say so; a clean name as it is, with no note. The
 * form resends the name with its other fields, so a stored tab would otherwise refuse every save at Name until
 * the user retyped it (and a browser's text box drops a line break silently).
 */
export function nameToEdit(stored: string): { name: string; note: string | null } {
  const name = stored
    .replace(new RegExp(`(?:${SPACE_LIKE.source})+`, "gu"), " ")
    .replace(new RegExp(FORMAT.source, "gu"), "")
    .trim();
  return { name, note: name === stored.trim() ? null : CLEANED_NAME_NOTE };
}
export const nameSchema = requiredString()
  .trim()
  .min(1, "Required")
  .max(NAME_MAX, `At most ${NAME_MAX} characters`)
  .refine(hasNoInvisibleCharacters, INVISIBLE_CHARACTERS_MESSAGE);

export const DESCRIPTION_MAX = 1000;
export const descriptionSchema = z
  .string()
  .refine(hasNoNul, NUL_MESSAGE)
  .trim()
  .max(DESCRIPTION_MAX, `At most ${DESCRIPTION_MAX} characters`)
  .nullish()
  .transform((v) => (v ? v : null));

export const pageQuerySchema = z.object({
  page: wholeNumberSchema(1).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), `One of ${PAGE_SIZES.join(", ")}`)
    .default(25),
});

/**
 * A filter of a list's query string that may repeat its key (`status=A&status=B`), or be absent: the
 * values it names, as an array (empty when absent).
 */
export function repeatedQuery<T extends z.ZodType>(item: T) {
  return z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(item)).default([]);
}

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}

/**
 * A select's (or radio group's) value: one of `values`, or `fallback` when the field is absent (a body or a saved value
 * from before it existed). Anything else, the empty string too, is refused with `error`, at the field: never read as
 * the fallback, the form's first option (Conform reads an empty field as absent, which a `.default()` would fill in).
 */
export function choiceOf<const T extends readonly [string, ...string[]]>(values: T, error: string, fallback: T[number]) {
  return z.preprocess((v) => (v === undefined ? fallback : v), z.enum(values, { error }));
}

/** Booleans as HTML forms and query strings send them; any other value (a forged post) is refused in words, not Zod's "Invalid input". */
export const formBoolean = z
  .union([z.boolean(), z.enum(["true", "false", "on", "off", "1", "0", ""])], { error: "Tick or untick this box." })
  .transform((v) => v === true || v === "true" || v === "on" || v === "1");

export const timestampSchema = z.string();

/**
 * The id a create form chooses for what it makes (a UUID its page's loader drew): the data API makes it
 * with this id, so the same form sent again (a reload of the page that answered it, Back and resubmit)
 * finds it made rather than making a second (makeOnce): refused (alreadyMadeMessage) where the first
 * answer showed a secret once, answered what it made where the first answer was a redirect (a workspace's
 * create, createOnce). Without it, the API draws one.
 */
export const madeIdSchema = z.uuid("The form could not be read: reload the page and try again.").optional();
