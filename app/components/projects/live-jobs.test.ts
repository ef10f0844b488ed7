import { describe, expect, it } from "vitest";
import type { Job } from "../../../contracts/projects";
import { jobsChanged, type JobsPoll } from "./live-jobs";
import { shownLock } from "./live-lock";
import { lockEnded, lockOf } from "./lock-follower";

/** A job of the workspace, running (IN_PROGRESS) or ended. */
const job = (id: string, status: Job["status"] = "IN_PROGRESS", progress = 40): Job => ({
  id,
  projectId: "p1",
  kind: "FlatFile",
  status,
  progress,
  progressDetail: null,
  steps: [{ name: "Load CUSTOMERS.csv", status: status === "IN_PROGRESS" ? "Started" : "Completed", startedAt: null, finishedAt: null, message: null }],
  error: null,
  createdBy: "u1",
  createdAt: "2026-11-29T07:00:00.000Z",
  finishedAt: status === "IN_PROGRESS" ? null : "2026-11-29T07:01:00.000Z",
});

const poll = (jobs: Job[], isLocked = jobs.length > 0): JobsPoll => ({
  isLocked,
  lockReason: isLocked ? "FlatFileCreation" : null,
  lockState: isLocked ? "Locked" : "Unlocked",
  jobs,
  readAt: 2000,
});

/** When a job's page reads its loaders again (useLiveJobs): only when what it read is out of date. */
describe("a job's page over the polls of its workspace's running jobs", () => {
  const loaded = { jobs: [job("j2"), job("j1", "SUCCESS", 100)], isLocked: true, readAt: 1000 };

  it("shows the poll's progress and reads nothing more while the job it shows runs", () => {
    expect(jobsChanged(loaded, poll([job("j2", "IN_PROGRESS", 75)]))).toBe(false);
  });

  it("reads its loaders again once the job ended and the lock is released", () => {
    expect(jobsChanged(loaded, poll([]))).toBe(true);
    // Ended, the lock not yet released (the job's records end first): its outcome is already to be read.
    expect(jobsChanged(loaded, poll([], true))).toBe(true);
  });

  it("reads its loaders again when another job began (its starter's name, what it does)", () => {
    expect(jobsChanged(loaded, poll([job("j2"), job("j3")]))).toBe(true);
    expect(jobsChanged(loaded, poll([job("j3")]))).toBe(true);
    // The page read no running job while the workspace was not locked: a job that takes the lock.
    expect(jobsChanged({ jobs: [job("j1", "SUCCESS")], isLocked: false, readAt: 1000 }, poll([job("j4")]))).toBe(true);
  });

  it("reads its loaders again when the lock was released or taken without a job (force unlock)", () => {
    expect(jobsChanged(loaded, poll([job("j2")], false))).toBe(true);
    expect(jobsChanged({ jobs: [], isLocked: false, readAt: 1000 }, poll([], true))).toBe(true);
  });
});

/** A workspace's pages' header over the same polls (useLiveLock, LockFollower): a colleague's lock shows as it is taken and as it ends. */
describe("the lock a workspace's page shows", () => {
  const unlocked = { isLocked: false, reason: null };
  const locked = { isLocked: true, reason: "Flat file creation" };
  const read = { readAt: 1000 };

  it("shows a lock taken after the page was read, in words, without reading the page's loaders (an edit page would leave with what was typed)", () => {
    expect(shownLock({ ...unlocked, ...read }, lockOf(poll([job("j1")])))).toEqual(locked);
    expect(lockEnded(unlocked, poll([job("j1")]))).toBe(false);
  });

  it("reads the page's loaders again once the lock it was read under ends (its forms come back), and shows it ended", () => {
    expect(shownLock({ ...locked, ...read }, lockOf(poll([])))).toEqual(unlocked);
    expect(lockEnded(locked, poll([]))).toBe(true);
    expect(lockEnded(locked, poll([job("j1")]))).toBe(false);
  });

  it("shows the page's own read until a newer poll", () => {
    expect(shownLock({ ...locked, ...read }, undefined)).toEqual(locked);
    // A poll answered before the page's loaders were read again (the lock ended, the page read since): the page's read.
    expect(shownLock({ ...locked, readAt: 3000 }, lockOf(poll([])))).toEqual(locked);
  });
});
