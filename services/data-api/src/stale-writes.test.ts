/**
 * A stale save is refused rather than overwriting, route by route: every write of the data API's
 * OpenAPI document that is based on a version (`version` in its body or query, a script's
 * `baseVersion`) is sent with a version that is not the current one, on the caller's own things:
 * each must answer 409 saying that someone else changed it first, and nothing may change.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../scripts/demo-data.ts";
import { TEST_DATABASE_KINDS } from "../../shared/testing/databases.ts";
import { USERS } from "./testing/harness.ts";
import { collectionOf, routeSweep, snapshotOf, thingsOf, type Things } from "./testing/route-sweep.ts";

const [, acme] = DEMO_COMPANIES;

/** The codes of a stale save's 409: a thing's version (`conflict`), a script's (`stale_version`). */
const STALE_CODES = ["conflict", "stale_version"];

/** A version no thing has: every save based on it is stale. */
const STALE = 987_654;

describe.each(TEST_DATABASE_KINDS)("stale writes on every route, on %s", (kind) => {
  const sweep = routeSweep(kind);
  let analyst: string;
  let ours: Things;

  beforeAll(async () => {
    const { api } = sweep;
    analyst = await api.tokenFor(USERS.analyst);
    ours = await thingsOf(api, acme.id, analyst, "Acme");
    // A script is saved only under its editor's lock: held, so that only the version decides.
    for (const script of [
      `/api/v1/master-templates/${ours.master.templateId}/scripts/${ours.master.scriptId}`,
      `/api/v1/projects/${ours.byCollection.projects}/templates/${ours.project.templateId}/scripts/${ours.project.scriptId}`,
    ]) {
      expect((await api.send("POST", `${script}/lock`, analyst)).status).toBe(200);
    }
  }, 120_000);

  it("refuses a write based on a version that is not the current one, and changes nothing", async () => {
    const before = await snapshotOf(sweep.api, analyst, ours);
    const answered: string[] = [];
    // The three kinds of workspace share one implementation: the migration project's routes stand for them.
    const versioned = sweep.operations.filter((op) => {
      const fields = Object.keys(op.body?.properties ?? {});
      const based = fields.includes("version") || fields.includes("baseVersion") || op.query.some((p) => p.name === "version");
      // A restore's `version` goes only with `undo`, an entry of a history, which needs the project's databases (not made
      // here): backups.test.ts refuses an undo sent again or based on a page shown before a change.
      if (op.method === "POST" && op.path.endsWith("/restores")) return false;
      // Create databases' `version` is optional (a script's start sends none: the settings as they are), and the sweep sends
      // only what a body requires: jobs.test.ts refuses a start based on a stale one, nothing started.
      if (op.method === "POST" && op.path.endsWith("/try-create-databases")) return false;
      return based && !["audit-projects", "mapping-projects"].includes(collectionOf(op));
    });
    for (const op of versioned) {
      const res = await sweep.call(analyst, op, { parents: ours, version: STALE });
      // A project's copy of a template has no status: refused whatever the version.
      if (res.body?.code === "status_move_refused") continue;
      if (res.status !== 409 || !STALE_CODES.includes(res.body?.code)) {
        answered.push(`${op.method} ${op.path}: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
      }
    }
    expect(versioned.length).toBeGreaterThan(30);
    expect(answered).toEqual([]);
    expect(await snapshotOf(sweep.api, analyst, ours)).toEqual(before);
  }, 120_000);
});
