/**
 * Tables of applications and data dictionaries (master and project copies), as migration 0002
 * creates them. `name_key` is the lower-cased name: uniqueness is case-insensitive on both engines.
 */
export interface DictionaryTables {
  applications: ApplicationsTable;
  dictionaries: DictionariesTable;
  dictionary_tables: DictionaryTablesTable;
  dictionary_columns: DictionaryColumnsTable;
  dictionary_reviews: DictionaryReviewsTable;
}

export interface ApplicationsTable {
  id: string;
  company_id: string;
  name: string;
  name_key: string;
  description: string | null;
  created_at: string;
}

export interface DictionariesTable {
  id: string;
  company_id: string;
  application_id: string;
  /** null for a master dictionary; the project's id for a project's own copy. */
  project_id: string | null;
  name: string;
  name_key: string;
  description: string | null;
  /** Bumped by every write; a write based on another version is refused (409). */
  version: number;
  created_at: string;
  updated_at: string;
  updated_by: string;
}

export interface DictionaryTablesTable {
  id: string;
  dictionary_id: string;
  name: string;
  name_key: string;
  description: string | null;
  /** 1-based order within the dictionary. */
  position: number;
}

export interface DictionaryColumnsTable {
  id: string;
  table_id: string;
  name: string;
  name_key: string;
  /** One of COLUMN_TYPES (contracts/dictionary.ts). */
  type: string;
  length: number | null;
  precision: number | null;
  scale: number | null;
  /** 0/1 */
  nullable: number;
  /** 0/1 */
  is_key: number;
  description: string | null;
  /** 1-based order within the table. */
  position: number;
}

export interface DictionaryReviewsTable {
  id: string;
  dictionary_id: string;
  file_name: string;
  base_version: number;
  /** JSON: the tables the file describes, as parsed (what apply writes). */
  rows: string;
  /** JSON: the Review shown to the user (contracts/dictionary.ts reviewSchema), without id. */
  review: string;
  created_by: string;
  created_at: string;
}
