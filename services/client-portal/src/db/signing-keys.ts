import crypto from "node:crypto";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JSONWebKeySet, type JWK } from "jose";
import type { Kysely } from "kysely";
import type { Database } from "./schema.ts";

const PURPOSE = "oidc-signing";

export type PrivateJwks = { keys: JWK[] };

/**
 * The provider's signing keys: OIDC_JWKS when ops set it, otherwise one RS256 key generated on the
 * first start and kept in the database, so tokens stay valid across restarts and every process signs
 * with the same key. The key is stored unencrypted: protect the database, or hand in OIDC_JWKS from a
 * secret store.
 */
export async function loadSigningKeys(db: Kysely<Database>, configured?: { keys: Record<string, unknown>[] }): Promise<PrivateJwks> {
  if (configured) return { keys: configured.keys as JWK[] };

  const stored = await readStored(db);
  if (stored) return { keys: [stored] };

  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  await db
    .insertInto("signing_keys")
    .values({
      kid,
      purpose: PURPOSE,
      private_jwk: JSON.stringify({ ...jwk, kid, alg: "RS256", use: "sig" }),
      created_at: new Date().toISOString(),
    })
    // Another process may have won the race on an empty database: then its key is the key.
    .onConflict((oc) => oc.column("purpose").doNothing())
    .execute();
  return { keys: [(await readStored(db))!] };
}

async function readStored(db: Kysely<Database>): Promise<JWK | undefined> {
  const row = await db.selectFrom("signing_keys").select("private_jwk").where("purpose", "=", PURPOSE).executeTakeFirst();
  return row ? (JSON.parse(row.private_jwk) as JWK) : undefined;
}

/** The public halves, for verifying our own access tokens without a round trip to the JWKS endpoint. */
export function toPublicJwks(jwks: PrivateJwks): JSONWebKeySet {
  return {
    keys: jwks.keys.map((jwk) => {
      const pub = crypto.createPublicKey({ key: jwk as crypto.JsonWebKey, format: "jwk" }).export({ format: "jwk" });
      return { ...pub, ...(jwk.kid ? { kid: jwk.kid } : {}), ...(jwk.alg ? { alg: jwk.alg } : {}), use: "sig" } as JWK;
    }),
  };
}
