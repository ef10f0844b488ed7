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

/** The path and query of a request, the page a user came from. */
export function requestPath(request: Request): string {
  const url = new URL(request.url);
  return url.pathname + url.search;
}

export function loginPath(redirectTo: string): string {
  return `/login?${new URLSearchParams({ redirectTo: safeRedirect(redirectTo) })}`;
}
