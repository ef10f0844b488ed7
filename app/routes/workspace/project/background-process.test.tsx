/** The Background process page, rendered on the server as a page without JavaScript gets it. */
import { describe, expect, it } from "vitest";
import type { Job } from "../../../../contracts/projects";
import { renderPage } from "~/test/render-page";
import BackgroundProcess from "./background-process";

const page = "/onboarding/configurations/c1/background-process";
const creation = {
  id: "j1",
  projectId: "c1",
  kind: "DatabaseCreation",
  status: "IN_PROGRESS",
  progress: 33,
  progressDetail: null,
  steps: [],
  error: null,
  createdBy: "u1",
  createdAt: "2026-11-28T18:52:00.000Z",
  finishedAt: null,
} as unknown as Job;
const render = (jobs: Job[]) =>
  renderPage(page, `${page}?companyId=co1`, BackgroundProcess, {
    project: { id: "c1", status: "SetupAddColumnsIncomplete" },
    isLocked: jobs.length > 0,
    lockReason: jobs.length > 0 ? "DatabaseCreation" : null,
    lockState: jobs.length > 0 ? "Locked" : "Unlocked",
    jobs,
    names: { u1: "Ann Analyst" },
    canCancel: true,
    canForceUnlock: false,
  });

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
