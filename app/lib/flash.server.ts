import { createContext, createCookie, redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { z } from "zod";
import { env } from "./env.server";
import type { FlashInput, FlashMessage } from "./flash";

/**
 * Flash messages (post/redirect/get): an action that wrote something answers
 * `return redirectWithFlash(companyHref(…), "Table CUSTOMER saved.")`; the redirect carries the message
 * in a short-lived signed cookie; the shell's middleware reads it on the next page, the shell's loader
 * hands it to the page (`takeFlash`), and the middleware clears the cookie on that page's response.
 * A cookie rather than the server-side session: it needs no database write, and works the same with
 * and without JavaScript (React Router's fetch stores the Set-Cookie of a redirect as a browser would).
 */
const FLASH_COOKIE = "dt_flash";
const MAX_TEXT = 500;

export const flashCookie = createCookie(FLASH_COOKIE, {
  httpOnly: true,
  sameSite: "lax",
  secure: env.secureCookies,
  path: "/",
  // Read by the request that follows the redirect; a message nobody saw within a minute is stale.
  maxAge: 60,
  // Signed: a message the portal did not write is never shown.
  secrets: env.SESSION_SECRETS,
});

const flashMessageSchema = z.object({ kind: z.enum(["success", "error"]), text: z.string().min(1).max(MAX_TEXT) });

function toMessage(input: FlashInput): FlashMessage {
  const { kind = "success", text } = typeof input === "string" ? { text: input } : input;
  return { kind, text: text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text };
}

/** The Set-Cookie value that carries `message` to the next page, for responses other than a redirect. */
export function flashCookieHeader(message: FlashInput): Promise<string> {
  return flashCookie.serialize(toMessage(message));
}

/** A redirect (302 unless `init` says otherwise) whose next page shows `message` once. */
export async function redirectWithFlash(to: string, message: FlashInput, init?: number | ResponseInit): Promise<Response> {
  const response = redirect(to, init);
  response.headers.append("Set-Cookie", await flashCookieHeader(message));
  return response;
}

/** The message the request carries, or null (none, expired, or not signed by this portal). */
export async function readFlash(request: Request): Promise<FlashMessage | null> {
  const parsed = flashMessageSchema.safeParse(await flashCookie.parse(request.headers.get("Cookie")));
  return parsed.success ? parsed.data : null;
}

/** The Set-Cookie value that removes the flash cookie. */
export function clearFlashCookieHeader(): Promise<string> {
  return flashCookie.serialize("", { maxAge: 0, expires: new Date(0) });
}

type FlashState = { message: FlashMessage | null; carried: boolean; taken: boolean };

const flashContext = createContext<FlashState | null>(null);

function carriesFlashCookie(request: Request) {
  return (request.headers.get("Cookie") ?? "").split(";").some((pair) => pair.trim().startsWith(`${FLASH_COOKIE}=`));
}

/**
 * The shell's middleware: reads the message for the shell's loader, and clears the cookie on the
 * response once a loader took it (or it is unreadable). Not on a redirect (the page after it shows the
 * message), and not on a data request that did not run the shell's loader (client navigations that
 * keep the shell's data): the message waits for the page that shows it.
 */
export const flashMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const state: FlashState = { message: await readFlash(request), carried: carriesFlashCookie(request), taken: false };
  context.set(flashContext, state);
  const response = await next();
  const isRedirect = response.status >= 300 && response.status < 400 && response.headers.has("Location");
  if (!state.carried || isRedirect || (state.message && !state.taken)) return response;
  // A copy: a response's headers may be immutable.
  const cleared = new Response(response.body, response);
  cleared.headers.append("Set-Cookie", await clearFlashCookieHeader());
  return cleared;
};

/** For the shell's loader: the message to show on this page (then the cookie is cleared), or null. */
export function takeFlash(context: Readonly<RouterContextProvider>): FlashMessage | null {
  const state = context.get(flashContext);
  if (!state) return null;
  state.taken = true;
  return state.message;
}
