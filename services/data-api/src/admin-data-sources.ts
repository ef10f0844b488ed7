import { adminDataSourcesResponseSchema, type AdminDataSource } from "../../../contracts/client-portal.ts";
import type { Caller } from "../../shared/bearer.ts";
import { createClientPortalApi, type Fetch } from "./client-portal-api.ts";

/**
 * A company's admin data sources, that is its schemes, from the client portal API
 * (`GET /api/v1/companies/{id}/admin-data-sources`). The data API answers them at the same path and
 * checks every scheme an onboarding configuration is given against them.
 */
export type AdminDataSourcesSource = {
  list(caller: Caller, companyId: string): Promise<AdminDataSource[]>;
};

/** The list could not be loaded: the request is refused (503) rather than answered or checked without it. */
export class AdminDataSourcesUnavailableError extends Error {
  override name = "AdminDataSourcesUnavailableError";
}

export const ADMIN_DATA_SOURCES_UNAVAILABLE_MESSAGE = "The company's schemes could not be loaded from the client portal. Try again in a moment.";

export type HttpAdminDataSourcesOptions = { baseUrl: string; fetch?: Fetch; timeoutMs?: number };

/** Asks with the caller's own token, so the client portal applies its own rule (own companies; admins any). */
export function createHttpAdminDataSources(options: HttpAdminDataSourcesOptions): AdminDataSourcesSource {
  const get = createClientPortalApi(options);
  return {
    async list(caller, companyId) {
      try {
        const path = `/api/v1/companies/${encodeURIComponent(companyId)}/admin-data-sources`;
        return await get(caller, path, adminDataSourcesResponseSchema, "admin data sources");
      } catch (err) {
        throw new AdminDataSourcesUnavailableError(err instanceof Error ? err.message : String(err), { cause: err });
      }
    },
  };
}
