/**
 * The project access page after a refused post, rendered on the server as a page without JavaScript
 * gets it: the access list may have changed between the page and the post (another tab).
 */
import { describe, expect, it } from "vitest";
import { pageSizeChoice } from "~/test/page-size-form";
import { renderPage } from "~/test/render-page";
import ProjectAccess from "./project-access";

const page = "/migration/projects/p1/users/project-access";
const grant = (userId: string, name: string) => ({
  userId,
  canRead: true,
  canWrite: false,
  grantedAt: "2026-11-27T10:00:00.000Z",
  user: { id: userId, name, email: `${userId}@demo.test` },
  name,
  cannotOpenAs: null,
});
const loaderData = {
  here: page,
  canWrite: true,
  noun: "project",
  namesMissing: false,
  users: [grant("u1", "Ann Analyst")],
  grants: { page: 1, pageSize: 25, total: 1 },
  search: { name: "", sort: "name", page: 1, pageSize: 25 },
  people: { total: 0, candidates: [], onPage: 0 },
  cannotOpen: {},
  area: "Migrations",
};

/** The page after `intent` posted from the form `formKey` about `userId` was refused with `message`. */
const refused = (intent: string, formKey: string, userId: string, message: string) =>
  renderPage(page, `${page}?companyId=c1`, ProjectAccess, loaderData, {
    result: { status: "error", initialValue: { intent, formKey, userId }, error: { "": [message] } },
  });

describe("a refused change to who has access", () => {
  it("is said at the top when its row is gone: access removed from a tab left open once another removed it", () => {
    const html = refused("remove", "remove-u2", "u2", "This user has no access to the project.");
    expect(html.split("This user has no access to the project.")).toHaveLength(2);
    expect(html).toMatch(/<div role="alert"[^>]*>This user has no access to the project\.<\/div>/);
  });

  it("of an Add is said at the top when nobody is left to add (the user refused, given access meanwhile, was the last): the Add form is not drawn", () => {
    const message = "Carl Client was given access to this project meanwhile (read and write), in another tab or by someone else: nothing was changed.";
    const html = refused("set", "add", "u2", message);
    expect(html).not.toContain(">Add user<");
    expect(html.split(message)).toHaveLength(2);
    expect(html).toMatch(/<div role="alert"[^>]*>Carl Client was given access/);
  });

  it("of a row's Save based on an access changed since is said at the top, the row showing the access as it is now", () => {
    // The row showed read and write when Save was pressed; another tab made it read only meanwhile.
    const message = "Ann Analyst's access to this project was changed meanwhile, in another tab or by someone else: it is read only now.";
    const html = refused("change", "change-u1-write", "u1", message);
    const said = "access to this project was changed meanwhile, in another tab or by someone else: it is read only now.";
    expect(html.split(said)).toHaveLength(2);
    expect(html).toMatch(/<div role="alert"[^>]*>Ann Analyst(&#x27;|')s access to this project was changed meanwhile/);
    const row = html.slice(html.indexOf('aria-label="Access of Ann Analyst"'));
    expect(row).toContain('name="was" value="read"');
    expect(row.slice(0, row.indexOf("</form>"))).not.toMatch(/name="canWrite"[^>]*checked/);
  });

  it("is said in its row when the row is on the page, and nowhere else", () => {
    const html = refused("set", "change-u1-read", "u1", "Keep at least one user with write access.");
    expect(html.split("Keep at least one user with write access.")).toHaveLength(2);
    expect(html).toMatch(/aria-label="Access of Ann Analyst"[^]*Keep at least one user with write access\./);
  });
});

describe("the list of users with access", () => {
  it("chooses its page size in a GET form of its own, which keeps the people picker's search and page", () => {
    const data = { ...loaderData, grants: { page: 2, pageSize: 10, total: 11 }, search: { name: "ann", sort: "name", page: 2, pageSize: 50 } };
    const html = renderPage(page, `${page}?companyId=c1&page=2&pageSize=10&name=ann&usersPage=2&usersPageSize=50`, ProjectAccess, data);
    const choice = pageSizeChoice(html, "Page size of users with access", "grants-page-size");
    expect(choice).toMatchObject({ labelled: true, sizes: ["10*", "25", "50", "100"] });
    // What it sends: the list's new size and no page (the first), the picker as it is.
    expect(choice.sent).toEqual([
      ["companyId", "c1"],
      ["name", "ann"],
      ["usersPage", "2"],
      ["usersPageSize", "50"],
      ["pageSize", "(chosen)"],
    ]);
  });
});

describe("the people picker when everybody it lists has access already", () => {
  const picker = (search: string, total: number, onPage: number) => {
    const data = { ...loaderData, search: { ...loaderData.search, name: search }, people: { total, candidates: [], onPage } };
    return renderPage(page, `${page}?companyId=c1${search ? `&name=${search}` : ""}`, ProjectAccess, data);
  };

  it("sends to the other pages only when there are others", () => {
    expect(picker("ann", 1, 1)).toContain("Everybody found already has access to the project: search for others.");
    expect(picker("ann", 1, 1)).not.toContain("see the other pages");
    expect(picker("", 30, 25)).toContain("Everybody here already has access to the project: search for others, or see the other pages.");
    expect(picker("ann", 30, 25)).toContain("see the other pages");
    expect(picker("", 1, 1)).toContain("Every user of this company already has access to the project.");
  });
});
