/** What the load worker (load-worker.ts) and the data API's thread (load-in-worker.ts) say to each other. */
import type { FlatFileParameters } from "../../../../../contracts/projects.ts";
import type { LOAD_MODES, ON_REJECTED } from "../../../../../contracts/values/loads.ts";
import type { DdlTable } from "../postgres-ddl.ts";

export type LoadRequest = {
  filePath: string;
  parameters: FlatFileParameters;
  /** The table in the `source` schema, as the dictionary describes it. */
  table: DdlTable;
  mode: (typeof LOAD_MODES)[number];
  onRejected: (typeof ON_REJECTED)[number];
  /** The project's runner login: the worker works on a connection of its own, as the project. */
  connectionUrl: string;
};

export type Rejection = { line: number; column: string | null; value: string | null; reason: string; cells: string[] };

export type LoadOutcome = {
  status: "Loaded" | "Refused" | "Failed";
  rowsRead: number;
  rowsLoaded: number;
  rowsRejected: number;
  message: string | null;
};

export type LoadWorkerMessage =
  | { kind: "header"; cells: string[] }
  /** Bytes of the file read so far, and the data rows among them (a pass read again starts at 0). */
  | { kind: "progress"; bytes: number; rows: number }
  /** Answered with "ack" once stored, so neither thread holds more than a batch. */
  | { kind: "rejected"; rows: Rejection[] }
  /** The direct path met a duplicate key: forget the rejected rows reported so far, the file is read again. Acknowledged. */
  | { kind: "reset" }
  | { kind: "end"; outcome: LoadOutcome }
  | { kind: "crash"; message: string };
