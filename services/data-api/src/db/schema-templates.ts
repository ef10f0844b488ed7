/** Templates, levels, scripts, their versions and lock audit (migration 0013; issue 11). */
export interface TemplateTables {
  templates: TemplatesTable;
  template_levels: TemplateLevelsTable;
  scripts: ScriptsTable;
  script_versions: ScriptVersionsTable;
  script_lock_events: ScriptLockEventsTable;
  runs: RunsTable;
  run_steps: RunStepsTable;
  run_table_counts: RunTableCountsTable;
  value_map_columns: ValueMapColumnsTable;
  value_map_values: ValueMapValuesTable;
  value_map_imports: ValueMapImportsTable;
  value_map_import_rows: ValueMapImportRowsTable;
  translations: TranslationsTable;
}

/** A file translated with a mapping project's maps (migration 0016). */
export interface TranslationsTable {
  id: string;
  project_id: string;
  table_name: string;
  file_name: string;
  /** contracts/values/mappings.ts TRANSLATION_STATUSES. */
  status: string;
  bytes_read: number;
  bytes_total: number;
  rows_read: number;
  rows_written: number;
  rows_rejected: number;
  /** JSON: contracts/mappings.ts translationReportSchema. */
  report: string | null;
  error: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** A translated column's settings (migration 0015; issue 12). */
export interface ValueMapColumnsTable {
  column_id: string;
  project_id: string;
  translate: number;
  /** contracts/values/mappings.ts UNMAPPED_RULES. */
  unmapped_rule: string;
  default_value: string | null;
  version: number;
  updated_at: string;
  updated_by: string;
}

export interface ValueMapValuesTable {
  column_id: string;
  source_value: string;
  /** null: not mapped yet. */
  target_value: string | null;
  sample_count: number;
  updated_at: string;
  updated_by: string;
}

export interface ValueMapImportsTable {
  id: string;
  column_id: string;
  base_version: number;
  file_name: string;
  row_count: number;
  created_by: string;
  created_at: string;
}

export interface ValueMapImportRowsTable {
  import_id: string;
  line: number;
  source_value: string;
  target_value: string | null;
}

export interface TemplatesTable {
  id: string;
  company_id: string;
  /** contracts/values/templates.ts TEMPLATE_AREAS. */
  area: string;
  /** null: a master template; else the project (or configuration) it belongs to. */
  project_id: string | null;
  name: string;
  name_key: string;
  /** naturalSortKey(name) (migration 0026): the list sorts "Template 2" before "Template 10". */
  name_sort: string;
  description: string | null;
  /** TEMPLATE_TYPES. */
  type: string;
  /** TEMPLATE_STATUSES. */
  status: string;
  version: number;
  master_template_id: string | null;
  master_version: number | null;
  position: number;
  created_at: string;
  created_by: string;
  updated_at: string;
  updated_by: string;
  updated_by_name: string | null;
}

export interface TemplateLevelsTable {
  id: string;
  template_id: string;
  name: string;
  name_key: string;
  position: number;
}

export interface ScriptsTable {
  id: string;
  template_id: string;
  level_id: string;
  name: string;
  name_key: string;
  position: number;
  /** The newest version's number. */
  version: number;
  /** contracts/values/projects.ts LOCK_STATES. */
  lock_state: string;
  locked_by: string | null;
  locked_by_name: string | null;
  locked_at: string | null;
  created_at: string;
  updated_at: string;
  updated_by: string;
  updated_by_name: string | null;
}

export interface ScriptVersionsTable {
  script_id: string;
  version: number;
  sql: string;
  comment: string | null;
  author: string;
  author_name: string | null;
  created_at: string;
}

export interface ScriptLockEventsTable {
  id: string;
  script_id: string;
  state: string;
  user_id: string;
  user_name: string | null;
  reason: string | null;
  at: string;
}

/** A run of a workspace's templates (migration 0014). */
export interface RunsTable {
  id: string;
  project_id: string;
  job_id: string | null;
  /** contracts/values/runs.ts RUN_TYPES. */
  type: string;
  /** RUN_STATUSES. */
  status: string;
  on_error: string;
  /** What it ran, as JSON: { templateIds, levelIds, scriptId, fromPosition }. */
  scope: string;
  rerun_of: string | null;
  message: string | null;
  created_by: string;
  created_by_name: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface RunStepsTable {
  run_id: string;
  position: number;
  template_name: string;
  level_name: string;
  script_id: string;
  script_name: string;
  script_version: number;
  sql: string;
  /** RUN_STEP_STATUSES. */
  status: string;
  rows_affected: number | string | null;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
  /** JSON array of strings. */
  notices: string;
  error: string | null;
  error_line: number | null;
}

export interface RunTableCountsTable {
  run_id: string;
  table_name: string;
  rows_before: number | string | null;
  rows: number | string;
}
