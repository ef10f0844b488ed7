/** Rules the kind-specific workspace routes (migration.ts, onboarding.ts) apply alike. */
import type { Kysely } from "kysely";
import { STATUS_CHANGES, type ProjectStatus } from "../../../../../contracts/projects.ts";
import { type WorkspaceDescriptor } from "../../../../../contracts/workspaces.ts";
import { SERVICE_WORKSPACES } from "../../../../../contracts/workspaces.server.ts";
import { ApiProblem } from "../../api-problem.ts";
import type { Database } from "../../db/schema.ts";
import { findApplication } from "../../repositories/applications.ts";
import type { VersionedWrite } from "../../repositories/dictionary-version.ts";
import { staleWorkspace, type WorkspaceRow } from "../../repositories/workspaces.ts";

export const APPLICATION_OF_COMPANY_MESSAGE = "Choose an application of this company.";

/**
 * The application must be one of the company's; another company's reads as one that does not exist.
 * A master data dictionary's creation (routes/dictionaries) asks it too, so all refuse alike.
 */
export async function requireApplicationOfCompany(db: Kysely<Database>, applicationId: string, companyId: string) {
  const application = await findApplication(db, applicationId);
  if (!application || application.companyId !== companyId) {
    throw new ApiProblem(400, "validation_failed", APPLICATION_OF_COMPANY_MESSAGE, { applicationId: [APPLICATION_OF_COMPANY_MESSAGE] });
  }
  return application;
}

/**
 * Checked before the rules of a change, so a stale client hears "reload", not a rule about a state
 * it never saw. The update itself checks the version again in SQL.
 */
export async function assertVersion(db: Kysely<Database>, descriptor: WorkspaceDescriptor, workspace: WorkspaceRow, write: VersionedWrite) {
  if (write.expectedVersion !== Number(workspace.version)) throw await staleWorkspace(db, descriptor.kind, workspace.id, write.userId);
}

/** DOMAIN.md: after setup, Active ⇄ Inactive and Active → Completed (STATUS_CHANGES); setup statuses move by the wizard only. */
export function assertStatusChange(descriptor: WorkspaceDescriptor, workspace: WorkspaceRow, status: ProjectStatus | undefined) {
  if (status === undefined || status === workspace.status) return;
  const allowed = STATUS_CHANGES[workspace.status as ProjectStatus] ?? [];
  if (allowed.includes(status)) return;
  const message = allowed.length
    ? `A ${workspace.status} ${descriptor.noun} can only become ${allowed.join(" or ")}.`
    : `The status of a ${descriptor.noun} in ${workspace.status} cannot be changed by hand.`;
  throw new ApiProblem(400, "validation_failed", message, { status: [message] });
}

export const MAPPING_PROJECT_OF_COMPANY_MESSAGE = "Choose a translation mapping project of this company.";

/**
 * A workspace's value maps come from a mapping project of its own company (another company's, or an id
 * that is no mapping project, reads as one that does not exist); a kind without databases has none to
 * join them in. Answers the change to write: the id, null (none) or undefined (unchanged).
 */
export async function checkedMappingProject(db: Kysely<Database>, descriptor: WorkspaceDescriptor, workspace: WorkspaceRow, id: string | null | undefined) {
  if (id === undefined || id === null) return id;
  const refused = () => new ApiProblem(400, "validation_failed", MAPPING_PROJECT_OF_COMPANY_MESSAGE, { mappingProjectId: [MAPPING_PROJECT_OF_COMPANY_MESSAGE] });
  if (!descriptor.features.databases) throw refused();
  const found = await db.selectFrom("projects").select(["company_id", "product_type"]).where("id", "=", id).executeTakeFirst();
  if (!found || found.company_id !== workspace.company_id || found.product_type !== SERVICE_WORKSPACES.translation.productType) throw refused();
  return id;
}
