/**
 * An empty workspace list without a search: to SuperAdmin and Support (who see every workspace of the
 * company) the company has none; to anyone else, the data API lists only the migration projects and
 * configurations open to them, so the list says none is open to them, not that none exists, which Create
 * would then contradict by refusing a duplicate name.
 */
import { describe, expect, it } from "vitest";
import { WORKSPACES } from "../../../contracts/workspaces";
import { noWorkspacesYet } from "./workspace.server";

const ANALYST = ["DataTransformation_Analyst"];

describe("an empty workspace list", () => {
  it("says to a user who sees only what is open to them that none is open to them, not that the company has none", () => {
    expect(noWorkspacesYet(WORKSPACES.migration, ANALYST)).toBe(
      "No project of this company is open to you yet: those you create are, and others once their owner gives you access (Project access).",
    );
    expect(noWorkspacesYet(WORKSPACES.onboarding, ["DataTransformation_ClientAdmin"])).toContain("No configuration of this company is open to you yet");
  });

  it("says that the company has none to SuperAdmin and Support, and of mapping projects, which have no access list, to anyone", () => {
    expect(noWorkspacesYet(WORKSPACES.migration, ["SuperAdmin"])).toBe("There are no migration projects in this company yet.");
    expect(noWorkspacesYet(WORKSPACES.onboarding, ["Support"])).toBe("There are no onboarding configurations in this company yet.");
    expect(noWorkspacesYet(WORKSPACES.translation, ANALYST)).toBe("There are no translation mapping projects in this company yet.");
  });
});
