/**
 * The one Content-Disposition of every download (the data API's files, and the portal's when a service
 * names none): `attachment; filename="…"` with the name as it is when it is plain printable ASCII; any
 * other name (Müller_Kunden.csv, a quote, a semicolon, a percent sign) also as RFC 6266's
 * `filename*=UTF-8''…` (RFC 5987 percent-encoding), which every current browser prefers, after an ASCII
 * `filename="…"` for one that reads only that: accents dropped (Müller as Muller), what is left outside
 * printable ASCII, a quote, a backslash, a semicolon, a percent sign or a slash as "_".
 */
export function attachment(fileName: string): string {
  // A control character is no part of a file name; half a surrogate pair is no character (encodeURIComponent throws).
  const name = fileName.replace(/[\u0000-\u001f\u007f]+/g, "_").replace(/\p{Cs}/gu, "\uFFFD");
  const ascii = name
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[^\x20-\x7e]|["\\;%/]/g, "_");
  if (ascii === name) return `attachment; filename="${ascii}"`;
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(name)}`;
}

/** RFC 5987's value-chars: UTF-8, percent-encoded but for its attr-chars (encodeURIComponent leaves ' ( ) * too). */
const encodeRfc5987 = (text: string) => encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
