import type { MiddlewareHandler } from "hono";
import { NUL_MESSAGE } from "../../contracts/common.ts";
import { apiError } from "./http.ts";

export const NUL_IN_ADDRESS_MESSAGE = "The address holds a NUL character (%00), which no id or value may contain.";

/** Whether the address (path and query, as sent) holds a NUL. */
export const hasNulInAddress = (url: string) => /%00/.test(url);

/**
 * PostgreSQL's text cannot hold a NUL character: a value holding one failed its query with a 500
 * wherever it reached the database (an id in the path, a query value, any text of a JSON body), on
 * PostgreSQL and not on SQLite. No field of the services' APIs means one, so a request holding one
 * is refused before any route reads it: 400, naming the field of a body (decision 024).
 */
export function refuseNulCharacters(): MiddlewareHandler {
  return async (c, next) => {
    if (hasNulInAddress(c.req.url)) return apiError(c, 400, "validation_failed", [NUL_IN_ADDRESS_MESSAGE]);
    if (c.req.header("content-type")?.startsWith("application/json")) {
      // Read once: hono keeps the text for the route's validator. Only a body that escapes a NUL is parsed again.
      const text = await c.req.text();
      if (/\\u0000/i.test(text)) {
        const fields = fieldsHoldingNul(text);
        if (fields.length > 0) {
          const fieldErrors = Object.fromEntries(fields.map((field) => [field, [NUL_MESSAGE]]));
          return apiError(
            c,
            400,
            "validation_failed",
            fields.map((field) => `${field}: ${NUL_MESSAGE}`),
            fieldErrors,
          );
        }
      }
    }
    await next();
  };
}

/** The dotted paths of the body's values holding a NUL (`body` for the value itself); none if it is not JSON (the route says so). */
function fieldsHoldingNul(text: string): string[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [];
  }
  const found: string[] = [];
  const walk = (value: unknown, path: string[]) => {
    if (typeof value === "string") {
      if (value.includes("\u0000")) found.push(path.join(".") || "body");
    } else if (value && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) {
        if (key.includes("\u0000")) found.push([...path, key].join("."));
        else walk(inner, [...path, key]);
      }
    }
  };
  walk(body, []);
  return found;
}
