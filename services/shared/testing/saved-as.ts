/**
 * The name a browser saves a download as, read from its Content-Disposition as RFC 6266 says a browser
 * reads it: `filename*` (UTF-8, percent-encoded) when there is one, `filename` otherwise; null without a
 * name. The header is read by its grammar (a type, then `; name=token` or `; name="quoted"`), never split
 * at ";", and a header outside it (an unquoted space, a stray quote) is thrown, as no browser reads it.
 */
export function savedAs(disposition: string | null): string | null {
  if (!disposition) return null;
  const token = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
  const type = new RegExp(`^\\s*${token}\\s*`).exec(disposition);
  if (!type) throw new Error(`no disposition type: ${disposition}`);
  const param = new RegExp(`;\\s*(${token})\\s*=\\s*("(?:[^"\\\\]|\\\\.)*"|${token})\\s*`, "y");
  const params = new Map<string, string>();
  param.lastIndex = type[0].length;
  while (param.lastIndex < disposition.length) {
    const m = param.exec(disposition);
    if (!m) throw new Error(`not a Content-Disposition a browser reads: ${disposition}`);
    params.set(m[1]!.toLowerCase(), m[2]!.startsWith('"') ? m[2]!.slice(1, -1).replace(/\\(.)/g, "$1") : m[2]!);
  }
  const extended = params.get("filename*");
  if (extended !== undefined) {
    const m = /^UTF-8'[^']*'(.*)$/i.exec(extended);
    if (!m) throw new Error(`filename* not in UTF-8: ${extended}`);
    return decodeURIComponent(m[1]!);
  }
  return params.get("filename") ?? null;
}
