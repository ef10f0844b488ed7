import type { Migration } from "kysely";
import * as m0001 from "./0001_initial.ts";
import * as m0002 from "./0002_dictionaries.ts";
import * as m0003 from "./0003_projects.ts";
import * as m0004 from "./0004_workspaces.ts";
import * as m0005 from "./0005_review_rows.ts";
import * as m0006 from "./0006_workspace_list_order.ts";
import * as m0007 from "./0007_project_database_server.ts";
import * as m0008 from "./0008_flat_file_loads.ts";
import * as m0009 from "./0009_job_cancel.ts";
import * as m0010 from "./0010_lock_events.ts";
import * as m0011 from "./0011_load_history.ts";
import * as m0012 from "./0012_backups.ts";
import * as m0013 from "./0013_templates.ts";
import * as m0014 from "./0014_runs.ts";
import * as m0015 from "./0015_value_maps.ts";
import * as m0016 from "./0016_translations.ts";
import * as m0017 from "./0017_workspace_value_maps.ts";
import * as m0018 from "./0018_sql_access.ts";
import * as m0019 from "./0019_webhooks.ts";
import * as m0020 from "./0020_workspace_list_order_by_id.ts";
import * as m0021 from "./0021_project_updated_by.ts";
import * as m0022 from "./0022_sql_login_tables_shared.ts";
import * as m0023 from "./0023_project_users_granted_order.ts";
import * as m0024 from "./0024_templates_step_done.ts";
import * as m0025 from "./0025_application_natural_order.ts";
import * as m0026 from "./0026_names_natural_order.ts";
import * as m0027 from "./0027_sql_credential_names.ts";
import * as m0028 from "./0028_revoked_sql_permissions.ts";
import * as m0029 from "./0029_comparison_table_counts.ts";
import * as m0030 from "./0030_runs_rerun_of.ts";

/** Every migration by its sortable name. Append only; never rename or edit a shipped one. */
export const migrations: Record<string, Migration> = {
  "0001_initial": m0001,
  "0002_dictionaries": m0002,
  "0003_projects": m0003,
  "0004_workspaces": m0004,
  "0005_review_rows": m0005,
  "0006_workspace_list_order": m0006,
  "0007_project_database_server": m0007,
  "0008_flat_file_loads": m0008,
  "0009_job_cancel": m0009,
  "0010_lock_events": m0010,
  "0011_load_history": m0011,
  "0012_backups": m0012,
  "0013_templates": m0013,
  "0014_runs": m0014,
  "0015_value_maps": m0015,
  "0016_translations": m0016,
  "0017_workspace_value_maps": m0017,
  "0018_sql_access": m0018,
  "0019_webhooks": m0019,
  "0020_workspace_list_order_by_id": m0020,
  "0021_project_updated_by": m0021,
  "0022_sql_login_tables_shared": m0022,
  "0023_project_users_granted_order": m0023,
  "0024_templates_step_done": m0024,
  "0025_application_natural_order": m0025,
  "0026_names_natural_order": m0026,
  "0027_sql_credential_names": m0027,
  "0028_revoked_sql_permissions": m0028,
  "0029_comparison_table_counts": m0029,
  "0030_runs_rerun_of": m0030,
};
