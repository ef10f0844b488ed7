/**
 * The data API's applications (the Applications pages and every picker of an application), with the
 * signed-in user's token.
 */
import type { z } from "zod";
import { applicationSchema, applicationSearchResponseSchema, type applicationSearchQuerySchema, type createApplicationSchema } from "../../../contracts/applications";
import type { PAGE_SIZES } from "../../../contracts/common";
import { callService, type Caller } from "../api.server";

const APPLICATIONS = "/api/v1/applications";

/** GET /api/v1/applications: one page, filtered and sorted by the data API (the Applications list). */
export const searchApplications = (as: Caller, query: z.output<typeof applicationSearchQuerySchema>) =>
  callService("data-api", APPLICATIONS, as, { schema: applicationSearchResponseSchema, query });

/** POST /api/v1/applications */
export const createApplication = (as: Caller, body: z.input<typeof createApplicationSchema>) =>
  callService("data-api", APPLICATIONS, as, { method: "POST", body, schema: applicationSchema });

/**
 * How many items a select that offers "all" of a company's applications or dictionaries asks for:
 * the largest page the API serves, sorted by name. A company with more than this many sees only the
 * first ones in the select: no company comes near it today, and the next step when one does is a
 * searchable picker (a combobox over the same search endpoints), not a bigger page.
 */
export const SELECT_LIMIT: (typeof PAGE_SIZES)[number] = 100;

/** The company's applications for a select: the first SELECT_LIMIT by name (see there). */
export const selectableApplications = async (as: Caller, companyId: string) =>
  (await searchApplications(as, { companyId, sort: "name", page: 1, pageSize: SELECT_LIMIT })).items;

