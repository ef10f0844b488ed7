/**
 * A signing key and token factory for tests of the bearer-protected APIs: real RS256 JWTs, verified by
 * the same `bearerAuth` as production, only with a local key set instead of the client portal's JWKS.
 */
import { SignJWT, createLocalJWKSet, exportJWK, generateKeyPair, type JWTPayload } from "jose";
import { DEFAULT_ROLES_CLAIM } from "../../../contracts/roles.ts";
import type { BearerOptions } from "../bearer.ts";

export const TEST_ISSUER = "http://issuer.test";
export const TEST_AUDIENCE = "urn:data-transformation:api";

export async function createTestSigner(rolesClaim = DEFAULT_ROLES_CLAIM) {
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "test-key", alg: "RS256", use: "sig" };
  const bearer: BearerOptions = {
    getKey: createLocalJWKSet({ keys: [jwk] }),
    issuer: TEST_ISSUER,
    audience: TEST_AUDIENCE,
    rolesClaim,
  };

  /** A token for `userId` with the role attribute `roles`; `overrides` may change any claim or the expiry. */
  async function token(
    userId: string,
    roles: string,
    overrides: { claims?: JWTPayload; expiresIn?: string | number; issuer?: string; audience?: string; key?: CryptoKey } = {},
  ) {
    return new SignJWT({ [rolesClaim]: roles, name: `User ${userId}`, ...overrides.claims })
      .setProtectedHeader({ alg: "RS256", kid: "test-key" })
      .setSubject(userId)
      .setIssuer(overrides.issuer ?? TEST_ISSUER)
      .setAudience(overrides.audience ?? TEST_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(overrides.expiresIn ?? "5m")
      .sign(overrides.key ?? privateKey);
  }

  return { bearer, token, jwks: { keys: [jwk] } };
}
