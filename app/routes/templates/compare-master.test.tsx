/**
 * Compare with master and the line diff's words, rendered on the server: which side changed a script,
 * and the diff's headings in one case.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { MasterComparison, ScriptDiff } from "../../../contracts/templates";
import { LineDiff } from "~/components/templates/line-diff";
import CompareWithMaster from "./compare-master";

const diff: ScriptDiff = { from: 1, to: 2, added: 1, removed: 0, lines: [{ kind: "added", text: "select 2;", oldLine: null, newLine: 1 }] };

describe("Compare with master", () => {
  it("tells a script changed here from one changed in the master, or in both, and says only 'Differs' when that is not known", () => {
    const comparison: MasterComparison = {
      masterTemplateId: "m1",
      masterName: "Core",
      copiedVersion: 3,
      masterVersion: 5,
      scripts: [
        { level: "Load", name: "Same one", state: "same", changedIn: null, diff: null },
        { level: "Load", name: "Mine", state: "changed", changedIn: "here", diff },
        { level: "Load", name: "Theirs", state: "changed", changedIn: "master", diff },
        { level: "Load", name: "Ours", state: "changed", changedIn: "both", diff },
        { level: "Load", name: "Unknown", state: "changed", changedIn: null, diff },
      ],
    };
    const page = "/migration/projects/p1/templates/t1/compare-master";
    const Stub = createRoutesStub([
      {
        path: page,
        Component: () => (
          <CompareWithMaster
            {...({ loaderData: { templateId: "t1", comparison }, params: {}, matches: [] } as unknown as Parameters<typeof CompareWithMaster>[0])}
          />
        ),
      },
    ]);
    const html = renderToStaticMarkup(<Stub initialEntries={[page]} />);
    const states = [...html.matchAll(/<tr[^>]*><td[^>]*>Load<\/td><td[^>]*>([^<]+)<\/td><td[^>]*>([^<]+)<\/td>/g)].map((m) => [m[1], m[2]]);
    expect(states).toEqual([
      ["Same one", "Same"],
      ["Mine", "Changed here"],
      ["Theirs", "Changed in the master"],
      ["Ours", "Changed here and in the master"],
      ["Unknown", "Differs"],
    ]);
    expect(html).toContain("The master → this copy");
  });
});

describe("a line diff", () => {
  it("names the versions in one case in its headings, capitalised only where a sentence starts", () => {
    const html = renderToStaticMarkup(<LineDiff diff={diff} label="Changes" />);
    expect(html).toContain("Version 1 → version 2: 1 line added");
    expect(html).toContain('<th scope="col">Line in version 1</th><th scope="col">Line in version 2</th>');
  });
});
