/**
 * Only a same-origin relative path may be a `redirectTo`: "/x?y#z", never "//host", "/\\host",
 * "https://…" or "javascript:…". Anything else becomes `fallback` ("/").
 *
 * The value is checked twice: as it came, and as it leaves after WHATWG normalisation. Dot segments
 * can turn a harmless-looking path into a protocol-relative one ("/..//evil.com" and "/.//evil.com"
 * both normalise to "//evil.com"), so the final value is what decides.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || !isLocalPath(to)) return fallback;
  try {
    const url = new URL(to, BASE);
    if (url.origin !== BASE) return fallback;
    const normalised = url.pathname + url.search + url.hash;
    return isLocalPath(normalised) ? normalised : fallback;
  } catch {
    return fallback;
  }
}

const BASE = "http://portal.invalid";

/**
 * A path of this origin: exactly one leading "/" (not "//", not "/\\"), and no control characters
 * or backslashes, which some browsers reinterpret as another origin.
 */
function isLocalPath(path: string): boolean {
  return path.startsWith("/") && path[1] !== "/" && path[1] !== "\\" && !/[\u0000-\u001f\u007f\\]/.test(path);
}

/**
 * The page a user came from: a page's own path and query, or, for a post, the page of this portal
 * whose form it was (its Referer): the action's URL may be another route's (a fetcher's, /sidebar) or
 * carry `?index`, and a session that ended mid-form should bring the user back to that form after
 * signing in, not to where it posted.
 */
export function requestPath(request: Request): string {
  const url = new URL(request.url);
  const page = request.method === "GET" || request.method === "HEAD" ? null : refererPath(request, url);
  return page ?? url.pathname + url.search;
}

/** The Referer's path and query when it is a page of this portal (same host), else null. */
function refererPath(request: Request, url: URL): string | null {
  try {
    const referer = new URL(request.headers.get("Referer") ?? "");
    return referer.host === url.host && isLocalPath(referer.pathname) ? referer.pathname + referer.search : null;
  } catch {
    return null;
  }
}

export function loginPath(redirectTo: string): string {
  return `/login?${new URLSearchParams({ redirectTo: safeRedirect(redirectTo) })}`;
}
