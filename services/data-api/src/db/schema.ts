/**
 * The control plane's tables as Kysely sees them. Portable column types only, so SQLite and
 * PostgreSQL behave the same: text ids (UUIDs), ISO-8601 text timestamps, integer 0/1 flags.
 */
import type { DictionaryTables } from "./schema-dictionaries.ts";
import type { ProjectTables } from "./schema-projects.ts";
import type { SqlAccessTables } from "./schema-sql-access.ts";
import type { TemplateTables } from "./schema-templates.ts";

/** Each area keeps its table types in its own file (schema-*.ts); this is their union. */
export interface Database extends DictionaryTables, ProjectTables, TemplateTables, SqlAccessTables {
  companies: CompaniesTable;
}

export interface CompaniesTable {
  id: string;
  name: string;
  created_at: string;
}
