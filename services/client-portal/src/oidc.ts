import type { Kysely } from "kysely";
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from "oidc-provider";
import type { Logger } from "../../shared/logger.ts";
import { DEFAULT_BRANDING, getBranding } from "./db/branding.ts";
import { createOidcAdapterFactory } from "./db/oidc-adapter.ts";
import type { Database } from "./db/schema.ts";
import type { PrivateJwks } from "./db/signing-keys.ts";
import { findUserById } from "./db/users.ts";
import type { ClientPortalEnv } from "./env.ts";
import { render } from "./views/layout.ts";
import { loggedOutPage, logoutPage, messagePage } from "./views/pages.ts";

/** Where the provider sends the browser to sign in; served by interactions.ts. */
export const INTERACTION_PATH = "/interaction";

/**
 * The userinfo endpoint the discovery document names. Served by api.ts, not by the provider: the
 * provider's own userinfo only takes opaque tokens without an audience, and the portal holds JWT
 * access tokens for the APIs.
 */
export const USERINFO_PATH = "/me";

const HOUR = 60 * 60;

/**
 * The OpenID Connect provider. One registered, first-party, confidential client: the portal.
 * Authorization code with PKCE (S256 only), no consent screen, refresh tokens rotated on every use,
 * JWT access tokens for the APIs (audience API_AUDIENCE) carrying the display name and role attribute.
 */
export function createProvider(options: { env: ClientPortalEnv; db: Kysely<Database>; logger: Logger; jwks: PrivateJwks }) {
  const { env, db, logger } = options;
  const rolesClaim = env.ROLES_CLAIM;
  const firstParty = (clientId: string | undefined) => clientId === env.PORTAL_CLIENT_ID;

  async function accountClaims(accountId: string) {
    const user = await findUserById(db, accountId);
    return user ? { sub: user.id, name: user.name, [rolesClaim]: user.roles } : undefined;
  }

  const configuration: Configuration = {
    adapter: createOidcAdapterFactory(db),
    jwks: options.jwks as Configuration["jwks"],
    cookies: { keys: env.OIDC_COOKIE_KEYS },
    clients: [
      {
        client_id: env.PORTAL_CLIENT_ID,
        client_secret: env.PORTAL_CLIENT_SECRET,
        client_name: "Data Transformation",
        redirect_uris: env.PORTAL_REDIRECT_URIS,
        post_logout_redirect_uris: env.PORTAL_POST_LOGOUT_REDIRECT_URIS,
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    clientAuthMethods: ["client_secret_basic", "client_secret_post"],
    responseTypes: ["code"],
    pkce: { required: () => true },
    scopes: ["openid", "profile", "offline_access"],
    // The role attribute rides on "openid": authorization needs it whatever else a client asks for.
    claims: { openid: ["sub", rolesClaim], profile: ["name"] },
    // With JWT access tokens the ID token is the portal's one source of the user's claims.
    conformIdTokenClaims: false,

    async findAccount(_ctx, sub) {
      const claims = await accountClaims(sub);
      if (!claims) return undefined;
      return { accountId: sub, claims: () => claims };
    },

    async extraTokenClaims(_ctx, token) {
      if (token.kind !== "AccessToken" || !token.accountId) return undefined;
      const claims = await accountClaims(token.accountId);
      return claims ? { name: claims.name, [rolesClaim]: claims[rolesClaim] } : undefined;
    },

    /**
     * The first-party portal gets its grant without a consent screen. The provider asks for consent
     * whenever the grant lacks a requested scope, so the grant is topped up with what the portal asks.
     */
    async loadExistingGrant(ctx) {
      const { oidc } = ctx;
      const clientId = oidc.client!.clientId;
      const grantId = oidc.result?.consent?.grantId ?? oidc.session!.grantIdFor(clientId);
      const existing = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
      if (!firstParty(clientId)) return existing;

      const grant = existing ?? new oidc.provider.Grant({ clientId, accountId: oidc.session!.accountId! });
      const scopes = [...oidc.requestParamOIDCScopes].join(" ");
      if (scopes) grant.addOIDCScope(scopes);
      for (const [indicator, server] of Object.entries(oidc.resourceServers ?? {})) {
        grant.addResourceScope(indicator, server.scope);
      }
      await grant.save();
      return grant;
    },

    // offline_access is only kept with prompt=consent, which the portal never sees: refresh tokens
    // are a property of the client instead.
    issueRefreshToken: async (_ctx, client) => firstParty(client.clientId) && client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: true,

    routes: { userinfo: USERINFO_PATH },
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}` },

    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      // The portal asks whether its refresh token still lives, to notice a session ended here.
      introspection: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      userinfo: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx, _client, oneOf) => oneOf ?? env.API_AUDIENCE,
        // Without this the token endpoint would issue opaque userinfo tokens whenever openid was asked for.
        useGrantedResource: async () => true,
        async getResourceServerInfo(_ctx, resourceIndicator) {
          if (resourceIndicator !== env.API_AUDIENCE) throw new errors.InvalidTarget();
          return {
            scope: "",
            audience: env.API_AUDIENCE,
            accessTokenTTL: env.ACCESS_TOKEN_TTL_SECONDS,
            accessTokenFormat: "jwt",
            jwt: { sign: { alg: "RS256" } },
          };
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx, form) {
          ctx.type = "html";
          ctx.body = await render(
            logoutPage({
              branding: await safeBranding(db),
              providerForm: form,
              autoSubmit: firstParty(ctx.oidc.client?.clientId),
              portalUrl: env.PORTAL_URL,
            }),
          );
        },
        async postLogoutSuccessSource(ctx) {
          ctx.type = "html";
          ctx.body = await render(loggedOutPage({ branding: await safeBranding(db), portalUrl: env.PORTAL_URL }));
        },
      },
    },

    async renderError(ctx, out, error) {
      if (ctx.status >= 500) logger.error("oidc error page", { err: error, path: ctx.path });
      ctx.type = "html";
      ctx.body = await render(
        messagePage({
          branding: await safeBranding(db),
          title: ctx.status >= 500 ? "Something went wrong" : "This request cannot be completed",
          message: ctx.status >= 500 ? "Try again in a moment." : describeError(out.error, out.error_description),
          backUrl: env.PORTAL_URL,
        }),
      );
    },

    // The portal talks to this provider from its server only; no browser origin needs CORS here.
    clientBasedCORS: () => false,

    ttl: {
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? env.ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      IdToken: HOUR,
      Interaction: HOUR,
      Session: 12 * HOUR,
      Grant: 14 * 24 * HOUR,
      // Refresh tokens also end with the sign-in session (they are not offline_access tokens).
      RefreshToken: 12 * HOUR,
    },
  };

  const provider = new Provider(env.CLIENT_PORTAL_URL, configuration);
  provider.proxy = env.TRUST_PROXY;
  provider.on("server_error", (_ctx: KoaContextWithOIDC, err: Error) => logger.error("oidc server error", { err }));
  return provider;
}

function describeError(code: unknown, description: unknown): string {
  const text = typeof description === "string" && description ? description : typeof code === "string" ? code : "invalid request";
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** The provider's pages must render even when the database is what failed. */
async function safeBranding(db: Kysely<Database>) {
  try {
    return await getBranding(db);
  } catch {
    return DEFAULT_BRANDING;
  }
}
