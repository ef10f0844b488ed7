import type { MiddlewareHandler } from "hono";
import { errors as joseErrors, jwtVerify, type CompactJWSHeaderParameters, type JWTVerifyGetKey } from "jose";
import { parseRoleAttribute } from "../../contracts/roles.ts";
import { apiError } from "./http.ts";
import type { Logger } from "./logger.ts";

/** Who is calling, as the verified access token says. Frozen: one object serves every request of a token. */
export type Caller = {
  readonly userId: string;
  readonly name: string | null;
  /** The role attribute split on `;` (compare case-insensitively with contracts/roles.ts). */
  readonly roles: readonly string[];
  /** The raw bearer token, to forward to the client portal API on the caller's behalf. */
  readonly token: string;
};

export type BearerOptions = {
  /** A key resolver: `createRemoteJWKSet(new URL(jwksUrl))` in production, a local set in tests. */
  getKey: JWTVerifyGetKey;
  issuer: string;
  audience: string;
  rolesClaim: string;
  /** How many verified tokens are remembered (createVerifiedTokens); default 10,000. */
  verifiedTokensMax?: number;
};

export type BearerVariables = { caller: Caller };

export const KEYS_UNAVAILABLE_MESSAGE = "The identity provider cannot be reached to check the sign-in. Try again in a moment.";

/**
 * Requires `Authorization: Bearer <JWT>` signed by the client portal, for this audience, unexpired.
 * None, a forged, an expired or a wrong-audience token answers 401 with the JSON error body.
 * When the provider's signing keys cannot be had (its JWKS URL is down, slow or answers an error),
 * nothing is known about the token: 503, so that a client keeps its session for when it is back.
 */
export function bearerAuth(options: BearerOptions, logger?: Logger): MiddlewareHandler<{ Variables: BearerVariables }> {
  const getKey = keysOrUnavailable(options.getKey);
  const verified = createVerifiedTokens(options.verifiedTokensMax ?? 10_000);
  return async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) {
      c.header("WWW-Authenticate", 'Bearer realm="api"');
      return apiError(c, 401, "unauthorized", ["A bearer token is required."]);
    }
    const token = match[1];
    try {
      c.set("caller", (await verified.caller(token, getKey)) ?? (await verify(token)));
    } catch (err) {
      if (err instanceof KeysUnavailableError) {
        logger?.warn("signing keys unavailable", { err: err.cause, requestId: c.get("requestId" as never) });
        return apiError(c, 503, "service_unavailable", [KEYS_UNAVAILABLE_MESSAGE]);
      }
      c.header("WWW-Authenticate", 'Bearer error="invalid_token"');
      const reason = err instanceof joseErrors.JWTExpired ? "The access token has expired." : "The access token is not valid.";
      return apiError(c, 401, "unauthorized", [reason]);
    }
    await next();
  };

  async function verify(token: string): Promise<Caller> {
    let key: unknown;
    const { payload, protectedHeader } = await jwtVerify(token, async (header, jws) => (key = await getKey(header, jws)), {
      issuer: options.issuer,
      audience: options.audience,
      algorithms: ["RS256", "PS256", "ES256", "EdDSA"],
    });
    if (typeof payload.sub !== "string" || !payload.sub) throw new joseErrors.JWTClaimValidationFailed("missing sub", payload, "sub");
    const caller: Caller = Object.freeze({
      userId: payload.sub,
      name: typeof payload.name === "string" ? payload.name : null,
      roles: Object.freeze(parseRoleAttribute(payload[options.rolesClaim])),
      token,
    });
    if (typeof payload.exp === "number") verified.remember(token, { caller, exp: payload.exp, header: protectedHeader, key });
    return caller;
  }
}

type VerifiedToken = { caller: Caller; exp: number; header: CompactJWSHeaderParameters; key: unknown };

/**
 * The callers of tokens whose signature and claims were checked, by token string: the RSA check
 * and the claims' parsing cost more than the rest of a cheap request, and a client sends the same
 * token until it expires. An entry is used only before the token's `exp` (so an expired token still
 * answers 401 "expired") and only while the key resolver still answers the very key that verified it:
 * the resolver runs on every request, so an unreachable key set is still a 503 and a key removed
 * from the set is still a 401. Tokens without `exp` are never kept. Oldest entries go first past `max`.
 */
function createVerifiedTokens(max: number) {
  const entries = new Map<string, VerifiedToken>();
  return {
    async caller(token: string, getKey: JWTVerifyGetKey): Promise<Caller | undefined> {
      const entry = entries.get(token);
      if (!entry) return undefined;
      if (entry.exp <= Date.now() / 1000) {
        entries.delete(token);
        return undefined;
      }
      const [protectedPart = "", payload = "", signature = ""] = token.split(".");
      const key = await getKey(entry.header, { protected: protectedPart, payload, signature });
      return key === entry.key ? entry.caller : undefined;
    },
    remember(token: string, entry: VerifiedToken) {
      entries.delete(token);
      entries.set(token, entry);
      if (entries.size > max) entries.delete(entries.keys().next().value!);
    },
  };
}

class KeysUnavailableError extends Error {
  override name = "KeysUnavailableError";
}

/**
 * What a key set throws as a verdict on the token: an `alg` it cannot serve, no key for the token's `kid`
 * and `alg`, or several. A remote set throws these only once it holds the keys (for an unknown kid it
 * fetches them again first).
 */
const TOKEN_VERDICTS = [joseErrors.JWKSNoMatchingKey, joseErrors.JWKSMultipleMatchingKeys, joseErrors.JOSENotSupported];

/**
 * `getKey`, where anything else it throws becomes a KeysUnavailableError: a failed fetch of the key set
 * (a TypeError from fetch, JWKSTimeout, the plain JOSEError of a non-200 or unparsable answer) or a
 * malformed one (JWKSInvalid). Only the resolver is wrapped: a bad signature, claim or header found by
 * jwtVerify itself stays a 401.
 */
function keysOrUnavailable(getKey: JWTVerifyGetKey): JWTVerifyGetKey {
  return async (header, token) => {
    try {
      return await getKey(header, token);
    } catch (err) {
      if (TOKEN_VERDICTS.some((verdict) => err instanceof verdict)) throw err;
      throw new KeysUnavailableError("The signing keys could not be fetched.", { cause: err });
    }
  };
}
