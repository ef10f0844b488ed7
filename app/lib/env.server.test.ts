import { describe, expect, it } from "vitest";
import { loadPortalEnv } from "./env.server";

describe("portal environment", () => {
  it("starts with development defaults outside production", () => {
    const env = loadPortalEnv({ NODE_ENV: "development" });
    expect(env.PORTAL_URL).toBe("http://localhost:3000");
    expect(env.PORTAL_DATABASE_URL).toBe("./data/portal.sqlite");
    expect(env.CLOUD_TARGET).toBe("AWS");
  });

  it("refuses the development secrets in production, naming each variable", () => {
    expect(() => loadPortalEnv({ NODE_ENV: "production" })).toThrowError(/OIDC_CLIENT_SECRET[\s\S]*SESSION_SECRETS|SESSION_SECRETS[\s\S]*OIDC_CLIENT_SECRET/);
    expect(() =>
      loadPortalEnv({ NODE_ENV: "production", OIDC_CLIENT_SECRET: "s3cret", SESSION_SECRETS: "new-secret,dev-only-session-secret" }),
    ).toThrowError(/SESSION_SECRETS/);
    expect(loadPortalEnv({ NODE_ENV: "production", OIDC_CLIENT_SECRET: "s3cret", SESSION_SECRETS: "a,b" }).SESSION_SECRETS).toEqual(["a", "b"]);
  });

  it("names the variable that holds a bad value", () => {
    expect(() => loadPortalEnv({ DATA_API_URL: "not a url" })).toThrowError(/DATA_API_URL/);
    expect(() => loadPortalEnv({ CLOUD_TARGET: "GCP" })).toThrowError(/CLOUD_TARGET/);
  });

  it("makes cookies Secure for an https PORTAL_URL or COOKIE_SECURE=true, not for production alone", () => {
    const prod = { NODE_ENV: "production", OIDC_CLIENT_SECRET: "s3cret", SESSION_SECRETS: "a" };
    expect(loadPortalEnv({ NODE_ENV: "development" }).secureCookies).toBe(false);
    // `npm start`: production processes on http://localhost.
    expect(loadPortalEnv({ ...prod, PORTAL_URL: "http://localhost:3000" }).secureCookies).toBe(false);
    expect(loadPortalEnv({ ...prod, PORTAL_URL: "https://dt.example.com" }).secureCookies).toBe(true);
    expect(loadPortalEnv({ NODE_ENV: "development", PORTAL_URL: "https://localhost:3443" }).secureCookies).toBe(true);
    // Behind a TLS proxy, or the container: forced.
    expect(loadPortalEnv({ ...prod, PORTAL_URL: "http://portal:3000", COOKIE_SECURE: "true" }).secureCookies).toBe(true);
    expect(loadPortalEnv({ ...prod, COOKIE_SECURE: "false" }).secureCookies).toBe(false);
    expect(() => loadPortalEnv({ COOKIE_SECURE: "yes" })).toThrowError(/COOKIE_SECURE/);
  });
});
