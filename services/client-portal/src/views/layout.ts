import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import type { Branding } from "../../../../contracts/client-portal.ts";
import { FAVICON_HREF } from "../../../../contracts/values/client-portal.ts";

export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/** Renders a template to the plain string oidc-provider's page hooks and c.html() both accept. */
export async function render(view: Html): Promise<string> {
  return (await view).toString();
}

const styles = `
:root{color-scheme:light;--ink:#1f2937;--muted:#4b5563;--line:#d1d5db;--brand:#1d4ed8;--brand-dark:#1e3a8a;--danger:#b91c1c;--bg:#f3f4f6}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:var(--bg);color:var(--ink);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;padding:1rem}
main{width:100%;max-width:26rem;background:#fff;border:1px solid var(--line);border-radius:.75rem;padding:2rem;box-shadow:0 1px 3px rgba(0,0,0,.08)}
main.wide{max-width:40rem}
.brand{display:flex;flex-direction:column;align-items:center;gap:.5rem;margin-bottom:1.5rem;text-align:center}
.brand img,.brand svg{height:3rem;width:auto;max-width:12rem}
h1{font-size:1.5rem;margin:0}
h2{font-size:1.125rem;margin:1.5rem 0 .75rem}
p{margin:.5rem 0}
.lead{color:var(--muted);margin:0}
form{display:flex;flex-direction:column;gap:1rem}
label{font-weight:600;display:block;margin-bottom:.25rem}
input{width:100%;font:inherit;padding:.625rem .75rem;border:1px solid #6b7280;border-radius:.375rem;background:#fff;color:var(--ink)}
input[aria-invalid=true]{border-color:var(--danger)}
button,.button{display:inline-block;width:100%;font:inherit;font-weight:600;text-align:center;text-decoration:none;padding:.625rem 1rem;border:0;border-radius:.375rem;background:var(--brand);color:#fff;cursor:pointer}
button:hover,.button:hover{background:var(--brand-dark)}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
a{color:var(--brand)}
.alert{border:1px solid var(--danger);background:#fef2f2;color:var(--danger);border-radius:.375rem;padding:.75rem 1rem;margin-bottom:1rem}
.terms{font-size:.875rem;color:var(--muted);margin-top:1.5rem;white-space:pre-line}
.products{list-style:none;margin:0;padding:0;display:grid;gap:.75rem}
.products a{display:block;border:1px solid var(--line);border-radius:.5rem;padding:1rem;text-decoration:none;color:var(--ink)}
.products a:hover{border-color:var(--brand)}
.products strong{display:block;color:var(--brand);font-size:1.0625rem}
.secondary{margin-top:1rem;text-align:center}
`;

/** Only http(s) or same-origin logo addresses are rendered; anything else falls back to the default logo. */
function safeLogoUrl(url: string | null): string | null {
  if (!url) return null;
  if (url.startsWith("/") && !url.startsWith("//")) return url;
  return /^https?:\/\//i.test(url) ? url : null;
}

const LOGO_SHAPES = `<rect width="48" height="48" rx="10" fill="#1d4ed8"/><path d="M12 16h24M12 24h16M12 32h24" stroke="#fff" stroke-width="4" stroke-linecap="round"/>`;

/** The default logo as a file (GET /assets/default-logo.svg), for clients that show it too. */
export const DEFAULT_LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48">${LOGO_SHAPES}</svg>`;

/** The default logo, inline so the page needs no second request; named like an img's alt text. */
function defaultLogo(name: string) {
  return html`<svg role="img" aria-label="${name}" viewBox="0 0 48 48" xmlns="http://www.w3.org/2000/svg"><title>${name}</title>${raw(LOGO_SHAPES)}</svg>`;
}

export function brandHeader(branding: Branding, lead?: string) {
  const logo = safeLogoUrl(branding.logoUrl);
  return html`<header class="brand">
    ${logo ? html`<img src="${logo}" alt="${branding.name}">` : defaultLogo(branding.name)}
    <h1>${branding.name}</h1>
    ${lead ? html`<p class="lead">${lead}</p>` : ""}
  </header>`;
}

export function layout(options: { title: string; branding: Branding; body: Html; lead?: string; wide?: boolean; head?: Html }) {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${options.title} · ${options.branding.name}</title>
<link rel="icon" href="${FAVICON_HREF}">
<style>${raw(styles)}</style>
${options.head ?? ""}
</head>
<body>
<main${options.wide ? raw(' class="wide"') : ""}>
${brandHeader(options.branding, options.lead)}
${options.body}
</main>
</body>
</html>`;
}
