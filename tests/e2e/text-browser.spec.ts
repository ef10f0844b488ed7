import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E } from "../../playwright.config";

/**
 * Signing in with a real text browser: w3m (Debian `w3m`), driven through tmux (Debian `tmux`) as a
 * person would type. w3m, like every browser, never sends a Secure cookie back over plain http, and
 * unlike Chromium it makes no exception for localhost: a portal that marks its cookies Secure on
 * http (as it once did whenever NODE_ENV=production) loops back to "The sign-in request has
 * expired". No JavaScript, no Playwright browser: the page fixture is not used.
 */
const has = (cmd: string) => {
  try {
    execFileSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};
const missing = ["w3m", "tmux"].filter((cmd) => !has(cmd));

/** One w3m in its own tmux server (its own socket), with a fresh HOME so no user's w3m settings apply. */
class TextBrowser {
  readonly socket = `dt-w3m-${process.pid}-${Date.now()}`;
  readonly home = fs.mkdtempSync(path.join(os.tmpdir(), "dt-w3m-home-"));

  constructor(url: string) {
    this.tmux("new-session", "-d", "-s", "w3m", "-x", "160", "-y", "50", `env HOME=${this.home} w3m ${url}`);
  }

  tmux(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, ...args], { encoding: "utf8" });
  }

  screen(): string {
    return this.tmux("capture-pane", "-p", "-t", "w3m");
  }

  keys(...keys: string[]) {
    this.tmux("send-keys", "-t", "w3m", ...keys);
  }

  type(text: string) {
    this.tmux("send-keys", "-t", "w3m", "-l", text);
  }

  async waitFor(pattern: RegExp, what: string): Promise<string> {
    let last = "";
    await expect
      .poll(() => (last = this.screen()), { message: `w3m shows ${what}; the screen was:\n${last}`, timeout: 15_000 })
      .toMatch(pattern);
    return last;
  }

  /** The URL of the page w3m shows ("c" prints it on the status line). */
  async currentUrl(): Promise<string> {
    this.keys("c");
    const screen = await this.waitFor(/^https?:\/\/\S+\s*$/m, "its current URL");
    return screen.trim().split("\n").at(-1)!.trim();
  }

  close() {
    try {
      this.tmux("kill-server");
    } catch {
      // Already gone.
    }
    fs.rmSync(this.home, { recursive: true, force: true });
  }
}

test.describe("sign-in with a text browser (w3m)", () => {
  test.skip(missing.length > 0 && !process.env.CI, `needs ${missing.join(" and ")} (apt-get install -y w3m tmux)`);

  test("signs in over plain http and reaches the projects list", async () => {
    const w3m = new TextBrowser(`${E2E.portal}/`);
    try {
      // / → /login → the client portal's own sign-in form (plain HTML).
      await w3m.waitFor(/Email \[.*\][\s\S]*Password \[.*\][\s\S]*Sign in/, "the sign-in form");
      w3m.keys("Tab", "Enter"); // to the Email field, edit it
      await w3m.waitFor(/TEXT:/, "the text prompt");
      w3m.type("analyst@demo.test");
      w3m.keys("Enter");
      await w3m.waitFor(/Email \[analyst@demo\.test/, "the email filled in");
      w3m.keys("Tab", "Enter"); // to the Password field, edit it
      await w3m.waitFor(/Password:/, "the password prompt");
      w3m.type("demo");
      w3m.keys("Enter");
      await w3m.waitFor(/Password \[\*{4}/, "the password filled in");
      w3m.keys("Tab", "Enter"); // to "Sign in", press it

      const screen = await w3m.waitFor(/Ann Analyst[\s\S]*Projects|sign-in request has expired|Sign-in failed/, "the portal after sign-in");
      expect(screen).not.toMatch(/sign-in request has expired|Sign-in failed/);
      expect(screen).toMatch(/Log out/);
      const url = new URL(await w3m.currentUrl());
      expect(url.origin).toBe(E2E.portal);
      expect(url.pathname).toBe("/migration/projects");
      expect(url.searchParams.get("companyId")).toBeTruthy();
    } finally {
      w3m.close();
    }
  });
});
