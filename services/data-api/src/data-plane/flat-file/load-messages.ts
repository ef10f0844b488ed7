/** What the load worker (load-worker.ts) and the data API's thread (load-in-worker.ts) say to each other. */
import type { FlatFileParameters } from "../../../../../contracts/projects.ts";
import type { LOAD_MODES, ON_REJECTED } from "../../../../../contracts/values/loads.ts";
import type { DdlTable } from "../postgres-ddl.ts";

/** One file of a load and the table it goes into (the `source` schema's, as the dictionary describes it). */
export type LoadFile = {
  filePath: string;
  fileName: string;
  table: DdlTable;
  /** The file is still being uploaded (arriving-file.ts ArrivingFile.shared): read as it comes. */
  arriving?: SharedArrayBuffer;
};

export type LoadRequest = {
  /** Loaded in this order, in one transaction: with "Load nothing", a rejected row of any file leaves every table as it was. */
  files: LoadFile[];
  parameters: FlatFileParameters;
  mode: (typeof LOAD_MODES)[number];
  onRejected: (typeof ON_REJECTED)[number];
  /** The project's runner login: the worker works on a connection of its own, as the project. */
  connectionUrl: string;
  /**
   * Each file's rows read so far (a Float64Array, a slot per file), written by the worker as it reads:
   * what a load stopped before its answer (a cancel, a crash) says it had read.
   */
  rowsRead?: SharedArrayBuffer;
  /** How often, at most, the worker tells how far it is (250 ms; a test asks for every chunk of the file it reads). */
  progressEveryMs?: number;
};

export type Rejection = { line: number; column: string | null; value: string | null; reason: string; cells: string[] };

export type LoadOutcome = {
  status: "Loaded" | "Refused" | "Failed";
  rowsRead: number;
  rowsLoaded: number;
  rowsRejected: number;
  message: string | null;
};

/** What one file of a load did. */
export type FileCounts = Pick<LoadOutcome, "rowsRead" | "rowsLoaded" | "rowsRejected">;

/** The whole load's end: its status and message, and each file's counts (in the request's order). */
export type LoadResult = Pick<LoadOutcome, "status" | "message"> & { files: FileCounts[] };

/** `file`: the index of the file (LoadRequest.files) the message is about. Acknowledged ones are answered "ack" once stored. */
export type LoadWorkerMessage =
  /** Connected: acknowledged when the load may begin (the job's earlier steps are done). */
  | { kind: "ready" }
  /** Acknowledged. */
  | { kind: "header"; file: number; cells: string[] }
  /** Bytes of the file read so far, and the data rows among them (a pass read again starts at 0). */
  | { kind: "progress"; file: number; bytes: number; rows: number }
  /** Acknowledged, so neither thread holds more than a batch. */
  | { kind: "rejected"; file: number; rows: Rejection[] }
  /** The direct path met a duplicate key: forget the file's rejected rows reported so far, it is read again. Acknowledged. */
  | { kind: "reset"; file: number }
  /** The file is read and in its table (not committed yet): the next one starts. */
  | { kind: "file-read"; file: number }
  /** Every file read and checked, the transaction about to commit: acknowledged only while the job is still wanted. */
  | { kind: "commit" }
  | { kind: "end"; result: LoadResult }
  | { kind: "crash"; message: string };
