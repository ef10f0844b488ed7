/** What the translate worker (translate-worker.ts) is asked and answers. */
import type { FlatFileParameters } from "../../../../contracts/projects.ts";
import type { TranslationReport } from "../../../../contracts/mappings.ts";
import type { UnmappedRule } from "../../../../contracts/values/mappings.ts";
import type { DdlTable } from "../data-plane/postgres-ddl.ts";

export type TranslatedColumn = {
  name: string;
  rule: UnmappedRule;
  defaultValue: string | null;
  /** The column's mapped pairs (source → target); an unmapped value is absent. */
  pairs: [string, string][];
};

export type TranslateRequest = {
  path: string;
  outPath: string;
  parameters: FlatFileParameters;
  table: DdlTable;
  translated: TranslatedColumn[];
};

export type TranslateProgress = { bytesRead: number; rowsRead: number; rowsWritten: number; rowsRejected: number };

export type TranslateWorkerMessage =
  | ({ kind: "progress" } & TranslateProgress)
  | ({ kind: "end"; report: TranslationReport } & TranslateProgress)
  | { kind: "problem"; message: string }
  | { kind: "crash"; message: string };
