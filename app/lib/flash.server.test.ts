import { redirect, RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { clearFlashCookieHeader, flashCookieHeader, flashMiddleware, readFlash, redirectWithFlash, takeFlash } from "./flash.server";

const PAGE = "http://portal.test/migration/data-dictionary?companyId=c1";

/** The `name=value` a browser sends back for a Set-Cookie header. */
const cookiePair = (setCookie: string) => setCookie.split(";")[0]!;

/**
 * One request through the shell's flash middleware, as React Router runs it: `next()` runs the
 * loaders (here the shell's `takeFlash`, unless `load` is false) and answers the page, or `answer`.
 */
async function visit(cookie: string | null, options: { load?: boolean; answer?: () => Response } = {}) {
  const request = new Request(PAGE, { headers: cookie ? { cookie } : {} });
  const context = new RouterContextProvider();
  let shown: unknown = "not loaded";
  const response = await flashMiddleware({ request, context, params: {} } as never, async () => {
    if (options.load !== false) shown = takeFlash(context);
    return options.answer?.() ?? new Response("the page", { headers: { "Content-Type": "text/html" } });
  });
  return { shown, response: response as Response, setCookie: (response as Response).headers.get("Set-Cookie") };
}

describe("flash messages", () => {
  it("redirectWithFlash sets a short-lived, httpOnly, SameSite=Lax cookie on the redirect", async () => {
    const res = await redirectWithFlash("/migration/data-dictionary?companyId=c1", "Table CUSTOMER saved.");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/migration/data-dictionary?companyId=c1");
    const setCookie = res.headers.get("Set-Cookie")!;
    expect(setCookie).toMatch(/^dt_flash=/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).toMatch(/Max-Age=60/);
    // Not Secure outside production (the session cookie's rule).
    expect(setCookie).not.toMatch(/Secure/);
    expect(await readFlash(new Request(PAGE, { headers: { cookie: cookiePair(setCookie) } }))).toEqual({ kind: "success", text: "Table CUSTOMER saved." });
  });

  it("keeps the redirect's own status and headers", async () => {
    const res = await redirectWithFlash("/x", { kind: "error", text: "Nothing was saved." }, { status: 303, headers: { "X-Other": "1" } });
    expect(res.status).toBe(303);
    expect(res.headers.get("X-Other")).toBe("1");
    expect(await readFlash(new Request(PAGE, { headers: { cookie: cookiePair(res.headers.get("Set-Cookie")!) } }))).toEqual({
      kind: "error",
      text: "Nothing was saved.",
    });
  });

  it("is shown once: the page that shows it clears it, and the next page has none", async () => {
    const res = await redirectWithFlash("/x", "Review applied: 3 tables changed.");
    const first = await visit(cookiePair(res.headers.get("Set-Cookie")!));
    expect(first.shown).toEqual({ kind: "success", text: "Review applied: 3 tables changed." });
    expect(await first.response.text()).toBe("the page");
    expect(first.response.headers.get("Content-Type")).toBe("text/html");
    expect(first.setCookie).toMatch(/^dt_flash=;/);
    expect(first.setCookie).toMatch(/Max-Age=0/);

    // The browser dropped the cookie: the next page shows nothing and sets no cookie.
    const second = await visit(null);
    expect(second.shown).toBeNull();
    expect(second.setCookie).toBeNull();
  });

  it("waits for a page that shows it: not cleared by a redirect, nor by a data request that does not load the shell", async () => {
    const cookie = cookiePair(await flashCookieHeader("Application Legacy ERP created."));
    const redirected = await visit(cookie, { answer: () => redirect("/x?companyId=c1") });
    expect(redirected.setCookie).toBeNull();
    const notLoaded = await visit(cookie, { load: false });
    expect(notLoaded.setCookie).toBeNull();
    const shown = await visit(cookie);
    expect(shown.shown).toEqual({ kind: "success", text: "Application Legacy ERP created." });
    expect(shown.setCookie).toMatch(/Max-Age=0/);
  });

  it("never shows a message the portal did not sign, and clears it", async () => {
    const forged = `dt_flash=${btoa(JSON.stringify({ kind: "success", text: "Your account is closed." }))}`;
    const { shown, setCookie } = await visit(forged, { load: false });
    expect(shown).toBe("not loaded");
    expect(setCookie).toMatch(/Max-Age=0/);
    expect(await readFlash(new Request(PAGE, { headers: { cookie: forged } }))).toBeNull();
  });

  it("shortens a very long message", async () => {
    const cookie = cookiePair(await flashCookieHeader("x".repeat(2000)));
    const { text } = (await readFlash(new Request(PAGE, { headers: { cookie } })))!;
    expect(text).toHaveLength(500);
    expect(text.endsWith("…")).toBe(true);
  });

  it("clears with an expired cookie on the same path", async () => {
    const header = await clearFlashCookieHeader();
    expect(header).toMatch(/^dt_flash=;/);
    expect(header).toMatch(/Path=\//);
    expect(header).toMatch(/Expires=Thu, 01 Jan 1970/);
  });
});
