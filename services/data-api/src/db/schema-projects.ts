/** Tables of projects, project access, jobs and their steps. Filled by migration 0003. */
import type { Generated } from "kysely";

export interface ProjectTables {
  projects: ProjectsTable;
  project_users: ProjectUsersTable;
  jobs: JobsTable;
  job_steps: JobStepsTable;
}

export interface ProjectsTable {
  id: string;
  company_id: string;
  application_id: string;
  name: string;
  /** The lower-cased name: unique per company. */
  name_key: string;
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
  version: Generated<number>;
  created_at: string;
  updated_at: string;
  created_by: string;
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
  error: string | null;
  previous_status: string;
  created_by: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  heartbeat_at: string | null;
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
