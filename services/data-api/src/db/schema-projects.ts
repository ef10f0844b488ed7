/**
 * Tables of workspaces (migration projects and onboarding configurations, one `projects` row kind
 * told apart by product_type), their access lists, jobs and steps, and a configuration's schemes.
 * Migrations 0003 and 0004.
 */
import type { Generated } from "kysely";

export interface ProjectTables {
  projects: ProjectsTable;
  project_users: ProjectUsersTable;
  jobs: JobsTable;
  job_steps: JobStepsTable;
  workspace_schemes: WorkspaceSchemesTable;
  loads: LoadsTable;
  load_tables: LoadTablesTable;
  load_rejections: LoadRejectionsTable;
  lock_events: LockEventsTable;
  backups: BackupsTable;
  comparison_tables: ComparisonTablesTable;
}

/** A backup archive of a workspace's databases (migration 0012). */
export interface BackupsTable {
  id: string;
  project_id: string;
  name: string;
  /** contracts/values/backups.ts BACKUP_KINDS. */
  kind: string;
  /** BACKUP_STATUSES. */
  status: string;
  bytes: Generated<number | string>;
  table_count: Generated<number>;
  row_count: Generated<number | string>;
  /** The history entry whose result it holds; null when nothing was loaded before it. */
  after_load_id: string | null;
  created_by: string;
  created_at: string;
  finished_at: string | null;
}

/**
 * A comparison's result for one table (migration 0012): JSON of contracts/backups.ts TableComparisonResult,
 * and its counts beside it (migration 0029), which the summary sums and the filter reads in SQL.
 */
export interface ComparisonTablesTable {
  load_id: string;
  table_name: string;
  position: number;
  result: string;
  added: Generated<number | string>;
  removed: Generated<number | string>;
  changed: Generated<number | string>;
  /** How many columns were added, removed or retyped (columnChanges). */
  column_changes: Generated<number>;
}

/** A force-unlock, recorded (migration 0010). */
export interface LockEventsTable {
  id: string;
  project_id: string;
  job_id: string | null;
  /** "ForceUnlock". */
  action: string;
  lock_reason: string | null;
  reason: string;
  user_id: string;
  at: string;
}

/** A flat-file load (migrations 0008, 0011): an entry of the history. bigint columns come back as strings from PostgreSQL. */
export interface LoadsTable {
  id: string;
  project_id: string;
  /** contracts/values/loads.ts HISTORY_TYPES. */
  run_type: Generated<string>;
  /** JSON of the FlatFileParameters it read its files with, copied when it started; null before migration 0011. */
  parameters: string | null;
  job_id: string | null;
  file_name: string;
  file_bytes: number | string;
  table_name: string;
  mode: string;
  on_rejected: string;
  status: string;
  rows_read: Generated<number | string>;
  rows_loaded: Generated<number | string>;
  rows_rejected: Generated<number | string>;
  message: string | null;
  created_by: string;
  created_at: string;
  finished_at: string | null;
  /** Backup: the backup it made; a load, restore or undo: the automatic backup taken before it; a comparison: the backup compared (migration 0012). */
  backup_id: Generated<string | null>;
  /** An undo: the entry it undid; a comparison: the entry whose data it compared. */
  about_load_id: Generated<string | null>;
}

/** A table a load fills from one file, with its counts (migration 0011). */
export interface LoadTablesTable {
  load_id: string;
  table_name: string;
  /** The order the load's tables are loaded in, from 0. */
  position: number;
  file_name: string;
  rows_read: Generated<number | string>;
  rows_loaded: Generated<number | string>;
  rows_rejected: Generated<number | string>;
  /** JSON array of the file's header cells, when it has a header row. */
  header: string | null;
}

export interface LoadRejectionsTable {
  load_id: string;
  /** The load's table (load_tables) the row was read for. */
  table_name: string;
  line: number | string;
  column_name: string | null;
  value: string | null;
  reason: string;
  /** JSON array of the row's cells as read. */
  cells: string;
}

export interface ProjectsTable {
  id: string;
  company_id: string;
  application_id: string;
  name: string;
  /**
   * What "unique per company" compares: the lower-cased name for a migration project; for another
   * kind, its product type in capitals, ":" and the lower-cased name (migration 0004 says why).
   */
  name_key: string;
  /** naturalSortKey(name), without the kind's prefix (migration 0026): the lists sort "Project 2" before "Project 10". */
  name_sort: string;
  description: string | null;
  source_type: string;
  status: string;
  /** 0/1 */
  is_locked: Generated<number>;
  lock_reason: string | null;
  lock_state: Generated<string>;
  /** The job holding the lock, if a job holds it. */
  lock_job_id: string | null;
  current_backup_name: string | null;
  upload_type: string | null;
  /** JSON of contracts' FlatFileParameters. */
  flat_file_parameters: string | null;
  source_dictionary_id: string | null;
  /** Migration 0017: the translation mapping project whose value maps its scripts join (schema `maps`). */
  mapping_project_id: string | null;
  version: Generated<number>;
  created_at: string;
  updated_at: string;
  /**
   * Migration 0021: the user who made the current version (repositories/workspaces.ts nextVersion says
   * when it is one); null when a job or the system made it, or it was made before the migration.
   */
  updated_by: string | null;
  created_by: string;
  /** contracts/workspaces.server.ts PRODUCT_TYPES: "Migration" or "Onboarding". */
  product_type: Generated<string>;
  /** 0/1: the company's default of its kind (at most one, by a partial unique index). */
  is_default: Generated<number>;
  /** The PostgreSQL server (host:port) holding the project's database; null before it is created. */
  database_server: string | null;
}

export interface WorkspaceSchemesTable {
  workspace_id: string;
  scheme_id: string;
  scheme_name: string;
  /** 0-based, in the order chosen. */
  position: number;
}

export interface ProjectUsersTable {
  project_id: string;
  user_id: string;
  can_read: number;
  can_write: number;
  granted_at: string;
  granted_by: string;
}

export interface JobsTable {
  id: string;
  project_id: string;
  kind: string;
  status: string;
  progress: Generated<number>;
  /** JSON of contracts' JobProgressDetail while a step reports it; null otherwise. */
  progress_detail: string | null;
  error: string | null;
  previous_status: string;
  created_by: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  heartbeat_at: string | null;
  /** Who asked to cancel the running job (a user id), and when; null until someone does. */
  cancel_requested_by: string | null;
  cancel_requested_at: string | null;
}

export interface JobStepsTable {
  job_id: string;
  position: number;
  name: string;
  status: string;
  started_at: string | null;
  finished_at: string | null;
  message: string | null;
}
