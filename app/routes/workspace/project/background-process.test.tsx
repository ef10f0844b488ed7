/** The Background process page, rendered on the server as a page without JavaScript gets it. */
import { describe, expect, it } from "vitest";
import type { Job } from "../../../../contracts/projects";
import { backgroundProcessData, jobOf } from "~/test/fixtures";
import { liveRegionTexts } from "~/test/live-regions";
import { renderPage } from "~/test/render-page";
import BackgroundProcess from "./background-process";

const page = "/onboarding/configurations/c1/background-process";
const creation = jobOf({ projectId: "c1", kind: "DatabaseCreation", progress: 33 });
const render = (jobs: Job[]) =>
  renderPage(
    page,
    `${page}?companyId=co1`,
    BackgroundProcess,
    backgroundProcessData(jobs.length > 0 ? { isLocked: true, lockReason: "DatabaseCreation", lockState: "Locked", jobs } : {}),
  );

describe("the recent jobs of a configuration", () => {
  it("do not deny its first job while it runs", () => {
    const html = render([creation]);
    expect(html).toContain("No job has ended for this configuration yet.");
    expect(html).not.toContain("No job has run");
  });

  it("say none has run before the first", () => {
    expect(render([])).toContain("No job has run for this configuration yet.");
  });
});

describe("a running job on the page", () => {
  it("is not read out at every tick: its percentage and bytes are outside the page's live regions", () => {
    const detail = { bytesRead: 25 * 1024 * 1024, bytesTotal: 60 * 1024 * 1024, rowsRead: 210_000, secondsLeft: 95 };
    const html = render([{ ...creation, progressDetail: detail }]);
    expect(html).toContain("33% done");
    expect(html).toContain("25.0 MB of 60.0 MB read");
    const live = liveRegionTexts(html).join(" | ");
    expect(live).not.toContain("% done");
    expect(live).not.toContain("MB of");
  });
});

describe("an undo's job", () => {
  it("is called Undo, as History calls it, not Restore", () => {
    const undo = jobOf({ projectId: "c1", kind: "Undo", progress: 50 });
    const html = render([undo]);
    expect(html.replace(/<[^>]+>/g, "")).toContain("Undo: ");
    expect(html).not.toMatch(/Restore/);
  });
});
