import type { MiddlewareHandler } from "hono";
import { errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from "jose";
import { parseRoleAttribute } from "../../contracts/roles.ts";
import { apiError } from "./http.ts";

/** Who is calling, as the verified access token says. */
export type Caller = {
  userId: string;
  name: string | null;
  /** The role attribute split on `;` (compare case-insensitively with contracts/roles.ts). */
  roles: string[];
  /** The raw bearer token, to forward to the client portal API on the caller's behalf. */
  token: string;
};

export type BearerOptions = {
  /** A key resolver: `createRemoteJWKSet(new URL(jwksUrl))` in production, a local set in tests. */
  getKey: JWTVerifyGetKey;
  issuer: string;
  audience: string;
  rolesClaim: string;
};

export type BearerVariables = { caller: Caller };

/**
 * Requires `Authorization: Bearer <JWT>` signed by the client portal, for this audience, unexpired.
 * None, a forged, an expired or a wrong-audience token answers 401 with the JSON error body.
 */
export function bearerAuth(options: BearerOptions): MiddlewareHandler<{ Variables: BearerVariables }> {
  return async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) {
      c.header("WWW-Authenticate", 'Bearer realm="api"');
      return apiError(c, 401, "unauthorized", ["A bearer token is required."]);
    }
    const token = match[1];
    try {
      const { payload } = await jwtVerify(token, options.getKey, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms: ["RS256", "PS256", "ES256", "EdDSA"],
      });
      if (typeof payload.sub !== "string" || !payload.sub) throw new joseErrors.JWTClaimValidationFailed("missing sub", payload, "sub");
      c.set("caller", {
        userId: payload.sub,
        name: typeof payload.name === "string" ? payload.name : null,
        roles: parseRoleAttribute(payload[options.rolesClaim]),
        token,
      });
    } catch (err) {
      c.header("WWW-Authenticate", 'Bearer error="invalid_token"');
      const reason = err instanceof joseErrors.JWTExpired ? "The access token has expired." : "The access token is not valid.";
      return apiError(c, 401, "unauthorized", [reason]);
    }
    await next();
  };
}
