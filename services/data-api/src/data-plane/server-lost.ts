/**
 * A job's work on a project database that ended because the database server went away (stopped,
 * killed, restarting): said to its user as that, not as pg's or PostgreSQL's words for it
 * ("Connection terminated unexpectedly", "terminating connection due to unexpected postmaster exit").
 */
import { ConnectionsBusyError } from "./server-connections.ts";

export const SERVER_LOST_MESSAGE = "The project databases' server stopped while the job ran.";

/** What a request that met it answers (a 503): the embedded server is started again within seconds. */
export const SERVER_NOT_ANSWERING_MESSAGE = "The databases' server is not answering (it may be starting again). Try again in a moment.";

/** PostgreSQL's codes for a session it ended or refused while stopping or starting, and Node's for a socket that went. */
const LOST_CODES = new Set(["57P01", "57P02", "57P03", "ECONNREFUSED", "ECONNRESET", "EPIPE"]);

/** The same, as messages: an error a worker thread passed on keeps its message only. */
const LOST_MESSAGE =
  /Connection terminated|terminating connection due to (unexpected postmaster exit|administrator command|crash of another server process)|the database system is (shutting down|starting up|in recovery mode)|server closed the connection unexpectedly|connect ECONNREFUSED|(read|write) ECONNRESET|write EPIPE|Client was closed and is not queryable|Client has encountered a connection error/i;

/** Whether `err` (or what caused it) says the connection to the database server was lost. */
export function isServerLost(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && (LOST_CODES.has(code) || code.startsWith("08"))) return true;
    if (LOST_MESSAGE.test(e.message)) return true;
  }
  return false;
}

/** What a failed job tells its user: SERVER_LOST_MESSAGE when the server went away, else the error's message. */
export function failureMessage(err: unknown): string {
  if (isServerLost(err)) return SERVER_LOST_MESSAGE;
  return err instanceof Error && err.message ? err.message : String(err);
}

/**
 * What a request answers with a 503 when `err` says to try again in a moment: SERVER_NOT_ANSWERING_MESSAGE
 * for a lost server, the busy budget's own words when every connection stayed in use; else null.
 */
export function serverNotAnswering(err: unknown): string | null {
  if (err instanceof ConnectionsBusyError) return err.message;
  return isServerLost(err) ? SERVER_NOT_ANSWERING_MESSAGE : null;
}
