import { companyUsersResponseSchema, type CompanyUser } from "../../../contracts/client-portal.ts";
import type { Caller } from "../../shared/bearer.ts";
import type { Fetch } from "./permissions.ts";

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
  const fetchFn: Fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const timeoutMs = options.timeoutMs ?? 5_000;
  return {
    async list(caller, companyId) {
      const url = `${options.baseUrl.replace(/\/+$/, "")}/api/v1/companies/${encodeURIComponent(companyId)}/users`;
      let response: Response;
      try {
        response = await fetchFn(url, {
          headers: { authorization: `Bearer ${caller.token}`, accept: "application/json" },
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (cause) {
        throw new CompanyUsersUnavailableError("company users request failed", { cause });
      }
      if (!response.ok) throw new CompanyUsersUnavailableError(`company users request answered ${response.status}`);
      const parsed = companyUsersResponseSchema.safeParse(await response.json().catch(() => undefined));
      if (!parsed.success) throw new CompanyUsersUnavailableError("company users response has an unexpected shape");
      return parsed.data;
    },
  };
}
