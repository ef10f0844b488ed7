/** Tables of applications and data dictionaries (master and project copies). Filled by migration 0002. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DictionaryTables {}
