import { afterEach, describe, expect, it, vi } from "vitest";

/** The cookie modules read the environment once, at import: each case imports them afresh. */
async function cookiesWith(vars: Record<string, string>) {
  vi.resetModules();
  for (const [key, value] of Object.entries(vars)) vi.stubEnv(key, value);
  const { sessionCookie } = await import("./session.server");
  const { sidebarCookie } = await import("./sidebar-cookie.server");
  return { session: await sessionCookie.serialize("id"), sidebar: await sidebarCookie.serialize("collapsed") };
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

const production = { NODE_ENV: "production", OIDC_CLIENT_SECRET: "s3cret", SESSION_SECRETS: "a-real-secret" };

describe("portal cookies", () => {
  it("production on plain http (npm start): not Secure, so text browsers send them back", async () => {
    const { session, sidebar } = await cookiesWith({ ...production, PORTAL_URL: "http://localhost:3000" });
    expect(session).toMatch(/^__session=/);
    expect(session).not.toMatch(/;\s*Secure/i);
    expect(sidebar).not.toMatch(/;\s*Secure/i);
  });

  it("https: Secure, and the session cookie takes the __Host- prefix (Path=/, no Domain)", async () => {
    const { session, sidebar } = await cookiesWith({ ...production, PORTAL_URL: "https://dt.example.com" });
    expect(session).toMatch(/^__Host-session=/);
    expect(session).toMatch(/;\s*Secure/i);
    expect(session).toMatch(/;\s*Path=\/(;|$)/);
    expect(session).not.toMatch(/Domain=/i);
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(sidebar).toMatch(/;\s*Secure/i);
  });

  it("COOKIE_SECURE=true forces it behind a TLS proxy (the container)", async () => {
    const { session } = await cookiesWith({ ...production, PORTAL_URL: "http://portal:3000", COOKIE_SECURE: "true" });
    expect(session).toMatch(/^__Host-session=.*;\s*Secure/i);
  });
});
