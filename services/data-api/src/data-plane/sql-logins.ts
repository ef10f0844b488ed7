/**
 * SQL credentials on the servers that hold project databases (issue 13; ARCHITECTURE.md §3a): each is
 * a LOGIN role of its own, made on every server, with no rights but what a workspace grants it (its
 * reader or writer role, which alone may CONNECT to the workspace's database). So a credential
 * reaches exactly the databases it was granted and cannot even connect to any other.
 *
 * The password is sent to PostgreSQL as a SCRAM-SHA-256 verifier computed here: the plain password
 * never reaches the server, its statement log or its error log, and nothing stores it. Expiry is the
 * server's own (VALID UNTIL), and so is the limit on sessions.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from "node:crypto";
import type pg from "pg";
import { SQL_CREDENTIAL_CONNECTION_LIMIT, type SqlLevel } from "../../../../contracts/values/sql-access.ts";
import { quoteIdentifier } from "./postgres-ddl.ts";
import { CREDENTIAL_LOGIN_PREFIX, databaseNameOf, inTransaction, rolesOf, takeMembership } from "./project-databases.ts";
import type { DataPlane } from "./servers.ts";

/** Where users' SQL tools reach the servers (env SQL_ACCESS_*); each server's own host and port by default. */
export type SqlAccessSettings = { host?: string | undefined; port?: number | undefined; sslmode?: string | undefined };

/** A credential's login: `dtc_` and 20 hex digits of its id, unlike any project's roles (`dt_…`). */
export function loginNameOf(credentialId: string): string {
  const hex = credentialId.replaceAll("-", "").toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new Error(`Not a credential id: ${credentialId}`);
  return `${CREDENTIAL_LOGIN_PREFIX}${hex.slice(0, 20)}`;
}

/** 144 bits, URL-safe: pasted into a connection string as is. */
export function newPassword(): string {
  return randomBytes(18).toString("base64url");
}

/** PostgreSQL's stored form of a SCRAM-SHA-256 password (RFC 5802, as `password_encryption = scram-sha-256` writes it). */
export function scramVerifier(password: string, salt = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(password.normalize("NFKC"), salt, iterations, 32, "sha256");
  const clientKey = createHmac("sha256", salted).update("Client Key").digest();
  const storedKey = createHash("sha256").update(clientKey).digest();
  const serverKey = createHmac("sha256", salted).update("Server Key").digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString("base64")}$${storedKey.toString("base64")}:${serverKey.toString("base64")}`;
}

/** The end of the expiry day (UTC): the login is refused from the next midnight on. */
function validUntil(expiresOn: string): string {
  const next = new Date(Date.parse(`${expiresOn}T00:00:00Z`) + 86_400_000);
  return next.toISOString();
}

async function loginExists(admin: pg.ClientBase, login: string): Promise<boolean> {
  return (await admin.query("select 1 from pg_roles where rolname = $1", [login])).rowCount === 1;
}

async function onEveryServer(dataPlane: DataPlane, work: (admin: pg.ClientBase) => Promise<void>): Promise<void> {
  for (const server of dataPlane.servers) await dataPlane.withAdmin(server.id, null, work);
}

/** Makes the login on every server (a retry after a half-made one replaces it). */
export async function createLogin(dataPlane: DataPlane, login: string, password: string, expiresOn: string): Promise<void> {
  await onEveryServer(dataPlane, (admin) =>
    inTransaction(admin, async () => {
      await admin.query(`DROP ROLE IF EXISTS ${quoteIdentifier(login)}`);
      await makeLogin(admin, login, password, expiresOn);
    }),
  );
}

async function makeLogin(admin: pg.ClientBase, login: string, password: string, expiresOn: string) {
  const q = quoteIdentifier(login);
  await admin.query(
    `CREATE ROLE ${q} LOGIN INHERIT NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION CONNECTION LIMIT ${SQL_CREDENTIAL_CONNECTION_LIMIT}
       PASSWORD ${admin.escapeLiteral(scramVerifier(password))} VALID UNTIL ${admin.escapeLiteral(validUntil(expiresOn))}`,
  );
  // Every project database has these two schemas: a user's `select * from customers` finds the source table.
  await admin.query(`ALTER ROLE ${q} SET search_path = source, destination`);
  // Ending the login's sessions (a revocation, a lowered level) needs its membership on a server
  // where the administrative login is not a superuser.
  await takeMembership(admin, login);
}

/**
 * A new password: the old one stops working for new sessions (those already open stay). A server
 * added since the credential was made gets the login now.
 */
export async function setLoginPassword(dataPlane: DataPlane, login: string, password: string, expiresOn: string): Promise<void> {
  await onEveryServer(dataPlane, async (admin) => {
    if (!(await loginExists(admin, login))) await makeLogin(admin, login, password, expiresOn);
    else await admin.query(`ALTER ROLE ${quoteIdentifier(login)} PASSWORD ${admin.escapeLiteral(scramVerifier(password))}`);
  });
}

/**
 * Revoked: the login is refused at once, its open sessions are ended and its grants (the project
 * databases' reader and writer roles it was given) are taken back, on every server: a revoked
 * credential reaches no database, and can never be given one again (its permissions are dropped too).
 */
export async function disableLogin(dataPlane: DataPlane, login: string): Promise<void> {
  await onEveryServer(dataPlane, async (admin) => {
    if (!(await loginExists(admin, login))) return;
    await admin.query(`ALTER ROLE ${quoteIdentifier(login)} NOLOGIN`);
    const granted = await admin.query<{ role: string }>(
      `select r.rolname as role from pg_auth_members m join pg_roles r on r.oid = m.roleid join pg_roles u on u.oid = m.member
        where u.rolname = $1 and r.rolname like 'dt\\_%' and (r.rolname like '%\\_reader' or r.rolname like '%\\_writer')`,
      [login],
    );
    for (const { role } of granted.rows) await admin.query(`REVOKE ${quoteIdentifier(role)} FROM ${quoteIdentifier(login)}`);
    await takeMembership(admin, login);
    await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where usename = $1", [login]);
  });
}

/**
 * The login's level in one project's databases: the project's reader role (read), its writer role
 * (write, which includes the reader), or neither (none). Sessions the login has on the database are
 * ended when its rights shrink, so a lowered level holds at once.
 */
export async function grantLevel(dataPlane: DataPlane, serverId: string, projectId: string, login: string, level: SqlLevel): Promise<void> {
  const roles = rolesOf(projectId);
  const q = quoteIdentifier;
  if (level === "write") await shareLoginTables(dataPlane, serverId, projectId, login);
  await dataPlane.withAdmin(serverId, null, (admin) =>
    inTransaction(admin, async () => {
      if (!(await loginExists(admin, login))) throw new LoginMissingError(login, serverId);
      await admin.query(`REVOKE ${q(roles.reader)}, ${q(roles.writer)} FROM ${q(login)}`);
      if (level !== "none") await admin.query(`GRANT ${q(level === "write" ? roles.writer : roles.reader)} TO ${q(login)}`);
      if (level !== "write") {
        await takeMembership(admin, login);
        await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where usename = $1 and datname = $2", [login, databaseNameOf(projectId)]);
      }
    }),
  );
}

/**
 * What a login with Write creates in `destination` belongs to the login, and without more the project's
 * own roles could not read it: its backups would leave the table out without a word, and its runs
 * could not count it. So the project may use it as its own tables: the owner (its runner: backups,
 * runs, the databases page) and the reader read it, the writer changes its rows. Set before the
 * grant, for what the login will create; granted again on what it already made (a table of a login
 * made before this rule, or after a grant whose set-up failed midway).
 *
 * ALTER DEFAULT PRIVILEGES FOR a role needs its membership: the administrative login has it from the
 * login's creation, and takes it here for a login made before that rule (a CREATEROLE login may, as it
 * takes the project's owner in project-databases.ts).
 */
export async function shareLoginTables(dataPlane: DataPlane, serverId: string, projectId: string, login: string): Promise<void> {
  const roles = rolesOf(projectId);
  const q = quoteIdentifier;
  const readers = `${q(roles.owner)}, ${q(roles.reader)}`;
  await dataPlane.withAdmin(serverId, databaseNameOf(projectId), (admin) =>
    inTransaction(admin, async () => {
      if (!(await loginExists(admin, login))) throw new LoginMissingError(login, serverId);
      await takeMembership(admin, login);
      const inDestination = `ALTER DEFAULT PRIVILEGES FOR ROLE ${q(login)} IN SCHEMA destination`;
      await admin.query(`${inDestination} GRANT SELECT ON TABLES TO ${readers}`);
      await admin.query(`${inDestination} GRANT INSERT, UPDATE, DELETE ON TABLES TO ${q(roles.writer)}`);
      await admin.query(`${inDestination} GRANT USAGE, SELECT ON SEQUENCES TO ${q(roles.writer)}`);
      const { rows } = await admin.query<{ name: string; kind: string }>(
        `select format('%I.%I', n.nspname, c.relname) as name, c.relkind as kind
           from pg_class c join pg_namespace n on n.oid = c.relnamespace join pg_roles r on r.oid = c.relowner
          where n.nspname = 'destination' and r.rolname = $1 and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')`,
        [login],
      );
      for (const { name, kind } of rows) {
        if (kind === "S") await admin.query(`GRANT USAGE, SELECT ON SEQUENCE ${name} TO ${q(roles.writer)}`);
        else {
          await admin.query(`GRANT SELECT ON ${name} TO ${readers}`);
          if (kind === "r" || kind === "p") await admin.query(`GRANT INSERT, UPDATE, DELETE ON ${name} TO ${q(roles.writer)}`);
        }
      }
    }),
  );
}

/**
 * The credentials' logins that own something in the project's `destination`: what a login made with
 * Write, whatever its level now (shared at start for projects made before the rule above, server.ts).
 */
export async function loginsOwningDestination(dataPlane: DataPlane, serverId: string, projectId: string): Promise<string[]> {
  return dataPlane.withAdmin(serverId, databaseNameOf(projectId), async (admin) => {
    const { rows } = await admin.query<{ login: string }>(
      `select distinct r.rolname as login
         from pg_class c join pg_namespace n on n.oid = c.relnamespace join pg_roles r on r.oid = c.relowner
        where n.nspname = 'destination' and starts_with(r.rolname, $1)`,
      [CREDENTIAL_LOGIN_PREFIX],
    );
    return rows.map((r) => r.login);
  });
}

/** The login is not on the project's server (a server added after the credential was made): rotating its password makes it there. */
export class LoginMissingError extends Error {
  override name = "LoginMissingError";
  constructor(login: string, serverId: string) {
    super(`The login ${login} does not exist on the server ${serverId}`);
  }
}

/** The logins among `logins` that have a session open right now, on any server. */
export async function loginsConnected(dataPlane: DataPlane, logins: readonly string[]): Promise<Set<string>> {
  const seen = new Set<string>();
  if (logins.length === 0) return seen;
  await onEveryServer(dataPlane, async (admin) => {
    const { rows } = await admin.query<{ usename: string }>("select distinct usename from pg_stat_activity where usename = any($1::text[])", [logins]);
    for (const row of rows) seen.add(row.usename);
  });
  return seen;
}

/** What users' tools connect to for a server: SQL_ACCESS_HOST/PORT, else the server's own address. */
export function accessAddress(dataPlane: DataPlane, serverId: string, settings: SqlAccessSettings = {}): { host: string; port: number } {
  const url = new URL(dataPlane.server(serverId).adminUrl);
  return { host: settings.host ?? url.hostname, port: settings.port ?? Number(url.port || 5432) };
}

/** `postgresql://login:password@host:port/database[?sslmode=…]`. */
export function connectionUri(login: string, password: string, address: { host: string; port: number }, database: string, sslmode?: string): string {
  const host = address.host.includes(":") ? `[${address.host}]` : address.host;
  const query = sslmode ? `?sslmode=${encodeURIComponent(sslmode)}` : "";
  return `postgresql://${encodeURIComponent(login)}:${encodeURIComponent(password)}@${host}:${address.port}/${encodeURIComponent(database)}${query}`;
}
