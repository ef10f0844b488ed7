import { z } from "zod";
import { descriptionSchema, formBoolean, madeIdSchema, nameSchema, pageOf, pageQuerySchema, requiredString, versionSchema, timestampSchema } from "./common";
import { mappingProjectIdSchema, projectSchema, projectSearchQuerySchema, projectStatusSchema, searchedWorkspaceShape } from "./projects";
import { PROJECT_DATABASE_KINDS, DATABASE_TABLE_SORTS } from "./values/configurations";

export * from "./values/configurations";

/**
 * Onboarding configurations: the data API's "audit projects" (spec §3, §7). A configuration is a
 * workspace (contracts/workspaces.ts) plus the schemes it serves, chosen from the company's admin
 * data sources, and whether it is the company's default configuration.
 */

/** Spec §3: each scheme as `{ scheme: { id, name } }`. */
export const configurationSchemeSchema = z.object({ scheme: z.object({ id: z.string(), name: z.string() }) });
export type ConfigurationScheme = z.infer<typeof configurationSchemeSchema>;

/**
 * A configuration is read like a project, plus its schemes and default flag. Of the project fields,
 * `sourceType` is always "FlatFile" (a client's deliveries are files), `uploadType` stays null (no
 * upload-type step), `currentBackupName` null. `flatFileParameters` are set as a project's are
 * (POST /audit-projects/{id}/updateFlatFileParameters, from the load page); null until then.
 */
export const configurationSchema = projectSchema.extend({
  /** In the order chosen; the names as they were when chosen (the client portal owns them). */
  schemes: z.array(configurationSchemeSchema),
  /** The company's default configuration (the first created, or the one marked "Default"). */
  isDefault: z.boolean(),
});
export type Configuration = z.infer<typeof configurationSchema>;

export const SCHEMES_REQUIRED_MESSAGE = "Choose at least one scheme";
/** PATCH with an empty `schemeIds`: a configuration never loses its last scheme. */
export const SCHEMES_KEPT_MESSAGE = "A configuration serves at least one scheme";
export const DUPLICATE_CONFIGURATION_MESSAGE = "A configuration with this name already exists in this company";
/**
 * A scheme id that is not one of the company's admin data sources (removed since the page was read,
 * another company's, or unknown): said once, never naming the id, which means nothing to a user.
 */
export const NOT_A_SCHEME_MESSAGE = "A chosen scheme is no longer one of this company's: choose again.";
/** `isDefault: true` on create while the company has its default already. */
export const defaultTakenMessage = (companyName: string, defaultName: string) => `${companyName} already has a default configuration: ${defaultName}`;
/** `isDefault: false` on PATCH of the default: the default only moves by marking another one. */
export const DEFAULT_KEPT_MESSAGE = "A company always keeps one default configuration: mark another configuration as the default instead";

/**
 * Scheme ids as a form sends them (a repeated `schemeIds` key, or one value) and as JSON sends them.
 * Repeated ids count once; the order is the one chosen.
 */
const schemeIdsSchema = (emptyMessage: string) =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? v : [v]),
    z
      .array(z.string().min(1))
      .min(1, emptyMessage)
      .transform((ids) => [...new Set(ids)]),
  );

/** POST /api/v1/audit-projects: wizard step 1. */
export const createConfigurationSchema = z.object({
  /** The id the create form chose, so that the form sent again makes it once (madeIdSchema). */
  id: madeIdSchema,
  companyId: z.string().min(1),
  name: nameSchema,
  description: descriptionSchema,
  applicationId: requiredString("Choose an application"),
  schemeIds: schemeIdsSchema(SCHEMES_REQUIRED_MESSAGE),
  /** Ask for this one to be the company's default; refused when the company already has one. */
  isDefault: formBoolean.default(false),
});

/** PATCH /api/v1/audit-projects/{id}: any of name, description, schemes, default; based on `version`. */
export const updateConfigurationSchema = z.object({
  version: versionSchema,
  name: nameSchema.optional(),
  description: descriptionSchema.optional(),
  mappingProjectId: mappingProjectIdSchema,
  /** Replaces the set (in this order); absent: unchanged; empty: refused (SCHEMES_KEPT_MESSAGE). */
  schemeIds: schemeIdsSchema(SCHEMES_KEPT_MESSAGE).optional(),
  /**
   * `true` makes this the company's default, moving it from the current one in the same transaction.
   * `false` on the current default is refused (DEFAULT_KEPT_MESSAGE): a company that has configurations
   * always has exactly one default. Absent, or `false` on another one: unchanged.
   */
  isDefault: formBoolean.optional(),
  status: projectStatusSchema.optional(),
});

/** GET /api/v1/audit-projects/search: the same filters and sorts as projects. */
export const configurationSearchQuerySchema = projectSearchQuerySchema;
export const configurationSearchResponseSchema = pageOf(configurationSchema.extend(searchedWorkspaceShape));

/** GET /api/v1/audit-projects/checkdefaultproject/{companyId}: whether the company has its default yet. */
export const checkDefaultResponseSchema = z.object({
  hasDefault: z.boolean(),
  defaultConfiguration: z.object({ id: z.string(), name: z.string() }).nullable(),
});
export type CheckDefaultResponse = z.infer<typeof checkDefaultResponseSchema>;

/** GET /api/v1/audit-projects/{id}/databases: what exists so far (the databases/current page). */
export const workspaceDatabaseSchema = z.object({
  kind: z.enum(PROJECT_DATABASE_KINDS),
  /** "Source database" / "Destination database". */
  name: z.string(),
  exists: z.boolean(),
  /** Its tables that match the query's `table`: `tables` is the asked page of them. */
  tableCount: z.number().int(),
  tables: z.array(
    z.object({
      name: z.string(),
      columnCount: z.number().int(),
      rowCount: z.number().int(),
      /** More rows than are counted one by one (a million): `rowCount` is PostgreSQL's estimate. */
      rowCountEstimated: z.boolean(),
      /** On disk, with its indexes and long values (TOAST). */
      bytes: z.number().int(),
      /** When a load last changed it (source tables), or null when none did. */
      lastChangedAt: timestampSchema.nullable(),
    }),
  ),
});
export const workspaceDatabasesQuerySchema = z.object({
  /** Table name contains, any case. */
  table: z.string().trim().max(128).optional(),
  /** One of the two databases only; both by default. */
  database: z.enum(PROJECT_DATABASE_KINDS).optional(),
  /**
   * A page of each database's tables, sorted and counted in SQL, 25 by default as every list: a project
   * may have thousands, and a page that offers tables in a select asks the first few that match its
   * search. Each listed table's rows are counted, so a page of 25 counts 25 tables, not a project's 1,500.
   */
  page: pageQuerySchema.shape.page,
  pageSize: pageQuerySchema.shape.pageSize,
  sort: z.enum(DATABASE_TABLE_SORTS).default("name"),
  /**
   * `estimated`: every row count is PostgreSQL's estimate and no table is read, for pages that need
   * the tables' names (counting a million rows of each table one by one takes a while per table).
   */
  rows: z.enum(["counted", "estimated"]).default("counted"),
});
export const workspaceDatabasesResponseSchema = z.object({ databases: z.array(workspaceDatabaseSchema) });
export type WorkspaceDatabases = z.infer<typeof workspaceDatabasesResponseSchema>;
