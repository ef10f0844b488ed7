import { describe, expect, it } from "vitest";
import { SERVER_LOST_MESSAGE, failureMessage, isServerLost } from "./server-lost.ts";

/** A job's failure because its database server went away is said as that; any other failure in its own words. */
describe("isServerLost", () => {
  const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

  it("knows a session the server ended or refused by PostgreSQL's code, or a socket gone by Node's", () => {
    expect(isServerLost(coded("terminating connection due to administrator command", "57P01"))).toBe(true);
    expect(isServerLost(coded("the database system is starting up", "57P03"))).toBe(true);
    expect(isServerLost(coded("connection failure", "08006"))).toBe(true);
    expect(isServerLost(coded("read ECONNRESET", "ECONNRESET"))).toBe(true);
    expect(isServerLost(new Error("The load failed", { cause: coded("x", "57P02") }))).toBe(true);
  });

  it("knows it by the message alone, as a worker thread passes its error on (a load's: 'The load failed: read ECONNRESET')", () => {
    for (const message of [
      "The load failed: read ECONNRESET",
      "The load failed: write EPIPE",
      "Connection terminated unexpectedly",
      "The load failed: terminating connection due to unexpected postmaster exit",
      "connect ECONNREFUSED 127.0.0.1:5433",
    ])
      expect(isServerLost(new Error(message)), message).toBe(true);
  });

  it("leaves a script's or a file's own failure in its words", () => {
    for (const message of ["division by zero", 'relation "source.orders" does not exist', "Row 3 has 4 fields where the header has 3"])
      expect(failureMessage(new Error(message))).toBe(message);
    expect(failureMessage(new Error("The load failed: read ECONNRESET"))).toBe(SERVER_LOST_MESSAGE);
  });
});
