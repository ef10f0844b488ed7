/**
 * A script's SQL checked with PostgreSQL's own parser (libpg-query, the real grammar compiled to
 * WASM): a syntax error is reported at its line and column, as the editor shows it, and nothing is
 * saved. Parsing checks the grammar only; whether the tables exist is the run's preflight.
 */
import { parse } from "libpg-query";

export type SqlProblem = { line: number; column: number; message: string };

/** Line and column (1-based) of a 0-based character offset. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < Math.min(offset, text.length); i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** The first syntax error of `sql`, or null when PostgreSQL would parse it. */
export async function checkSql(sql: string): Promise<SqlProblem | null> {
  try {
    await parse(sql);
    return null;
  } catch (err) {
    const details = (err as { sqlDetails?: { message?: string; cursorPosition?: number } }).sqlDetails;
    if (!details) throw err;
    // libpg-query reports a 0-based offset in characters; past the end means "at the end".
    const { line, column } = positionOf(sql, Math.max(0, details.cursorPosition ?? sql.length));
    return { line, column, message: details.message ?? "syntax error" };
  }
}

/** The problem as the field's message: "Line 2, column 10: syntax error at or near "fro"". */
export const sqlProblemMessage = (p: SqlProblem) => `Line ${p.line}, column ${p.column}: ${p.message}`;
