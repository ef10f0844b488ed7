/**
 * Table types of the client portal database. Timestamps are ISO-8601 text and flags are integers,
 * so that SQLite and PostgreSQL store and compare them the same way.
 */
export interface UsersTable {
  id: string;
  /** Stored lower-cased: that is what makes it unique case-insensitively on both engines. */
  email: string;
  name: string;
  password_hash: string;
  /** The role attribute, semicolon-separated, as the identity carries it. */
  roles: string;
  created_at: string;
}

export interface PermissionsTable {
  user_id: string;
  company_id: string;
  product_role_name: string;
}

export interface BrandingTable {
  /** Always 1: there is one tenant branding. */
  id: number;
  logo_url: string | null;
  name: string;
  terms_and_conditions: string | null;
  updated_at: string;
}

/** oidc-provider's models (sessions, interactions, grants, codes, refresh tokens, …) as JSON. */
export interface OidcPayloadsTable {
  model: string;
  id: string;
  payload: string;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: string | null;
  consumed_at: string | null;
}

export interface SigningKeysTable {
  kid: string;
  /** What the key is for; unique, so two processes starting at once keep the same key. */
  purpose: string;
  private_jwk: string;
  created_at: string;
}

/** A company's schemes (migration 0002). */
export interface AdminDataSourcesTable {
  id: string;
  company_id: string;
  name: string;
  description: string | null;
  created_at: string;
}

export interface Database {
  users: UsersTable;
  permissions: PermissionsTable;
  branding: BrandingTable;
  oidc_payloads: OidcPayloadsTable;
  signing_keys: SigningKeysTable;
  admin_data_sources: AdminDataSourcesTable;
}
