import crypto from "node:crypto";
import { env } from "./env.server";
import { SESSION_COOKIE_NAME } from "./session.server";

/**
 * The portal's response headers against framing, sniffing, leaking URLs and caching signed-in pages.
 * Applied to every answer: HTML documents (entry.server handleRequest, with the page's CSP nonce),
 * data requests, redirects and resource routes (the root middleware, which sees every answer).
 * Idempotent: applying it twice changes nothing, and a page's CSP is never replaced.
 */

/** A fresh CSP nonce for one HTML response: 128 random bits. */
export function newNonce(): string {
  return crypto.randomBytes(16).toString("base64");
}

const origin = (url: string) => new URL(url).origin;

/** An image source the policy must allow for the branding logo, or null when 'self' covers it. */
export function logoSource(logoUrl: string | null | undefined): string | null {
  if (!logoUrl || !/^https?:\/\//i.test(logoUrl)) return null;
  try {
    return origin(logoUrl);
  } catch {
    return null;
  }
}

/**
 * The policy of an HTML page. Scripts only from the portal or carrying this response's nonce (React
 * Router's inline hydration scripts get it through <ServerRouter nonce>, <Scripts>, <ScrollRestoration>);
 * forms only to the portal and the identity provider (logout is a form POST answered by a redirect
 * to the provider, which Chromium checks against form-action); never framed.
 */
export function documentPolicy(nonce: string, options: { imageSources?: (string | null | undefined)[] } = {}): string {
  const images = new Set(["'self'", "data:", origin(env.CLIENT_PORTAL_URL)]);
  for (const source of options.imageSources ?? []) if (source) images.add(source);
  const connect = ["'self'"];
  // Vite's dev server talks to the page over a WebSocket for hot reload.
  if (env.NODE_ENV === "development") connect.push("ws:", "wss:");
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    // The progress bars set their width in a style attribute; the stylesheet itself is a file.
    "style-src 'self' 'unsafe-inline'",
    `img-src ${[...images].join(" ")}`,
    "font-src 'self'",
    `connect-src ${connect.join(" ")}`,
    `form-action 'self' ${origin(env.OIDC_ISSUER)}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join("; ");
}

/** For answers that are not pages (redirects, JSON, files): nothing may load from them, nobody may frame them. */
export const NON_DOCUMENT_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** True when the request carries the portal's session cookie: its answer is one user's and must never be cached. */
export function carriesSession(request: Request): boolean {
  const cookie = request.headers.get("Cookie") ?? "";
  return cookie.split(";").some((part) => part.trim().startsWith(`${SESSION_COOKIE_NAME}=`));
}

/**
 * Sets the security headers on `headers`. `policy` is the page's CSP (documents); without one, a
 * response that has none gets NON_DOCUMENT_POLICY.
 */
export function applySecurityHeaders(headers: Headers, request: Request, policy?: string): void {
  if (policy) headers.set("Content-Security-Policy", policy);
  else if (!headers.has("Content-Security-Policy")) headers.set("Content-Security-Policy", NON_DOCUMENT_POLICY);
  headers.set("X-Frame-Options", "DENY");
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "same-origin");
  // A signed-in answer, or one that opens or ends a session, is one user's: never stored by a browser or proxy.
  // Nor is a redirect: where it sends depends on who is signed in, and a browser going Back takes a
  // stored one even once stale: a page's "sign in first" then sent a user signed in again back to
  // /login, which sent them to the page, until the browser gave up (with JavaScript off).
  if (carriesSession(request) || headers.has("Set-Cookie") || headers.has("Location")) headers.set("Cache-Control", "no-store");
}

/**
 * `applySecurityHeaders` on a Response whose headers may be immutable (one from fetch()): then a
 * copy with the same body, status and headers is returned.
 */
export function withSecurityHeaders(response: Response, request: Request): Response {
  try {
    applySecurityHeaders(response.headers, request);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    applySecurityHeaders(copy.headers, request);
    return copy;
  }
}
