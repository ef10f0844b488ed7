/** The companies the caller may see (data API) and the caller's per-company roles (client portal), spec §7. */
import { permissionsResponseSchema } from "../../../contracts/client-portal";
import { companiesResponseSchema } from "../../../contracts/data-api";
import { callService, type Caller } from "../api.server";

/** GET /api/v1/companies/all */
export const listCompanies = (as: Caller) => callService("data-api", "/api/v1/companies/all", as, { schema: companiesResponseSchema });

/** GET /api/v1/permissions/{userId}: `{ companyId, productRoleName }` entries. */
export const getPermissions = (as: Caller, userId: string) =>
  callService("client-portal", `/api/v1/permissions/${encodeURIComponent(userId)}`, as, { schema: permissionsResponseSchema });
