import type { Kysely } from "kysely";
import type { Adapter, AdapterPayload } from "oidc-provider";
import type { Database } from "./schema.ts";

/**
 * oidc-provider's storage on our database, so that sessions, interactions, grants, codes and
 * refresh tokens survive a restart and are shared by every process on PostgreSQL.
 * One table for every model, keyed by (model, id).
 */
export function createOidcAdapterFactory(db: Kysely<Database>) {
  return (model: string): Adapter => new KyselyOidcAdapter(db, model);
}

const GRANTABLE_MODELS = [
  "AccessToken",
  "AuthorizationCode",
  "RefreshToken",
  "DeviceCode",
  "BackchannelAuthenticationRequest",
  "PreAuthorizedCode",
];

const iso = (ms: number) => new Date(ms).toISOString();

class KyselyOidcAdapter implements Adapter {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly model: string,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
    const row = {
      payload: JSON.stringify(payload),
      grant_id: payload.grantId ?? null,
      user_code: payload.userCode ?? null,
      uid: payload.uid ?? null,
      expires_at: expiresIn ? iso(Date.now() + expiresIn * 1000) : null,
      // A fresh payload replaces the old one whole, as the provider's own adapter does.
      consumed_at: null,
    };
    await this.db
      .insertInto("oidc_payloads")
      .values({ model: this.model, id, ...row })
      .onConflict((oc) => oc.columns(["model", "id"]).doUpdateSet(row))
      .execute();
  }

  async find(id: string) {
    return this.findWhere("id", id);
  }

  async findByUid(uid: string) {
    return this.findWhere("uid", uid);
  }

  async findByUserCode(userCode: string) {
    return this.findWhere("user_code", userCode);
  }

  async consume(id: string) {
    await this.db
      .updateTable("oidc_payloads")
      .set({ consumed_at: iso(Date.now()) })
      .where("model", "=", this.model)
      .where("id", "=", id)
      .execute();
  }

  async destroy(id: string) {
    await this.db.deleteFrom("oidc_payloads").where("model", "=", this.model).where("id", "=", id).execute();
  }

  async revokeByGrantId(grantId: string) {
    // Every token of the grant goes, whichever model's adapter is asked (as in the provider's own adapter).
    await this.db
      .deleteFrom("oidc_payloads")
      .where("grant_id", "=", grantId)
      .where("model", "in", GRANTABLE_MODELS)
      .execute();
  }

  private async findWhere(column: "id" | "uid" | "user_code", value: string): Promise<AdapterPayload | undefined> {
    const row = await this.db
      .selectFrom("oidc_payloads")
      .select(["payload", "expires_at", "consumed_at"])
      .where("model", "=", this.model)
      .where(column, "=", value)
      .executeTakeFirst();
    if (!row) return undefined;
    if (row.expires_at && Date.parse(row.expires_at) <= Date.now()) return undefined;
    const payload = JSON.parse(row.payload) as AdapterPayload;
    if (row.consumed_at) payload.consumed = Math.floor(Date.parse(row.consumed_at) / 1000);
    return payload;
  }
}

/** Removes expired rows; the provider ignores them already, this only keeps the table small. */
export async function purgeExpiredOidcPayloads(db: Kysely<Database>, now = new Date()) {
  const result = await db.deleteFrom("oidc_payloads").where("expires_at", "<=", now.toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
