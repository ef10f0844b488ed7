/** Tables of projects, project access, jobs and their steps. Filled by migration 0003. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ProjectTables {}
