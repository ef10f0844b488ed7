import { companyUsersResponseSchema, type CompanyUser } from "../../../contracts/client-portal.ts";
import type { Caller } from "../../shared/bearer.ts";
import { createClientPortalApi, type Fetch } from "./client-portal-api.ts";

/**
 * The people of a company, from the client portal API (`GET /api/v1/companies/{id}/users`): anyone
 * holding a permission entry for it. Project access grants are checked against it, so a project
 * cannot be shared with somebody who has no business in the company.
 */
export type CompanyUsersSource = {
  list(caller: Caller, companyId: string): Promise<CompanyUser[]>;
};

/** The list could not be loaded: the grant is refused (503) rather than let through unchecked. */
export class CompanyUsersUnavailableError extends Error {
  override name = "CompanyUsersUnavailableError";
}

export type HttpCompanyUsersSourceOptions = { baseUrl: string; fetch?: Fetch; timeoutMs?: number };

/** Asks with the caller's own token, so the client portal applies its own rule (own companies; admins any). */
export function createHttpCompanyUsersSource(options: HttpCompanyUsersSourceOptions): CompanyUsersSource {
  const get = createClientPortalApi(options);
  return {
    async list(caller, companyId) {
      try {
        return await get(caller, `/api/v1/companies/${encodeURIComponent(companyId)}/users`, companyUsersResponseSchema, "company users");
      } catch (err) {
        throw new CompanyUsersUnavailableError(err instanceof Error ? err.message : String(err), { cause: err });
      }
    },
  };
}
