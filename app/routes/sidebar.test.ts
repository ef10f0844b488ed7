import { describe, expect, it } from "vitest";
import { action } from "./sidebar";

const post = (body: Record<string, string>) =>
  action({
    request: new Request("http://portal.test/sidebar", { method: "POST", body: new URLSearchParams(body) }),
    params: {},
    context: {},
  } as never) as Promise<Response>;

describe("POST /sidebar", () => {
  it("remembers the choice and goes back to the page", async () => {
    const res = await post({ state: "collapsed", redirectTo: "/migration/projects?companyId=c" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/migration/projects?companyId=c");
    expect(res.headers.get("Set-Cookie")).toMatch(/^dt_sidebar=/);
  });

  it("goes back with the choice unchanged when the state is not one it knows (a forged post), never answering raw JSON", async () => {
    const res = await post({ state: "sideways", redirectTo: "/migration/projects?companyId=c" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/migration/projects?companyId=c");
    expect(res.headers.get("Set-Cookie")).toBeNull();
  });

  it.each(["//evil.example/x", "/..//evil.example/x", "/.//evil.example", "/%2e%2e/%2e%2e//evil.example", "https://evil.example/"])(
    "never goes back to another origin: %s",
    async (redirectTo) => {
      const res = await post({ state: "expanded", redirectTo });
      expect(res.headers.get("Location")).toBe("/");
    },
  );
});
