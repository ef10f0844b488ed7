import { describe, expect, it } from "vitest";
import { createDataPlane, serversFromUrls } from "./servers.ts";

describe("project database servers", () => {
  it("reads PROJECT_DATABASES_URL as servers named host:port", () => {
    expect(serversFromUrls("postgres://a:pw@pg1.internal/postgres, postgresql://b@pg2.internal:6543/admin")).toEqual([
      { id: "pg1.internal:5432", adminUrl: "postgres://a:pw@pg1.internal/postgres" },
      { id: "pg2.internal:6543", adminUrl: "postgresql://b@pg2.internal:6543/admin" },
    ]);
    expect(() => serversFromUrls("postgres://pg1/x,postgres://pg1:5432/y")).toThrow(/named twice/);
    expect(() => serversFromUrls("mysql://pg1/x")).toThrow(/not a postgres/);
  });

  it("derives each project login's password from the secret: the same for the same login, different for another or another secret", () => {
    const plane = createDataPlane([{ id: "a:1", adminUrl: "postgres://a:1/x" }], { secret: "one secret of at least thirty-two chars" });
    const other = createDataPlane([{ id: "a:1", adminUrl: "postgres://a:1/x" }], { secret: "another secret, thirty-two chars or more" });
    expect(plane.passwordOf("dt_x_runner")).toBe(plane.passwordOf("dt_x_runner"));
    expect(plane.passwordOf("dt_x_runner")).not.toBe(plane.passwordOf("dt_y_runner"));
    expect(plane.passwordOf("dt_x_runner")).not.toBe(other.passwordOf("dt_x_runner"));
    expect(plane.passwordOf("dt_x_runner")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("refuses a project recorded on a server that is no longer configured", () => {
    const plane = createDataPlane([{ id: "a:1", adminUrl: "postgres://a:1/x" }], { secret: "s".repeat(32) });
    expect(() => plane.server("gone:5432")).toThrow(/not configured/);
  });
});
