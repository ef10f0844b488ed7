import { exportJWK, generateKeyPair } from "jose";
import { describe, expect, it } from "vitest";
import { createMigratedDatabase } from "../test-support.ts";
import { loadSigningKeys, toPublicJwks } from "./signing-keys.ts";

describe("signing keys", () => {
  it("generates one RS256 key on the first start and keeps using it after a restart", async () => {
    const { db, drop } = await createMigratedDatabase("sqlite");
    try {
      const first = await loadSigningKeys(db);
      const second = await loadSigningKeys(db);
      expect(first.keys).toHaveLength(1);
      expect(first.keys[0]).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig" });
      expect(second.keys[0]!.kid).toBe(first.keys[0]!.kid);
    } finally {
      await drop();
    }
  });

  it("uses OIDC_JWKS when given, and publishes only the public halves", async () => {
    const { db, drop } = await createMigratedDatabase("sqlite");
    try {
      const { privateKey } = await generateKeyPair("ES256", { extractable: true });
      const configured = { keys: [{ ...(await exportJWK(privateKey)), kid: "ops-key", alg: "ES256" }] };
      const jwks = await loadSigningKeys(db, configured);
      expect(jwks.keys[0]!.kid).toBe("ops-key");
      expect(await db.selectFrom("signing_keys").selectAll().execute()).toHaveLength(0);

      const pub = toPublicJwks(jwks).keys[0]!;
      expect(pub).toMatchObject({ kty: "EC", crv: "P-256", kid: "ops-key", alg: "ES256" });
      expect(pub).not.toHaveProperty("d");
    } finally {
      await drop();
    }
  });
});
