import { Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useRouteLoaderData } from "react-router";
import type { Branding } from "../contracts/client-portal";
import { DEFAULT_BRAND_NAME, FAVICON_HREF } from "../contracts/values/client-portal";
import { parseRoleAttribute, readableRole } from "../contracts/roles";
import type { Route } from "./+types/root";
import "./app.css";
import { SessionWatcher } from "./components/layout/session-watcher";
import { SiteFooter } from "./components/layout/site-footer";
import { SiteHeader } from "./components/layout/site-header";
import { pageTitleOf } from "./components/layout/breadcrumbs";
import { RouteErrorBoundary } from "./components/layout/route-error";
import type { Caller } from "./lib/api.server";
import { getBranding, getProductInfo } from "./lib/api/product.server";
import { getAuth, ProviderUnavailableError } from "./lib/auth.server";
import { memoize } from "./lib/memo.server";
import type { AuthSession } from "./lib/session.server";
import { useNonce } from "./lib/nonce";
import { env } from "./lib/env.server";
import { serverTimingHeader } from "./lib/service-trace.server";
import { withSecurityHeaders } from "./lib/security-headers.server";
import { refuseMalformedAddress } from "./lib/address.server";
import { MAIN_ID, SkipLink } from "./components/layout/skip-link";
import { useFocusOnNavigation } from "./components/layout/route-focus";

const DEFAULT_BRANDING: Branding = { logoUrl: null, name: DEFAULT_BRAND_NAME, termsAndConditions: null };

/** Both change only with an admin's edit or a deploy: fetched once a minute, not on every page. */
const ONE_MINUTE = 60_000;
const loadBranding = memoize(ONE_MINUTE, getBranding);
// The version needs a signed-in caller to ask with, but is the same for everybody. The shared promise
// must never carry one user's answer (a 401's redirect clears that user's cookie): failures become
// plain errors here, and the caller's own 401 is handled by the guards of the page.
const loadVersion = memoize(ONE_MINUTE, (as: Caller) =>
  getProductInfo(as).then(
    (info) => info.version,
    () => Promise.reject(new Error("product info unavailable")),
  ),
);

/**
 * Every answer of the portal gets its security headers here: pages (entry.server has set their nonce'd
 * policy already), data requests, redirects and resource routes. With SERVER_TIMING=true, also the
 * time the request waited on the services and the number of sequential round trips (service-trace).
 * Then an address whose path does not decode is refused with the product's 400 page, before any loader.
 */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request }, next) => {
    const response = withSecurityHeaders(await next(), request);
    if (env.SERVER_TIMING) response.headers.append("Server-Timing", serverTimingHeader(request));
    return response;
  },
  ({ request, params }) => refuseMalformedAddress(request, params),
];

export async function loader({ request }: Route.LoaderArgs) {
  // While the provider is down the session is kept: show who is signed in, ask nothing with its token.
  let identity: AuthSession | null = null;
  const authenticated = await getAuth(request).catch((err: unknown) => {
    if (!(err instanceof ProviderUnavailableError)) throw err;
    identity = err.auth;
    return null;
  });
  const as = authenticated ? { request, authenticated } : null;
  // A redirect (401 → /login) must pass; any other failure only costs the branding or the version.
  const orElse = <T,>(fallback: T) => (err: unknown) => {
    if (err instanceof Response) throw err;
    return fallback;
  };
  const [branding, version] = await Promise.all([
    loadBranding().catch(orElse(DEFAULT_BRANDING)),
    as ? loadVersion(as).catch(orElse(null)) : null,
  ]);
  const who: AuthSession | null = authenticated?.auth ?? identity;
  const user = who ? { id: who.userId, name: who.name, roles: parseRoleAttribute(who.roles) } : null;
  return { user, branding, version };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const branding = data?.branding ?? DEFAULT_BRANDING;
  const user = data?.user ?? null;
  // The role that counts is the one in the selected company (the shell knows it); elsewhere the identity's.
  const shell = useRouteLoaderData("routes/shell") as { roles: string[]; company: { name: string } | null } | undefined;
  const roles = shell?.roles ?? user?.roles ?? [];
  const roleLabel = roles.length ? roles.map(readableRole).join(", ") : null;
  const nonce = useNonce();
  const title = pageTitleOf(useMatches(), `Data Transformation · ${branding.name}`);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <link rel="icon" href={FAVICON_HREF} />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        <SkipLink />
        <SiteHeader branding={branding} user={user ? { name: user.name, roleLabel, company: shell?.company?.name ?? null } : null} />
        <div className="flex flex-1 flex-col">{children}</div>
        <SiteFooter branding={branding} version={data?.version ?? null} />
        {user ? <SessionWatcher /> : null}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  useFocusOnNavigation();
  return <Outlet />;
}


export function ErrorBoundary() {
  return (
    <main id={MAIN_ID} tabIndex={-1} className="flex-1">
      <RouteErrorBoundary />
    </main>
  );
}
