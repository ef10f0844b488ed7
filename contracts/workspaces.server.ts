import type { ProjectStatus } from "./projects";
import { WORKSPACE_KINDS, WORKSPACES, type WorkspaceDescriptor, type WorkspaceKind } from "./workspaces";

/** Spec §4 "product types": what the data API stores on the workspace record. */
export const PRODUCT_TYPES = ["Migration", "Translation", "Onboarding"] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

/**
 * A kind of workspace as the services (the data API, the portal's server) know it: its descriptor
 * (contracts/workspaces.ts) and what no page needs, kept out of the browser's code (issue 8's initial
 * JS bar: the descriptors are in every page's shell).
 */
export type ServiceWorkspace = WorkspaceDescriptor & {
  productType: ProductType;
  /** The data API's collection: `${apiBase}/{id}/…`. */
  apiBase: string;
  /** The status a new one starts in. */
  initialStatus: ProjectStatus;
  /** The status when its databases have been created. */
  afterDatabases: ProjectStatus;
};

export const SERVICE_WORKSPACES: Record<WorkspaceKind, ServiceWorkspace> = {
  migration: {
    ...WORKSPACES.migration,
    productType: "Migration",
    apiBase: "/api/v1/projects",
    initialStatus: "SetupDataDictionaryIncomplete",
    afterDatabases: "SetupRestoreDatabaseIncomplete",
  },
  onboarding: {
    ...WORKSPACES.onboarding,
    productType: "Onboarding",
    apiBase: "/api/v1/audit-projects",
    initialStatus: "SetupAddColumnsIncomplete",
    afterDatabases: "SetupAssignTemplatesIncomplete",
  },
  translation: {
    ...WORKSPACES.translation,
    productType: "Translation",
    apiBase: "/api/v1/mapping-projects",
    initialStatus: "SetupAddColumnsIncomplete",
    afterDatabases: "SetupAssignTemplatesIncomplete",
  },
};

export const workspaceOfProductType = (productType: string): ServiceWorkspace | undefined =>
  WORKSPACE_KINDS.map((kind) => SERVICE_WORKSPACES[kind]).find((w) => w.productType === productType);
