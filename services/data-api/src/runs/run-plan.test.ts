import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DATABASE_KINDS } from "../../../shared/testing/databases.ts";
import { createTestApi, type TestApi } from "../testing/harness.ts";
import { planRun } from "./run-plan.ts";

describe.each(TEST_DATABASE_KINDS)("a run's plan on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api?.close());

  it("a rerun whose failed script is gone says so with the workspace's noun", async () => {
    const scope = { templateIds: [], levelIds: [], scriptId: null, fromScriptId: "a-removed-script" };
    for (const noun of ["configuration", "project"])
      await expect(planRun(api.db, "a-workspace", scope, noun)).rejects.toMatchObject({
        status: 409,
        message: `The script that failed is no longer in the ${noun}: start a new run instead.`,
      });
  });
});
