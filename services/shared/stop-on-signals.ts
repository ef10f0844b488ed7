import type http from "node:http";
import type { Logger } from "./logger.ts";

export type StopOptions = {
  /** How long requests under way get once the signal has come. */
  graceMs: number;
  logger: Logger;
  /** Run as the signal comes, before the server closes: what would go on starting work (timers, sweeps). */
  beforeClose?: () => void;
  /** Run once the server has closed and its last connection ended; the process exits 0 when it has finished. */
  cleanup?: () => Promise<void>;
  /**
   * What the end of the grace period does to a stop not yet finished: `cut` (the default) ends the connections
   * still open, and the stop goes on; `exit` ends the process there and then with 1, whatever is still under
   * way (the data API, whose cleanup waits for its running jobs within the same grace).
   */
  afterGrace?: "cut" | "exit";
  /** How the process ends: process.exit, but for the tests. */
  exit?: (code: number) => void;
};

/**
 * How the three servers stop on SIGINT or SIGTERM: the first signal starts the stop and those after it
 * change nothing (a second Ctrl-C included: the grace period already bounds the wait). The server stops
 * taking connections and closes the idle ones at once (browsers keep connections alive, and close() would
 * wait for them until they time out), and each one as it becomes idle; requests under way get `graceMs`;
 * then `cleanup`, and exit 0. The three entries: server/server.ts (the portal, 10 s), the client portal's
 * (5 s) and the data API's (SHUTDOWN_GRACE_MS, its timers stopped first, and exit 1 past the grace).
 * Returns the stop itself (the signal handler), for the tests.
 */
export function stopOnSignals(
  server: Pick<http.Server, "close" | "closeAllConnections" | "closeIdleConnections">,
  { graceMs, logger, beforeClose, cleanup, afterGrace = "cut", exit = (code) => process.exit(code) }: StopOptions,
): (signal: NodeJS.Signals) => Promise<void> {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info("stopping", { signal });
    beforeClose?.();
    const grace = setTimeout(() => {
      if (afterGrace === "cut") return server.closeAllConnections();
      logger.warn("requests still open after the grace period; exiting anyway");
      exit(1);
    }, graceMs);
    grace.unref();
    // close() closes the idle connections (Node 19 on); one whose request ends within the grace would stay
    // open, idle, until its keep-alive timeout (5 s): closed soon after instead.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    idle.unref();
    await closed;
    clearInterval(idle);
    try {
      await cleanup?.();
    } catch (err) {
      logger.error("stop failed", { err });
      return exit(1);
    }
    clearTimeout(grace);
    exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return stop;
}
