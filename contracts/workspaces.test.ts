import { describe, expect, it } from "vitest";
import { PROJECT_STATUSES } from "./projects";
import { DATABASE_CREATION_START_STATUSES, DICTIONARY_SETUP_STATUSES, dictionarySetupStatus, nextSetupStep, setupStepOpen } from "./workspaces";
import { SERVICE_WORKSPACES } from "./workspaces.server";

describe("where setup resumes (DOMAIN.md: at the first incomplete step)", () => {
  it("a migration project: dictionary, then databases, then its details while loading, then templates", () => {
    expect(nextSetupStep("migration", "SetupDataDictionaryIncomplete")).toBe("data-dictionary");
    expect(nextSetupStep("migration", "SetupAddColumnsIncomplete")).toBe("data-dictionary");
    expect(nextSetupStep("migration", "SetupUploadTypeIncomplete")).toBe("databases");
    expect(nextSetupStep("migration", "DatabaseCreationFailed")).toBe("databases");
    expect(nextSetupStep("migration", "SetupRestoreDatabaseIncomplete")).toBeNull();
    expect(nextSetupStep("migration", "SetupAssignTemplatesIncomplete")).toBe("templates");
    expect(setupStepOpen("migration", "SetupAssignTemplatesIncomplete", "templates")).toBe(true);
    expect(setupStepOpen("migration", "SetupRestoreDatabaseIncomplete", "templates")).toBe(false);
    expect(nextSetupStep("migration", "Active")).toBeNull();
  });

  it("an onboarding configuration: the dictionary (which creates the databases), then templates", () => {
    expect(nextSetupStep("onboarding", SERVICE_WORKSPACES.onboarding.initialStatus)).toBe("data-dictionary");
    expect(nextSetupStep("onboarding", "DatabaseCreationFailed")).toBe("data-dictionary");
    expect(nextSetupStep("onboarding", SERVICE_WORKSPACES.onboarding.afterDatabases)).toBe("templates");
    expect(nextSetupStep("onboarding", "Active")).toBeNull();
  });

  it("a mapping project: its file data structure, then its Mapping templates", () => {
    expect(nextSetupStep("translation", SERVICE_WORKSPACES.translation.initialStatus)).toBe("file-data-structure");
    expect(nextSetupStep("translation", "SetupAssignTemplatesIncomplete")).toBe("templates");
    expect(nextSetupStep("translation", "Active")).toBeNull();
    // Its structure stays open while templates wait; it never has databases to create.
    expect(setupStepOpen("translation", "SetupAssignTemplatesIncomplete", "file-data-structure")).toBe(true);
    expect(setupStepOpen("translation", "Active", "file-data-structure")).toBe(false);
    expect(DATABASE_CREATION_START_STATUSES.translation).toEqual([]);
  });

  it("every step a workspace resumes at is one its wizard has, and one its status opens", () => {
    for (const ws of Object.values(SERVICE_WORKSPACES)) {
      for (const status of PROJECT_STATUSES) {
        const step = nextSetupStep(ws.kind, status);
        if (!step || status === "DatabaseCreation") continue; // locked: the guard sends it to the job's page first
        expect(ws.steps.map((s) => s.id), `${ws.kind} ${status}`).toContain(step);
        expect(setupStepOpen(ws.kind, status, step), `${ws.kind} ${status} → ${step}`).toBe(true);
      }
    }
  });
});

describe("which steps a status opens", () => {
  it("an onboarding configuration's dictionary step closes once its databases exist", () => {
    expect(setupStepOpen("onboarding", "SetupAddColumnsIncomplete", "data-dictionary")).toBe(true);
    expect(setupStepOpen("onboarding", "DatabaseCreationFailed", "data-dictionary")).toBe(true);
    expect(setupStepOpen("onboarding", "SetupAssignTemplatesIncomplete", "data-dictionary")).toBe(false);
    expect(setupStepOpen("onboarding", "SetupAssignTemplatesIncomplete", "templates")).toBe(true);
    expect(setupStepOpen("onboarding", "SetupAddColumnsIncomplete", "templates")).toBe(false);
    expect(setupStepOpen("onboarding", "SetupAddColumnsIncomplete", "databases")).toBe(false);
  });

  it("a migration project's dictionary step closes once its databases are being made", () => {
    expect(setupStepOpen("migration", "SetupUploadTypeIncomplete", "data-dictionary")).toBe(true);
    expect(setupStepOpen("migration", "DatabaseCreation", "data-dictionary")).toBe(false);
    expect(setupStepOpen("migration", "DatabaseCreation", "databases")).toBe(true);
    expect(setupStepOpen("migration", "SetupRestoreDatabaseIncomplete", "databases")).toBe(true);
  });
});

describe("the status a dictionary gives", () => {
  it("moves a migration project through its three dictionary statuses", () => {
    expect(dictionarySetupStatus("migration", { tableCount: 0, emptyTableCount: 0 })).toBe("SetupDataDictionaryIncomplete");
    expect(dictionarySetupStatus("migration", { tableCount: 2, emptyTableCount: 1 })).toBe("SetupAddColumnsIncomplete");
    expect(dictionarySetupStatus("migration", { tableCount: 2, emptyTableCount: 0 })).toBe("SetupUploadTypeIncomplete");
  });

  it("keeps a configuration at SetupAddColumnsIncomplete until its databases exist (spec §4's three statuses)", () => {
    expect(dictionarySetupStatus("onboarding", { tableCount: 0, emptyTableCount: 0 })).toBe("SetupAddColumnsIncomplete");
    expect(dictionarySetupStatus("onboarding", { tableCount: 3, emptyTableCount: 0 })).toBe("SetupAddColumnsIncomplete");
    expect(DICTIONARY_SETUP_STATUSES.onboarding).toEqual(["SetupAddColumnsIncomplete"]);
    expect(DATABASE_CREATION_START_STATUSES.onboarding).toContain(SERVICE_WORKSPACES.onboarding.initialStatus);
  });
});
