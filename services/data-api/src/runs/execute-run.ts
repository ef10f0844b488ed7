/**
 * Executes a run's scripts in order against the project's database (issue 11), as the project's
 * runner, with `search_path` destination, source and a statement timeout. Full: each script in its own
 * transaction (PostgreSQL's own: the script is sent as one message). Test: the whole run in one transaction (each script behind a savepoint, so "Continue"
 * works), rolled back at the end after counting what it would have left in each destination table.
 *
 * Each step records its status, rows changed, duration, notices and, on failure, PostgreSQL's message
 * with the line in the script. A cancel stops the running statement at once (pg_cancel_backend from
 * another connection) and the current script rolls back.
 */
import type { Kysely } from "kysely";
import { parse } from "libpg-query";
import type pg from "pg";
import type { Logger } from "../../../shared/logger.ts";
import type { RunStatus } from "../../../../contracts/runs.ts";
import type { OnError, RunType } from "../../../../contracts/values/runs.ts";
import { cancelStatement, databaseNameOf, rolesOf } from "../data-plane/project-databases.ts";
import type { DataPlane } from "../data-plane/servers.ts";
import type { Database } from "../db/schema.ts";
import { JobInputRefusedError } from "../jobs/start-job.ts";
import { finishSteps, setTableCounts, startStep, type PlannedStep, type StepResult } from "../repositories/runs.ts";
import { positionOf } from "../templates/sql-check.ts";
import { ScriptQuery } from "./script-query.ts";
import { failureMessage } from "../data-plane/server-lost.ts";

export type RunInput = {
  runId: string;
  projectId: string;
  serverId: string;
  type: RunType;
  onError: OnError;
  steps: readonly PlannedStep[];
  statementTimeoutSeconds: number;
};

/** How a run's scripts went, and the writes of what it did that commit with the run's end (run-jobs.ts). */
export type RunOutcome = {
  status: RunStatus;
  /** The step results not written yet and the destination's table counts, in `trx`. */
  record: (trx: Kysely<Database>) => Promise<void>;
};

/**
 * Step results written in batches, one statement each, at most every quarter second and whenever the
 * run stops: a run of a thousand one-millisecond scripts must not wait for a thousand commits of the
 * control plane. A killed process loses at most the last quarter second's results; the run is then
 * marked interrupted by the recovery.
 */
class StepRecorder {
  private queue: { position: number; result: StepResult; finishedAt: Date }[] = [];
  private flushed = performance.now();
  constructor(
    private readonly db: Kysely<Database>,
    private readonly runId: string,
  ) {}
  async record(position: number, result: StepResult) {
    this.queue.push({ position, result, finishedAt: new Date() });
    if (performance.now() - this.flushed > FLUSH_EVERY_MS) await this.flush();
  }
  /** Writes the queued results, in `db` when given (a transaction that writes more with them). */
  async flush(db: Kysely<Database> = this.db) {
    this.flushed = performance.now();
    if (!this.queue.length) return;
    // One statement for the batch: a run of a thousand tiny scripts is not a thousand writes.
    const batch = this.queue.splice(0);
    try {
      await finishSteps(db, this.runId, batch);
    } catch (err) {
      this.queue.unshift(...batch);
      throw err;
    }
  }
  /**
   * A script that runs long enough to be seen: the results queued before it are written first, so
   * the run's page never shows a later script Started while the ones before it still read Pending.
   */
  async started(position: number) {
    await this.flush();
    await startStep(this.db, this.runId, position);
  }
}

const FLUSH_EVERY_MS = 250;

/** How long a script runs before its step is marked Started. */
const STARTED_AFTER_MS = 200;

/** A script failed and the run stops there (On error: Stop the run): the user's to read, not the operator's log's. */
export class RunStoppedError extends JobInputRefusedError {
  override name = "RunStoppedError";
}

/**
 * What a script creates (`create table destination.summary as …`) belongs to the runner, which is the
 * project's owner's member but not the owner: the owner's default privileges do not reach it, and a SQL
 * credential granted Read or Write on the project was refused it ("permission denied for table"). So
 * at each run's end the runner grants the project's reader SELECT on each table, view and sequence
 * of its own in source and destination, and the writer INSERT, UPDATE, DELETE on its destination
 * tables (USAGE on their sequences), as the schemas' own tables have them (project-databases.ts). Only
 * what lacks a grant is granted: a run's end usually grants nothing. A table made by an earlier run
 * (before this rule) is shared at the project's next run.
 */
export function shareRunnerTables(projectId: string): string {
  const { reader, writer } = rolesOf(projectId);
  return `DO $share$ DECLARE t record; BEGIN
  FOR t IN SELECT n.nspname AS s, c.relname AS r, c.relkind AS k, c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relowner = (SELECT oid FROM pg_roles WHERE rolname = current_user) AND n.nspname IN ('source', 'destination')
              AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S') LOOP
    IF t.k = 'S' THEN
      IF t.s = 'destination' AND NOT has_sequence_privilege('${writer}', t.oid, 'USAGE') THEN
        EXECUTE format('GRANT USAGE, SELECT ON SEQUENCE %I.%I TO %I', t.s, t.r, '${writer}');
      END IF;
    ELSE
      IF NOT has_table_privilege('${reader}', t.oid, 'SELECT') THEN
        EXECUTE format('GRANT SELECT ON %I.%I TO %I', t.s, t.r, '${reader}');
      END IF;
      IF t.s = 'destination' AND t.k IN ('r', 'p') AND NOT has_table_privilege('${writer}', t.oid, 'INSERT') THEN
        EXECUTE format('GRANT INSERT, UPDATE, DELETE ON %I.%I TO %I', t.s, t.r, '${writer}');
      END IF;
    END IF;
  END LOOP;
END $share$;`;
}

/**
 * Rows of each destination table as a JSON object (name → rows), counted in the connection's current
 * transaction: an expression, so that it rides in a query the run sends anyway (its settings before
 * the scripts, its reset after them) rather than a round trip of its own; query_to_xml runs each
 * table's count(*) as the runner, where a query per table cost a round trip each, twice per run.
 */
const DESTINATION_COUNTS = `(select coalesce(json_object_agg(c.relname,
            (xpath('/row/n/text()', query_to_xml(format('select count(*) as n from destination.%I', c.relname), false, true, '')))[1]::text::bigint), '{}')
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'destination' and c.relkind in ('r', 'p') and has_table_privilege(c.oid, 'SELECT'))`;

const countsOf = (json: Record<string, number>) => new Map(Object.entries(json).map(([table, rows]) => [table, Number(rows)]));

/**
 * The rows a script's `create table … as select …` (or `select … into`) stored, null when it has none:
 * PostgreSQL tags them "SELECT n" as it tags a plain SELECT's rows returned, so the script is parsed to
 * tell them apart, only when a statement was so tagged and the script says AS or INTO (a run of a
 * thousand `select 1;` parses nothing). `offset`: statements the run sent before the script's own (a Test run's savepoint).
 */
async function rowsStored(sql: string, selects: readonly { index: number; rows: number }[], offset: number): Promise<number | null> {
  if (selects.length === 0 || !/\b(as|into)\b/i.test(sql)) return null;
  try {
    const { stmts } = (await parse(sql)) as { stmts: { stmt: Record<string, { intoClause?: unknown } | undefined> }[] };
    let rows: number | null = null;
    for (const { index, rows: n } of selects) {
      const stmt = stmts[index - offset]?.stmt;
      if (stmt && ("CreateTableAsStmt" in stmt || stmt.SelectStmt?.intoClause)) rows = (rows ?? 0) + n;
    }
    return rows;
  } catch {
    return null;
  }
}

/**
 * The line where the script's statement `index` (0-based) starts: a runtime error (a constraint, a
 * permission) has no position of its own, but it belongs to the statement after the ones that completed.
 */
async function lineOfStatement(sql: string, index: number): Promise<number | null> {
  try {
    const { stmts } = (await parse(sql)) as { stmts: { stmt_location?: number }[] };
    let at = stmts[index]?.stmt_location ?? 0;
    // A statement's location starts right after the previous one's semicolon: skip the blank and comment lines before it.
    for (;;) {
      while (at < sql.length && /\s/.test(sql[at]!)) at++;
      if (sql.startsWith("--", at)) at = sql.indexOf("\n", at) < 0 ? sql.length : sql.indexOf("\n", at);
      else break;
    }
    return positionOf(sql, at).line;
  } catch {
    return null;
  }
}

/**
 * The run's own settings, for the session ($1: the statement timeout in ms): names resolved in
 * destination, then source, as the preflight reads them, every statement stopped at the timeout, and
 * no role but the run's login (role none: the runner the connection logged in as; a script's SET ROLE
 * to the project's owner, of which the runner is a member, is not the next scripts'). RESET ALL does
 * not reset a role.
 */
const RUN_SETTINGS = `set_config('search_path', 'destination, source', false), set_config('statement_timeout', $1, false), set_config('role', 'none', false)`;

/** A statement starting with SET, RESET, DISCARD or DO, after the script's start or a semicolon and any comments. */
const STATEMENT_CHANGING_SETTINGS = /(^|;)\s*(--[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)*(set|reset|discard|do)\b/i;

/**
 * Whether a script may have changed its session's settings for the scripts after it: a SET or RESET
 * (not SET LOCAL, which ends with its transaction), a DISCARD, a DO block, or a call of set_config. Its
 * parse tree is read only when a statement of it starts with one of those words (STATEMENT_CHANGING_SETTINGS:
 * an UPDATE's SET does not, so a run of a thousand updates parses none of them); a script that does not parse ran nothing.
 */
async function changesSettings(sql: string): Promise<boolean> {
  if (/\bset_config\s*\(/i.test(sql)) return true;
  if (!STATEMENT_CHANGING_SETTINGS.test(sql)) return false;
  try {
    const { stmts } = (await parse(sql)) as { stmts: { stmt: { VariableSetStmt?: { is_local?: boolean }; DiscardStmt?: unknown; DoStmt?: unknown } }[] };
    return stmts.some(({ stmt }) => (stmt.VariableSetStmt && !stmt.VariableSetStmt.is_local) || stmt.DiscardStmt || stmt.DoStmt);
  } catch {
    return false;
  }
}

/** What a Test run's script says in place of a statement that would end the run's transaction (transactionEnd). */
export const testRunTransactionEndMessage = (statement: string) =>
  `A Test run is one transaction, rolled back at its end: its scripts may not end it. Take out this ${statement} (or run the script in a Full run); nothing of the script was run.`;

/** TransactionStmt kinds that end the transaction they are in, as said to the user: BEGIN, SAVEPOINT and the like do not. */
const TRANSACTION_ENDS: Record<string, string> = { TRANS_STMT_COMMIT: "COMMIT", TRANS_STMT_ROLLBACK: "ROLLBACK", TRANS_STMT_PREPARE: "PREPARE TRANSACTION" };

/**
 * The first statement of a script that would end the transaction it runs in (COMMIT, END, ROLLBACK,
 * ABORT, PREPARE TRANSACTION), with its line; null when it has none. A Test run is one transaction:
 * such a statement would commit what the run did so far (and a ROLLBACK would let the script's next
 * statements commit on their own), so a Test run must not send it. Parsed only when the script names
 * one of those words; a script that does not parse fails when it runs, as any other.
 */
async function transactionEnd(sql: string): Promise<{ statement: string; line: number | null } | null> {
  if (!/\b(commit|end|rollback|abort|prepare)\b/i.test(sql)) return null;
  let stmts: { stmt: { TransactionStmt?: { kind?: string } } }[];
  try {
    stmts = ((await parse(sql)) as { stmts: typeof stmts }).stmts;
  } catch {
    return null;
  }
  const index = stmts.findIndex((s) => TRANSACTION_ENDS[s.stmt.TransactionStmt?.kind ?? ""] !== undefined);
  if (index < 0) return null;
  return { statement: TRANSACTION_ENDS[stmts[index]!.stmt.TransactionStmt!.kind!]!, line: await lineOfStatement(sql, index) };
}

/**
 * Runs the steps; answers the run's result status (SUCCESS, CompletedWithWarning, CompletedWithFailures)
 * with the writes left for its end, or throws (the steps it did written).
 */
export async function executeRun(
  db: Kysely<Database>,
  dataPlane: DataPlane,
  input: RunInput,
  options: { signal: AbortSignal; progress: (fraction: number) => Promise<void>; logger: Logger },
): Promise<RunOutcome> {
  const { runId, projectId, serverId, steps } = input;
  return dataPlane.withLogin(serverId, databaseNameOf(projectId), rolesOf(projectId).runner, async (client) => {
    // The session's settings with its pid and the destination's rows before the run, in one round trip
    // (is_local false: the settings hold until the RESET ALL below).
    const timeoutMs = String(Math.max(1, Math.round(input.statementTimeoutSeconds)) * 1000);
    const { rows } = await client.query<{ pid: number; counts: Record<string, number> }>(
      `select pg_backend_pid() as pid, ${RUN_SETTINGS}, ${DESTINATION_COUNTS} as counts`,
      [timeoutMs],
    );
    const pid = rows[0]!.pid;
    const before = countsOf(rows[0]!.counts);
    // A cancel stops the running statement now, from another connection; the script's error follows.
    // Refused, the statement runs on to its timeout: said in the log.
    const cancel = () =>
      void cancelStatement(dataPlane, serverId, projectId, pid).catch((err: unknown) =>
        options.logger.warn("a run's Cancel could not stop its running statement: it stops at the statement timeout", { err, runId }),
      );
    options.signal.addEventListener("abort", cancel, { once: true });
    const notices: string[] = [];
    const onNotice = (msg: { severity?: string; message?: string }) => notices.push(`${msg.severity ?? "NOTICE"}: ${msg.message ?? ""}`);
    client.on("notice", onNotice);
    let failures = 0;
    let warnings = false;
    const recorder = new StepRecorder(db, runId);
    let ended = false;
    try {
      const test = input.type === "Test";
      if (test) await client.query("BEGIN");
      // Progress is written a quarter second into the run and then at most every quarter second: a run
      // of a thousand tiny scripts is not a thousand job updates, and one that ends sooner writes none
      // before its end (which says 100%).
      let reported = performance.now();
      let reportedSteps = 0;
      // In order, whoever reports: the loop after a script, or the mark of a long one. Not waited for:
      // the next script runs while the progress is written on its own thread; a write that failed
      // stops the run before the next script, as when it was waited for.
      let reporting = Promise.resolve();
      let reportFailed: { err: unknown } | undefined;
      const report = (done: number) => {
        reported = performance.now();
        reportedSteps = done;
        reporting = reporting
          .then(() => options.progress(done / steps.length))
          .catch((err: unknown) => {
            reportFailed ??= { err };
          });
      };
      for (const [index, step] of steps.entries()) {
        options.signal.throwIfAborted();
        if (reportFailed) throw reportFailed.err;
        const position = index + 1;
        notices.length = 0;
        const started = performance.now();
        /** The step Failed with `message` at `line`; the run stops there when it stops on an error. */
        const failed = async (message: string, line: number | null, failedNotices: string[]) => {
          await recorder.record(position, {
            status: "Failed",
            rowsAffected: null,
            durationMs: Math.round(performance.now() - started),
            notices: failedNotices,
            error: message,
            errorLine: line,
          });
          failures++;
          options.signal.throwIfAborted();
          if (input.onError === "stop") throw new RunStoppedError(`Script ${step.scriptName} failed${line ? ` at line ${line}` : ""}: ${message}`);
        };
        // Refused before it is sent: once sent, its COMMIT would have kept what the Test run did so far.
        const ending = test ? await transactionEnd(step.sql) : null;
        if (ending) {
          await failed(testRunTransactionEndMessage(ending.statement), ending.line, []);
          continue;
        }
        // One round trip per script: Full sends it alone (PostgreSQL runs a message of several statements
        // as one transaction, a single statement in its own); Test wraps it in a savepoint in the same message.
        const prefix = test ? "SAVEPOINT dt_step;\n" : "";
        const query = new ScriptQuery(test ? `${prefix}${step.sql}\n;RELEASE SAVEPOINT dt_step` : step.sql);
        // A step is marked Started only when it runs long enough for anyone to see it: most take a millisecond.
        // Its progress then too: the scripts before it are done, whatever the quarter-second throttle left unsaid.
        const marking = setTimeout(() => {
          void recorder.started(position).catch(() => undefined);
          if (reportedSteps < index) report(index);
        }, STARTED_AFTER_MS);
        try {
          client.query(query);
          await query.done;
          clearTimeout(marking);
          if (notices.some((n) => n.startsWith("WARNING"))) warnings = true;
          const stored = await rowsStored(step.sql, query.selects, test ? 1 : 0);
          await recorder.record(position, {
            status: "Completed",
            rowsAffected: query.changed || stored !== null ? query.rowsAffected + (stored ?? 0) : null,
            durationMs: Math.round(performance.now() - started),
            notices: [...notices],
            error: null,
            errorLine: null,
          });
        } catch (err) {
          clearTimeout(marking);
          const failedNotices = [...notices];
          if (test) await client.query("ROLLBACK TO SAVEPOINT dt_step");
          // A script that opened its own transaction and failed in it leaves it aborted: end it.
          else if ((client as unknown as { _txStatus?: string })._txStatus !== "I") await client.query("ROLLBACK");
          const e = err as { message?: string; position?: string };
          const line = e.position
            ? positionOf(step.sql, Math.max(0, Number(e.position) - 1 - prefix.length)).line
            : await lineOfStatement(step.sql, query.completed - (test ? 1 : 0));
          const cancelled = options.signal.aborted;
          // A server that went away is said as that, not in its words (server-lost.ts); a script's own error as PostgreSQL gave it.
          const message = cancelled ? "Cancelled while it ran: rolled back." : failureMessage(err);
          await failed(message, cancelled ? null : line, failedNotices);
        }
        // What the script set (its own search_path, no timeout, another role) is not the next scripts': they run with the run's settings.
        if (await changesSettings(step.sql)) await client.query(`select ${RUN_SETTINGS}`, [timeoutMs]);
        if (performance.now() - reported > 250 && position < steps.length) report(position);
      }
      // The destination's rows after the run (a Test run's before its rollback), the reset, and the
      // tables the scripts made shared with the project: one message.
      const [{ rows: counted }] = (await client.query(
        `select ${DESTINATION_COUNTS} as counts;${test ? "\nROLLBACK;" : ""}\nRESET ALL;\n${shareRunnerTables(projectId)}`,
      )) as unknown as [pg.QueryResult<{ counts: Record<string, number> }>];
      const after = countsOf(counted[0]!.counts);
      await reporting;
      if (reportFailed) throw reportFailed.err;
      ended = true;
      return {
        status: failures ? "CompletedWithFailures" : warnings ? "CompletedWithWarning" : "SUCCESS",
        // The last results and the table counts: in the commit that ends the run (one commit of the control plane, not two).
        record: async (trx) => {
          await recorder.flush(trx);
          await setTableCounts(
            trx,
            runId,
            [...after].map(([table, rows]) => ({ table, rowsBefore: before.get(table) ?? null, rows })),
          );
        },
      };
    } finally {
      // A stopped or cancelled run records the steps it did here.
      if (!ended) await recorder.flush().catch(() => undefined);
      options.signal.removeEventListener("abort", cancel);
      client.off("notice", onNotice);
    }
  });
}
