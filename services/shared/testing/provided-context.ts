/** What the Vitest global setup (tests/setup/postgres.ts) hands to test files through `inject`. */
declare module "vitest" {
  export interface ProvidedContext {
    postgresAdminUrl: string | null;
    projectDatabasesAdminUrl: string | null;
  }
}

export {};
