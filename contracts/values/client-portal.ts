/*
 * Zod-free: the browser imports these (labels, options, limits) without pulling in Zod. The schemas in
 * contracts/client-portal.ts build on them and re-export them, so the services import from there as before.
 */

/** The generic name shown when a tenant has not set one (spec §1). */
export const DEFAULT_BRAND_NAME = "Data Hub";

/**
 * The tab's icon of the portal and the client portal's pages, a data URL so that neither asks for a
 * file: without one, every page's /favicon.ico was a redirect to the sign-in page in the portal and a
 * 404 in the client portal.
 */
export const FAVICON_HREF = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1f4f9c"/>' +
    '<path d="M7 11h12m-4-4 4 4-4 4M25 21H13m4-4-4 4 4 4" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/></svg>',
)}`;
