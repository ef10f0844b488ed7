import { companyUsersPageSchema, type CompanyUser } from "../../../contracts/client-portal.ts";
import type { Caller } from "../../shared/bearer.ts";
import { createClientPortalApi, type Fetch } from "./client-portal-api.ts";

/**
 * The people of a company, from the client portal API: anyone holding a permission entry for it.
 * Project access grants and SQL credentials are checked against it, so a project cannot be shared
 * with somebody who has no business in the company.
 */
export type CompanyUsersSource = {
  /** The company's person with this id, or null when the company has nobody of that id. */
  find(caller: Caller, companyId: string, userId: string): Promise<CompanyUser | null>;
};

/** The client portal could not answer: the grant is refused (503) rather than let through unchecked. */
export class CompanyUsersUnavailableError extends Error {
  override name = "CompanyUsersUnavailableError";
}

export type HttpCompanyUsersSourceOptions = { baseUrl: string; fetch?: Fetch; timeoutMs?: number };

/**
 * Asks with the caller's own token, so the client portal applies its own rule (own companies; admins
 * any), and for the one person by id (`/users/page?id=`): a company may have thousands.
 */
export function createHttpCompanyUsersSource(options: HttpCompanyUsersSourceOptions): CompanyUsersSource {
  const get = createClientPortalApi(options);
  return {
    async find(caller, companyId, userId) {
      const path = `/api/v1/companies/${encodeURIComponent(companyId)}/users/page?${new URLSearchParams({ id: userId })}`;
      try {
        const page = await get(caller, path, companyUsersPageSchema, "company user");
        return page.items.find((u) => u.id === userId) ?? null;
      } catch (err) {
        throw new CompanyUsersUnavailableError(err instanceof Error ? err.message : String(err), { cause: err });
      }
    },
  };
}
