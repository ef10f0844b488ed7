/**
 * Only a same-origin relative path may be a `redirectTo`: "/x?y#z", never "//host", "/\\host",
 * "https://…" or "javascript:…". Anything else becomes "/".
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || !to) return fallback;
  if (!to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  // Control characters and backslashes let some browsers reinterpret the path as another origin.
  if (/[\u0000-\u001f\\]/.test(to)) return fallback;
  try {
    const url = new URL(to, "http://portal.invalid");
    if (url.origin !== "http://portal.invalid") return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}

/** The path and query of a request, the page a user came from. */
export function requestPath(request: Request): string {
  const url = new URL(request.url);
  return url.pathname + url.search;
}

export function loginPath(redirectTo: string): string {
  return `/login?${new URLSearchParams({ redirectTo: safeRedirect(redirectTo) })}`;
}
