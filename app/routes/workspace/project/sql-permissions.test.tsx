/**
 * The SQL permissions form after a refused save, rendered on the server as a page without JavaScript
 * gets it: the list of credentials may have changed between the page and the save.
 */
import type { SubmissionResult } from "@conform-to/react";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import SqlPermissions from "./sql-permissions";

type Item = { credentialId: string; name: string; login: string; status: string; expiresOn: string; level: "none" | "read" | "write" };

const item = (credentialId: string, level: Item["level"]): Item => ({
  credentialId,
  name: `Reporting ${credentialId}`,
  login: `dtc_${credentialId}`,
  status: "Active",
  expiresOn: "2027-01-31",
  level,
});

function render(items: Item[], result?: SubmissionResult<string[]>, databasesExist = true): string {
  const loaderData = {
    projectId: "p1",
    noun: "project",
    canWrite: true,
    locked: false,
    companyId: "c1",
    permissions: { items, database: databasesExist ? "dt_p1" : null, databasesExist },
  };
  const Stub = createRoutesStub([
    {
      path: "/migration/projects/:projectId/users/sql-permissions",
      Component: () => (
        <SqlPermissions
          {...({ loaderData, actionData: result ? { result } : undefined, params: { projectId: "p1" }, matches: [] } as unknown as Parameters<
            typeof SqlPermissions
          >[0])}
        />
      ),
    },
  ]);
  return renderToStaticMarkup(<Stub initialEntries={["/migration/projects/p1/users/sql-permissions"]} />);
}

/** The level each credential's select shows, by credential. */
function levels(html: string): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const li of html.split("<li").slice(1)) {
    const id = /name="entries\[\d+\]\.credentialId" value="([^"]+)"/.exec(li)?.[1];
    const level = /<option value="(\w+)" selected=""/.exec(li)?.[1];
    if (id && level) shown[id] = level;
  }
  return shown;
}

/** A refusal as the action answers it: the entries posted, and the service's message. */
const refused = (entries: { credentialId: string; level: string; was: string }[], message: string): SubmissionResult<string[]> => ({
  status: "error",
  initialValue: { intent: "save", entries },
  error: { "": [message] },
});

describe("SQL permissions after a refused save", () => {
  it("shows every credential of the list and the message when a credential was made meanwhile (the page answered 500)", () => {
    const html = render(
      [item("a", "read"), item("new", "none"), item("b", "none")],
      refused(
        [
          { credentialId: "a", level: "write", was: "read" },
          { credentialId: "b", level: "read", was: "none" },
        ],
        "The SQL permission of Reporting a (dtc_a) was changed by someone else. Nothing was saved.",
      ),
    );
    expect(html).toContain("The SQL permission of Reporting a (dtc_a) was changed by someone else. Nothing was saved.");
    // Each row keeps the choice made for its own credential, not the one posted at its position.
    expect(levels(html)).toEqual({ a: "write", new: "none", b: "read" });
  });

  it("shows the level someone else saved rather than the user's choice for that credential", () => {
    const html = render(
      [item("a", "none"), item("b", "none")],
      refused(
        [
          { credentialId: "a", level: "write", was: "read" },
          { credentialId: "b", level: "read", was: "none" },
        ],
        "The SQL permission of Reporting a (dtc_a) was changed by someone else. Nothing was saved.",
      ),
    );
    expect(levels(html)).toEqual({ a: "none", b: "read" });
  });

  it("drops a credential that is no longer the company's", () => {
    const html = render(
      [item("a", "read")],
      refused(
        [
          { credentialId: "other", level: "write", was: "none" },
          { credentialId: "a", level: "none", was: "read" },
        ],
        "No such SQL credential.",
      ),
    );
    expect(levels(html)).toEqual({ a: "none" });
    expect(html).not.toContain("other");
  });

  it("says a refused level of a post that sent only some rows (a forged one) at the top, not under a row it was not posted for", () => {
    const html = render([item("a", "read"), item("b", "none")], {
      status: "error",
      initialValue: { intent: "save", entries: [{ credentialId: "b", level: "admin", was: "none" }] },
      error: { "entries[0].level": ["Choose None, Read or Write"] },
    });
    expect(html.match(/Choose None, Read or Write/g)).toHaveLength(1);
    expect(html.indexOf("Choose None, Read or Write")).toBeLessThan(html.indexOf('aria-label="SQL credentials"'));
    expect(levels(html).a).toBe("read");
  });

  it("shows a credential's stored level, not the first option, beside a level the form does not offer (a forged one), and keeps the other rows' choices", () => {
    const html = render([item("a", "read"), item("b", "none")], {
      status: "error",
      initialValue: {
        intent: "save",
        entries: [
          { credentialId: "a", level: "Admin", was: "read" },
          { credentialId: "b", level: "write", was: "none" },
        ],
      },
      error: { "entries[0].level": ["Choose None, Read or Write"] },
    });
    expect(levels(html)).toEqual({ a: "read", b: "write" });
    // The message stays under the row's own select, once.
    expect(html.match(/Choose None, Read or Write/g)).toHaveLength(1);
    expect(html).toMatch(/value="a"[^]*Choose None, Read or Write[^]*value="b"/);
  });
});

describe("SQL permissions of a project without databases", () => {
  // axe's link-in-text-block (WCAG 1.4.1): a link inside a sentence is told from the text by more than its colour.
  it("underlines the link to create them, which sits in the sentence", () => {
    const html = render([], undefined, false);
    const link = /This project has no databases yet\. <a [^>]*class="([^"]*)"[^>]*>Create them<\/a> before granting SQL access\./.exec(html);
    expect(link?.[1]?.split(" ")).toContain("underline");
  });
});
