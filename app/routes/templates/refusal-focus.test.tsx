/**
 * A refused post whose message is at the top of the page, not in a useServerForm form (the script
 * editor's lock, a template's Remove or Move, a run's Cancel or Rerun), rendered on the server as a
 * page without JavaScript gets it: the message takes focus (autofocus, focusable), as a Conform form's
 * message does, so a keyboard or screen-reader user learns the post was refused. With JavaScript
 * RefusalAlert moves focus there too (useRefusalFocus; the templates and projects journeys check it).
 */
import { describe, expect, it } from "vitest";
import { runDetailsOf, scriptOf, templateSummaryOf } from "~/test/fixtures";
import { renderPage } from "~/test/render-page";
import AssignedTemplates from "./assigned";
import RunDetailsPage from "./run-details";
import ScriptEdit from "./script-edit";

/** The alert holding `message`, focusable and autofocused: the browser focuses it when the page loads. */
const focusedAlert = (message: string) => new RegExp(`<div role="alert"[^>]* tabindex="-1" autofocus=""[^>]*>${message}`);

describe("the script editor", () => {
  const page = "/migration/master-templates/script/edit/s1";
  const script = scriptOf({
    lockState: "Locked",
    lockedBy: "u1",
    lockedByName: "Ann",
    lockedAt: "2026-11-27T23:00:00.000Z",
    lockExpiresAt: "2026-11-28T00:00:00.000Z",
  });
  // As the loader says them.
  const lockTimes = { since: "2026-11-27 23:00 UTC", lapses: "2026-11-28 00:00 UTC" };
  const show = (actionData: unknown) => renderPage(page, page, ScriptEdit, { script, lockTimes, editable: true, me: "u2", admin: false }, actionData);

  it("focuses a refused Lock for editing", () => {
    const html = show({ errors: ["Ann holds the lock since 23:00 UTC."] });
    expect(html).toMatch(focusedAlert("Ann holds the lock since 23:00 UTC."));
  });

  it("focuses a save refused because a newer version was saved meanwhile", () => {
    const stale = { from: 1, to: 2, lines: [] };
    const result = { status: "success", initialValue: { sql: "select 'mine';" } };
    const html = renderPage(page, page, ScriptEdit, { script, lockTimes, editable: true, me: "u1", admin: false }, {
      errors: [],
      result,
      stale,
      staleMessage: "Ann saved version 2 after the version 1 you edited.",
      form: "save",
    });
    expect(html).toMatch(focusedAlert("Ann saved version 2 after the version 1 you edited."));
  });

  it("focuses nothing when nothing was refused", () => {
    expect(show(undefined)).not.toContain("autofocus");
  });
});

describe("a workspace's templates", () => {
  const page = "/migration/projects/p1/templates/assigned";
  const loaderData = { templates: { items: [templateSummaryOf({ version: 3 })], total: 1, page: 1, pageSize: 100 }, canWrite: true };

  it("focuses a refused Remove or Move", () => {
    const html = renderPage(page, page, AssignedTemplates, loaderData, { errors: ["Someone changed this template meanwhile."] });
    expect(html).toMatch(focusedAlert("Someone changed this template meanwhile."));
  });
});

describe("a run's details", () => {
  const page = "/migration/projects/p1/templates/run-history/r1/details";
  const run = runDetailsOf({ status: "ERROR", stepCount: 1, failedSteps: 1 });
  const loaderData = { projectId: "p1", run, canWrite: true, search: { status: [], page: 1, pageSize: 50 }, companyId: "c1" };

  it("focuses a refused Rerun, its problems listed under it", () => {
    const html = renderPage(page, page, RunDetailsPage, loaderData, { errors: ["The run cannot start.", "Template Core load is empty."] });
    expect(html).toMatch(focusedAlert("The run cannot start."));
    expect(html).toContain("<li>Template Core load is empty.</li>");
  });

  it("links a rerun to the run it reruns", () => {
    const html = renderPage(page, page, RunDetailsPage, { ...loaderData, run: { ...run, id: "r2", rerunOf: "r1" } });
    expect(html).toMatch(/<dt[^>]*>Rerun of<\/dt><dd><a [^>]*href="\/migration\/projects\/p1\/templates\/run-history\/r1\/details"[^>]*>the earlier run/);
    expect(renderPage(page, page, RunDetailsPage, loaderData)).not.toContain("Rerun of");
  });
});
