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
  dictionary_review_rows: DictionaryReviewRowsTable;
  dictionary_review_problems: DictionaryReviewProblemsTable;
  dictionary_review_tables: DictionaryReviewTablesTable;
}

export interface ApplicationsTable {
  id: string;
  company_id: string;
  name: string;
  name_key: string;
  /** naturalSortKey(name) (migration 0025): lists sort "App 2" before "App 10". */
  name_sort: string;
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
  /** naturalSortKey(name) (migration 0026): the list sorts "Paging 2" before "Paging 10". */
  name_sort: string;
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

/** A bulk upload's review (migration 0005): its header; its rows, problems and tables are rows of their own. */
export interface DictionaryReviewsTable {
  id: string;
  dictionary_id: string;
  file_name: string;
  /** replace or merge (BULK_UPLOAD_MODES). */
  mode: string;
  base_version: number;
  /** parsing while the file is read (never shown), then ready. */
  status: string;
  row_count: number;
  table_count: number;
  changing_table_count: number;
  added_table_count: number;
  problem_count: number;
  /** 0/1 */
  can_apply: number;
  created_by: string;
  created_at: string;
}

/** A row of the uploaded file with valid table and column names, staged for the checks and for apply. */
export interface DictionaryReviewRowsTable {
  review_id: string;
  /** The row's number in the file (header = 1). */
  line: number;
  table_key: string;
  table_name: string;
  column_key: string;
  column_name: string;
  /** 0/1: the row is a whole column definition (the fields below are set). */
  valid: number;
  type: string | null;
  length: number | null;
  precision: number | null;
  scale: number | null;
  nullable: number | null;
  is_key: number | null;
  description: string | null;
}

export interface DictionaryReviewProblemsTable {
  review_id: string;
  seq: number;
  line: number | null;
  /** line, or after every line for a problem of the whole file. */
  sort_line: number;
  field: string | null;
  message: string;
}

export interface DictionaryReviewTablesTable {
  review_id: string;
  ordinal: number;
  name: string;
  table_key: string;
  status: string;
  added_count: number;
  changed_count: number;
  removed_count: number;
  unchanged_count: number;
  /** JSON { added, changed, removed } (columnChangeSchema lists). */
  changes: string;
}
