/**
 * The script editor after a save refused for its lock, rendered on the server as a page without
 * JavaScript gets it: the lock was forced open while the user edited.
 */
import type { SubmissionResult } from "@conform-to/react";
import { describe, expect, it } from "vitest";
import { scriptOf } from "~/test/fixtures";
import { renderPage } from "~/test/render-page";
import ScriptEdit from "./script-edit";

const script = scriptOf({ lockState: "ForceUnlocked", sql: "select 'stored';" });

function render(actionData: unknown): string {
  return renderPage("/script", "/script", ScriptEdit, { script, editable: true, me: "u1", admin: false }, actionData);
}

const posted: SubmissionResult<string[]> = {
  status: "error",
  initialValue: { intent: "save", baseVersion: "2", sql: "select 'mine';", comment: "Mine" },
  error: {},
};

describe("the script editor after the user's lock was taken away", () => {
  it("says so at the top, keeps the user's text in the editor, and offers to lock again and save in one post", () => {
    const message = "Your lock was taken away by Sam (“Ann is on leave”): lock the script again, then save.";
    const html = render({ errors: [message], result: posted, form: "save", lockLost: true });
    expect(html).toContain("Your lock was taken away by Sam (“Ann is on leave”): lock the script again, then save.");
    expect(html).toMatch(/<textarea[^>]*>select &#x27;mine&#x27;;<\/textarea>/);
    expect(html).not.toContain("select &#x27;stored&#x27;;");
    expect(html).toContain('name="intent" value="relock-save"');
    expect(html).toContain("Lock again and save");
    // The lock as it is now, not as the page showed it before the save.
    expect(html).toContain("Nobody is editing this script.");
  });

  it("offers no Lock again and save once someone else holds the lock (it would be refused the same), and keeps the text to be copied", () => {
    const taken = scriptOf({ lockState: "Locked", lockedBy: "u2", lockedByName: "Tia Translator", sql: "select 'stored';" });
    const message = "Tia Translator holds the lock on this script: only they can save it.";
    const html = renderPage(
      "/script",
      "/script",
      ScriptEdit,
      { script: taken, lockTimes: { since: "2026-11-30 11:16 UTC", lapses: "2026-11-30 13:16 UTC" }, editable: true, me: "u1", admin: false },
      {
        errors: [message],
        result: posted,
        form: "save",
        lockLost: true,
      },
    );
    expect(html).toContain(message);
    expect(html).toMatch(/<textarea[^>]*>select &#x27;mine&#x27;;<\/textarea>/);
    expect(html).not.toContain("Lock again and save");
    expect(html).not.toMatch(/<button[^>]*type="submit"[^>]*>[^<]*(Save|Lock)/);
    expect(html).toContain("Not saved: Tia Translator holds the lock now. Your text is kept here: copy it, and save it once they have unlocked the script.");
  });

  it("shows the stored SQL, read-only, when nothing was posted", () => {
    const html = render(undefined);
    expect(html).toContain("select &#x27;stored&#x27;;");
    expect(html).not.toContain("<textarea");
  });
});
