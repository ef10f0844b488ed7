import { describe, expect, it } from "vitest";
import { EnvError } from "../../../contracts/env.ts";
import { loadEnv } from "./env.ts";

const productionSecrets = {
  NODE_ENV: "production",
  PORTAL_CLIENT_SECRET: "a-real-secret",
  OIDC_COOKIE_KEYS: "key-one,key-two",
};

describe("client portal environment", () => {
  it("starts on development defaults with nothing set", () => {
    const env = loadEnv({});
    expect(env).toMatchObject({
      CLIENT_PORTAL_PORT: 3001,
      CLIENT_PORTAL_URL: "http://localhost:3001",
      PORTAL_URL: "http://localhost:3000",
      PORTAL_CLIENT_ID: "data-transformation-portal",
      PORTAL_REDIRECT_URIS: ["http://localhost:3000/auth/callback"],
      PORTAL_POST_LOGOUT_REDIRECT_URIS: ["http://localhost:3000/"],
      ROLES_CLAIM: "custom:roles",
      API_AUDIENCE: "urn:data-transformation:api",
      ACCESS_TOKEN_TTL_SECONDS: 300,
      SEED_DEMO: false,
      TRANSLATION_ANALYST_ROLE: "FusionPSI_TranslationAnalyst",
    });
    expect(env.CLIENT_PORTAL_DATABASE_URL).toBe("data/client-portal.sqlite");
  });

  it("puts the database under DATA_DIR unless a database URL is given", () => {
    expect(loadEnv({ DATA_DIR: "/srv/dt" }).CLIENT_PORTAL_DATABASE_URL).toBe("/srv/dt/client-portal.sqlite");
    const pg = "postgres://u:p@db:5432/portal";
    expect(loadEnv({ DATA_DIR: "/srv/dt", CLIENT_PORTAL_DATABASE_URL: pg }).CLIENT_PORTAL_DATABASE_URL).toBe(pg);
  });

  it("splits comma lists and reads the seed flag", () => {
    const env = loadEnv({ PORTAL_REDIRECT_URIS: "https://a.example/cb, https://b.example/cb", OIDC_COOKIE_KEYS: "k1,k2", SEED_DEMO: "true" });
    expect(env.PORTAL_REDIRECT_URIS).toEqual(["https://a.example/cb", "https://b.example/cb"]);
    expect(env.OIDC_COOKIE_KEYS).toEqual(["k1", "k2"]);
    expect(env.SEED_DEMO).toBe(true);
  });

  it("names the variable when a value is bad", () => {
    expect(() => loadEnv({ CLIENT_PORTAL_PORT: "eighty" })).toThrow(EnvError);
    expect(() => loadEnv({ CLIENT_PORTAL_PORT: "70000" })).toThrow(/CLIENT_PORTAL_PORT/);
    expect(() => loadEnv({ PORTAL_REDIRECT_URIS: "not a url" })).toThrow(/PORTAL_REDIRECT_URIS/);
    expect(() => loadEnv({ OIDC_JWKS: "{not json" })).toThrow(/OIDC_JWKS/);
    expect(() => loadEnv({ OIDC_JWKS: '{"keys":[{"kty":"RSA","n":"x","e":"AQAB"}]}' })).toThrow(/OIDC_JWKS/);
  });

  it("refuses the development secrets in production, naming each", () => {
    let message = "";
    try {
      loadEnv({ NODE_ENV: "production" });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/PORTAL_CLIENT_SECRET: holds a development default/);
    expect(message).toMatch(/OIDC_COOKIE_KEYS: holds a development default/);
    expect(() => loadEnv({ ...productionSecrets, OIDC_COOKIE_KEYS: "real-key,dev-only-cookie-key" })).toThrow(/OIDC_COOKIE_KEYS/);
    expect(loadEnv(productionSecrets).NODE_ENV).toBe("production");
  });
});
