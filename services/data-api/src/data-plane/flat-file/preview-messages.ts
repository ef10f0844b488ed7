/** What the preview worker (preview-worker.ts) is asked and answers. */
import type { FlatFileParameters } from "../../../../../contracts/projects.ts";
import type { PreviewFile } from "../../../../../contracts/loads.ts";
import type { DdlTable } from "../postgres-ddl.ts";

export type PreviewRequest = {
  parameters: FlatFileParameters;
  files: { path: string; name: string; size: number; table: DdlTable | null }[];
};

export type PreviewWorkerMessage = { kind: "end"; files: PreviewFile[] } | { kind: "crash"; message: string };
