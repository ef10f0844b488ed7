/**
 * A script's History compares two of its versions from the URL (`from`, `to`: the page's GET form, or a
 * hand-made or old link): versions the script does not have are said at the top, with a 400, the page
 * still listing the versions it has, where they answered the page without a comparison and without a word.
 */
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../scripts/demo-data";
import { startLiveServices } from "~/test/live-services";

const live = await startLiveServices();
afterAll(() => live.stop());

const { createHarness, unwrap } = await import("../workspace/test-support");
const { call, api, masterTemplate } = await createHarness();
const scriptHistory = await import("./script-history");
const { middleware: templateMiddleware } = await import("./template-layout");
const { middleware: scriptMiddleware } = await import("./script-layout");

const [, acme] = DEMO_COMPANIES;
const ANALYST = "analyst@demo.test";

describe("a script's history compared", () => {
  it("says at the top which versions asked for the script does not have, with a 400 and its versions still listed; two it has are compared", async () => {
    const template = await masterTemplate(ANALYST, acme.id, `History ${crypto.randomUUID()}`);
    const base = `/api/v1/master-templates/${template.id}`;
    await api(ANALYST, "POST", `${base}/scripts/${template.scriptId}/lock`);
    await api(ANALYST, "PUT", `${base}/scripts/${template.scriptId}`, { baseVersion: 1, sql: "select 2;", comment: "Second" });
    const params = { templateId: template.id, levelId: template.levelId, scriptId: template.scriptId };
    const history = async (search: string) =>
      unwrap(
        await call(
          ANALYST,
          `/migration/master-templates/${template.id}/edit/level/${template.levelId}/script/edit/${template.scriptId}/history?companyId=${acme.id}&${search}`,
          scriptHistory.loader,
          { params, middleware: [...templateMiddleware, ...scriptMiddleware] as never[] },
        ),
      );

    const compared = await history("from=1&to=2");
    expect(compared?.status).toBe(200);
    expect(compared?.data).toMatchObject({ refused: null, diff: { from: 1, to: 2 } });

    const cases: [string, string][] = [
      ["from=1&to=99", "There is no version “99” of this script: its versions are 1 to 2. Choose two of them to compare."],
      ["from=0&to=99", "There are no versions “0” and “99” of this script: its versions are 1 to 2. Choose two of them to compare."],
      ["from=abc&to=2", "There is no version “abc” of this script: its versions are 1 to 2. Choose two of them to compare."],
      ["from=&to=2", "Choose two versions to compare."],
      ["from=1", "Choose two versions to compare."],
    ];
    for (const [search, message] of cases) {
      const refused = await history(search);
      expect(refused?.status, search).toBe(400);
      expect(refused?.data, search).toMatchObject({ refused: message, diff: null, versions: { total: 2 } });
    }
    // Nothing asked: the page as it opens, no word.
    expect((await history(""))?.data).toMatchObject({ refused: null, diff: null });
  });
});
