/**
 * What a restore or a comparison reads a table's earlier rows from (issue 10): a backup archive of
 * the product's own (backup-archive.ts), or a client's SQLite export (sqlite-export.ts). Both give
 * each table as PostgreSQL CSV, so the rows go into PostgreSQL through one COPY path whatever their
 * origin, streamed: no table is ever held whole in memory.
 */

/** One table's rows, streamed. */
export type TableInput = {
  /** The table's name as the input spells it: matched to the dictionary's by name (any case). */
  table: string;
  /**
   * The CSV's columns in order, as its header row names them. `type` is the PostgreSQL type the
   * backup recorded (as `format_type` writes it); null when the input does not say (a SQLite export).
   */
  columns: { name: string; type: string | null }[];
  /**
   * The rows as PostgreSQL CSV, exactly what `COPY … TO STDOUT WITH (FORMAT csv, HEADER true)` writes:
   * the header row first, then a line per row; NULL is an unquoted empty field, an empty string `""`.
   * A reader that verifies its input (a checksum) throws from this iterator, at the latest after its
   * last chunk, when the input is not what it claims: the consumer's transaction then rolls back.
   * Each iteration reads it from its start: a restore reads it once, and again (up to a row, unchecked)
   * only once PostgreSQL has refused a value, to name that value's row.
   */
  csv: AsyncIterable<Buffer>;
  /** Bytes of CSV it holds, when known (for progress). */
  bytes: number | null;
};

/** Why an input cannot be restored or compared, in a sentence for the user (a 4xx at the route, a failed job after). */
export class RestoreInputProblem extends Error {
  override name = "RestoreInputProblem";
}
