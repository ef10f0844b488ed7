/**
 * One script sent to PostgreSQL as it is written (the simple query protocol: several statements in
 * one go), as a node-postgres Submittable that keeps no rows: a script's SELECT may return millions,
 * and a run only needs the rows each statement changed. A COPY FROM STDIN in a script is refused (a
 * script has no client file to send); COPY TO STDOUT is read and dropped.
 */
import type { Submittable } from "pg";

/** The commands whose count is rows changed. */
const CHANGING = new Set(["INSERT", "UPDATE", "DELETE", "MERGE", "COPY"]);

/** The connection node-postgres hands a Submittable (its types leave out sendCopyFail). */
type Connection = { query(text: string): void; sendCopyFail?(message: string): void };

export class ScriptQuery implements Submittable {
  rowsAffected = 0;
  changed = false;
  /** Statements that completed: when one fails, the next is the one that failed. */
  completed = 0;
  /** Statements tagged "SELECT n" (by index): a SELECT's rows returned, or the rows a CREATE TABLE … AS / SELECT … INTO stored. */
  readonly selects: { index: number; rows: number }[] = [];
  readonly done: Promise<void>;
  private settle!: { resolve: () => void; reject: (err: Error) => void };
  private settled = false;
  constructor(private readonly text: string) {
    this.done = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
    this.done.catch(() => undefined);
  }
  submit(connection: unknown) {
    (connection as Connection).query(this.text);
  }
  handleRowDescription() {}
  handleDataRow() {}
  handlePortalSuspended() {}
  handleEmptyQuery() {}
  handleCommandComplete(msg: { text: string }) {
    const index = this.completed++;
    const words = msg.text.split(" ");
    if (CHANGING.has(words[0]!)) {
      this.rowsAffected += Number(words.at(-1)) || 0;
      this.changed = true;
    } else if (words[0] === "SELECT" && words.length === 2) this.selects.push({ index, rows: Number(words[1]) || 0 });
  }
  handleCopyInResponse(connection: Connection) {
    connection.sendCopyFail?.(
      "COPY FROM STDIN cannot be used in a script: the data is not sent from a client. Load files through the project's databases page.",
    );
  }
  handleCopyData() {}
  handleError(err: Error) {
    // node-postgres drops the active query before it reads ReadyForQuery: settle here.
    if (this.settled) return;
    this.settled = true;
    this.settle.reject(err);
  }
  handleReadyForQuery() {
    if (this.settled) return;
    this.settled = true;
    this.settle.resolve();
  }
}
