import type { Kysely } from "kysely";
import type { Configuration, ConfigurationScheme } from "../../../../contracts/configurations.ts";
import { SERVICE_WORKSPACES } from "../../../../contracts/workspaces.server.ts";
import type { Database } from "../db/schema.ts";
import { inTransaction } from "./db-helpers.ts";
import type { VersionedWrite } from "./dictionary-version.ts";
import { toProject } from "./projects.ts";
import {
  insertWorkspace,
  nextVersion,
  searchWorkspaces,
  selectWorkspaces,
  updateWorkspace,
  type NewWorkspace,
  type WorkspaceChanges,
  type WorkspaceListRow,
  type WorkspaceReader,
  type WorkspaceRow,
  type WorkspaceSearch,
} from "./workspaces.ts";

/**
 * Onboarding configurations: the workspace kind "onboarding" (the data API's "audit projects") plus
 * the schemes each serves and the company's one default configuration. The routes check the rules
 * (schemes of the company, who may be default) against the client portal and the rows they read;
 * this keeps the rows consistent: a company's default changes under a lock on its row, and the
 * partial unique index projects_one_default is the last word.
 */

const PRODUCT_TYPE = SERVICE_WORKSPACES.onboarding.productType;

/** A scheme as stored with the configuration: its id and its name when it was chosen. */
export type SchemeChoice = { id: string; name: string };

export async function getConfiguration(db: Kysely<Database>, id: string): Promise<Configuration | undefined> {
  const row = await selectWorkspaces(db, "onboarding").where("p.id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  const [configuration] = await withSchemes(db, [row]);
  return configuration;
}

/** The company's default configuration, if it has one yet. */
export function findDefaultConfiguration(db: Kysely<Database>, companyId: string): Promise<{ id: string; name: string } | undefined> {
  return db
    .selectFrom("projects")
    .select(["id", "name"])
    .where("company_id", "=", companyId)
    .where("product_type", "=", PRODUCT_TYPE)
    .where("is_default", "=", 1)
    .executeTakeFirst();
}

export type NewConfiguration = Omit<NewWorkspace, "isDefault" | "sourceType"> & {
  schemes: readonly SchemeChoice[];
  /** Asked to be the company's default. */
  isDefault: boolean;
};

/** The company already has its default and `isDefault: true` was asked: nothing was written. */
export class DefaultTakenError extends Error {
  override name = "DefaultTakenError";
  constructor(readonly current: { id: string; name: string }) {
    super(`The company's default configuration is ${current.name}`);
  }
}

/**
 * Wizard step 1, in one transaction: the configuration (SetupAddColumnsIncomplete), its creator's
 * access, its own empty dictionary and its schemes in order. The company's first configuration is
 * its default whatever was asked; asking for default when the company has one is a DefaultTakenError.
 */
export async function createConfiguration(db: Kysely<Database>, input: NewConfiguration, now = new Date()): Promise<string> {
  return inTransaction(db, async (trx) => {
    await lockCompanyDefault(trx, input.companyId);
    const current = await findDefaultConfiguration(trx, input.companyId);
    if (current && input.isDefault) throw new DefaultTakenError(current);
    // A client's deliveries are files: the one source type a configuration has.
    const id = await insertWorkspace(trx, "onboarding", { ...input, sourceType: "FlatFile", isDefault: !current }, now);
    await replaceSchemes(trx, id, input.schemes);
    return id;
  });
}

export type ConfigurationChanges = Omit<WorkspaceChanges, "isDefault" | "uploadType" | "flatFileParameters"> & {
  schemes?: readonly SchemeChoice[];
  /** Only `true`: this one becomes the company's default, the current one stops being it. */
  makeDefault?: boolean;
};

/** Writes `changes` if the configuration is still at `write.expectedVersion`, else ConflictError and nothing written. */
export async function updateConfiguration(
  db: Kysely<Database>,
  row: Pick<WorkspaceRow, "id" | "company_id">,
  write: VersionedWrite,
  changes: ConfigurationChanges,
): Promise<number> {
  const { schemes, makeDefault, ...workspaceChanges } = changes;
  // Both rows it changes get one updated_at.
  const dated = { ...write, now: write.now ?? new Date() };
  return inTransaction(db, async (trx) => {
    if (makeDefault) {
      await lockCompanyDefault(trx, row.company_id);
      // The previous default changes too: its version moves, so a form of it read before is stale.
      await trx
        .updateTable("projects")
        .set({ is_default: 0, ...nextVersion(dated.userId, dated.now) })
        .where("company_id", "=", row.company_id)
        .where("product_type", "=", PRODUCT_TYPE)
        .where("is_default", "=", 1)
        .where("id", "!=", row.id)
        .execute();
    }
    return updateWorkspace(
      trx,
      "onboarding",
      row,
      dated,
      { ...workspaceChanges, ...(makeDefault ? { isDefault: true } : {}) },
      schemes ? (t) => replaceSchemes(t, row.id, schemes) : undefined,
    );
  });
}

export type ConfigurationSearch = WorkspaceSearch;

/** One page of the company's configurations the reader may read, with their schemes. */
export async function searchConfigurations(db: Kysely<Database>, search: ConfigurationSearch, reader: WorkspaceReader) {
  return searchWorkspaces(db, "onboarding", search, reader, (rows) => withSchemes(db, rows));
}

/**
 * Changes of a company's default go one at a time: a no-op update of the company row holds its row
 * lock on PostgreSQL until commit, so the next writer reads the default this one left (SQLite
 * serialises every write transaction anyway). Without it two "first" configurations could both
 * take the default and one would fail on the unique index instead of simply not being default.
 */
async function lockCompanyDefault(trx: Kysely<Database>, companyId: string) {
  await trx.updateTable("companies").set((eb) => ({ name: eb.ref("name") })).where("id", "=", companyId).execute();
}

async function replaceSchemes(trx: Kysely<Database>, workspaceId: string, schemes: readonly SchemeChoice[]) {
  await trx.deleteFrom("workspace_schemes").where("workspace_id", "=", workspaceId).execute();
  if (schemes.length === 0) return;
  await trx
    .insertInto("workspace_schemes")
    .values(schemes.map((s, position) => ({ workspace_id: workspaceId, scheme_id: s.id, scheme_name: s.name, position })))
    .execute();
}

async function withSchemes(db: Kysely<Database>, rows: readonly WorkspaceListRow[]): Promise<Configuration[]> {
  if (rows.length === 0) return [];
  const schemes = await db
    .selectFrom("workspace_schemes")
    .select(["workspace_id", "scheme_id", "scheme_name"])
    .where(
      "workspace_id",
      "in",
      rows.map((r) => r.id),
    )
    .orderBy("workspace_id")
    .orderBy("position")
    .execute();
  const byWorkspace = new Map<string, ConfigurationScheme[]>();
  for (const s of schemes) {
    const list = byWorkspace.get(s.workspace_id) ?? [];
    list.push({ scheme: { id: s.scheme_id, name: s.scheme_name } });
    byWorkspace.set(s.workspace_id, list);
  }
  return rows.map((row) => ({ ...toProject(row), schemes: byWorkspace.get(row.id) ?? [], isDefault: Number(row.is_default) === 1 }));
}
