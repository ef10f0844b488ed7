/**
 * A real sign-in without a browser, for the bench: the portal's /login sends us to the client portal's
 * OpenID Connect provider, whose form we post like a person would, and the callback leaves the portal's
 * session cookie in the jar. Every hop is a plain HTTP request, so this is exactly what a browser does.
 */
import { DEMO_PASSWORD } from "../demo-data.ts";

/** Cookies per origin (cookies ignore ports, but keeping them apart never sends a wrong one). */
export class CookieJar {
  private byHost = new Map<string, Map<string, string>>();

  private jar(url: string) {
    const host = new URL(url).host;
    let jar = this.byHost.get(host);
    if (!jar) this.byHost.set(host, (jar = new Map()));
    return jar;
  }

  header(url: string): string {
    return [...this.jar(url)].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  /** fetch without following redirects, sending and keeping cookies. */
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.header(url);
    if (cookie) headers.set("cookie", cookie);
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    const jar = this.jar(url);
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*(expires=.*1970|max-age=0)/i.test(a));
      if (!value || expired) jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  }

  /** Follows redirects (at most 20), answering the last response and its URL. */
  async follow(url: string, init: RequestInit = {}): Promise<{ res: Response; url: string }> {
    let res = await this.fetch(url, init);
    for (let hops = 0; res.status >= 300 && res.status < 400 && hops < 20; hops++) {
      await res.body?.cancel();
      url = new URL(res.headers.get("location")!, url).toString();
      res = await this.fetch(url);
    }
    return { res, url };
  }
}

/** Signs `email` in to the portal at `portalUrl`; answers the jar holding the portal's session. */
export async function signIn(portalUrl: string, email: string, password = DEMO_PASSWORD): Promise<CookieJar> {
  const jar = new CookieJar();
  const { res: form, url: formUrl } = await jar.follow(`${portalUrl}/login`);
  const html = await form.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no sign-in form at ${formUrl} (status ${form.status})`);
  const { res, url } = await jar.follow(new URL(action.replaceAll("&amp;", "&"), formUrl).toString(), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password }).toString(),
  });
  await res.body?.cancel();
  if (new URL(url).origin !== new URL(portalUrl).origin || !jar.header(portalUrl)) {
    throw new Error(`sign-in of ${email} ended at ${url} (status ${res.status})`);
  }
  return jar;
}

/**
 * An access token for the data API, as the portal gets one: the authorization code flow with PKCE as
 * the portal's client (whose secret `npm start` keeps in DATA_DIR/.secrets.json), signed in as `email`.
 */
export async function accessToken(
  urls: { portal: string; clientPortal: string },
  client: { id: string; secret: string },
  email: string,
  password = DEMO_PASSWORD,
): Promise<string> {
  const { createHash, randomBytes } = await import("node:crypto");
  const verifier = randomBytes(32).toString("base64url");
  const redirectUri = `${urls.portal}/auth/callback`;
  const discovery = (await (await fetch(`${urls.clientPortal}/.well-known/openid-configuration`)).json()) as {
    authorization_endpoint: string;
    token_endpoint: string;
  };
  const authorize = new URL(discovery.authorization_endpoint);
  authorize.search = new URLSearchParams({
    response_type: "code",
    client_id: client.id,
    redirect_uri: redirectUri,
    scope: "openid profile",
    state: randomBytes(8).toString("hex"),
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  }).toString();
  const jar = new CookieJar();
  const { res: form, url: formUrl } = await jar.follow(authorize.toString());
  const action = /<form method="post" action="([^"]+)"/.exec(await form.text())?.[1];
  if (!action) throw new Error(`no sign-in form at ${formUrl}`);
  // Follow the provider's redirects, stopping at the portal's callback: its code is ours to redeem.
  let res = await jar.fetch(new URL(action.replaceAll("&amp;", "&"), formUrl).toString(), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password }).toString(),
  });
  let location = res.headers.get("location");
  for (let hops = 0; location && !location.startsWith(redirectUri) && hops < 10; hops++) {
    res = await jar.fetch(new URL(location, urls.clientPortal).toString());
    location = res.headers.get("location");
  }
  const code = location ? new URL(location).searchParams.get("code") : null;
  if (!code) throw new Error(`no authorization code for ${email} (status ${res.status})`);
  const token = await fetch(discovery.token_endpoint, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`).toString("base64")}`,
    },
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri, code_verifier: verifier }).toString(),
  });
  const body = (await token.json()) as { access_token?: string; error?: string };
  if (!body.access_token) throw new Error(`token endpoint refused the code: ${JSON.stringify(body)}`);
  return body.access_token;
}
