import { Hono } from "hono";
import { createLocalJWKSet, generateKeyPair, exportJWK, type JWTVerifyGetKey } from "jose";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { bearerAuth, type BearerOptions, type BearerVariables } from "./bearer.ts";
import { createTestSigner } from "./testing/tokens.ts";

// The verified-token cache: the signature is checked once per token, and nothing a full check
// would refuse is let through by it (auth.test.ts covers the answers themselves on every route).
describe("bearerAuth's verified tokens", () => {
  let signer: Awaited<ReturnType<typeof createTestSigner>>;
  beforeAll(async () => {
    signer = await createTestSigner();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  function appWith(overrides: Partial<BearerOptions> = {}) {
    const app = new Hono<{ Variables: BearerVariables }>();
    app.get("/me", bearerAuth({ ...signer.bearer, ...overrides }), (c) => c.json(c.var.caller));
    return async (token: string) => {
      const res = await app.request("/me", { headers: { authorization: `Bearer ${token}` } });
      return { status: res.status, body: (await res.json()) as any };
    };
  }
  const signatureChecks = () => vi.spyOn(crypto.subtle, "verify");

  it("checks a token's signature once, and answers the same caller after", async () => {
    const me = appWith();
    const verify = signatureChecks();
    const token = await signer.token("u1", "DataTransformation_Analyst");
    const first = await me(token);
    const second = await me(token);
    expect(first).toEqual({ status: 200, body: { userId: "u1", name: "User u1", roles: ["DataTransformation_Analyst"], token } });
    expect(second).toEqual(first);
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it("answers 401 'expired' once a remembered token's exp has passed", async () => {
    const me = appWith();
    const token = await signer.token("u1", "DataTransformation_Analyst", { expiresIn: "1m" });
    expect((await me(token)).status).toBe(200);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61_000 });
    expect(await me(token)).toEqual({ status: 401, body: expect.objectContaining({ errors: ["The access token has expired."] }) });
  });

  it("answers 401 to a remembered token once its key has left the key set, and checks again after a rotation", async () => {
    let getKey: JWTVerifyGetKey = signer.bearer.getKey;
    const me = appWith({ getKey: (header, jws) => getKey(header, jws) });
    const token = await signer.token("u1", "DataTransformation_Analyst");
    expect((await me(token)).status).toBe(200);

    const other = { ...(await exportJWK((await generateKeyPair("RS256")).publicKey)), kid: "other-key", alg: "RS256" };
    getKey = createLocalJWKSet({ keys: [other] });
    expect(await me(token)).toEqual({ status: 401, body: expect.objectContaining({ errors: ["The access token is not valid."] }) });

    // The same key, served by a new key set (a refetch): a new key object, so the signature is checked again.
    getKey = createLocalJWKSet(signer.jwks);
    const verify = signatureChecks();
    expect((await me(token)).status).toBe(200);
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it("remembers at most verifiedTokensMax tokens, dropping the oldest", async () => {
    const me = appWith({ verifiedTokensMax: 1 });
    const [a, b] = await Promise.all([signer.token("a", "x"), signer.token("b", "x")]);
    await me(a);
    await me(b);
    const verify = signatureChecks();
    expect((await me(b)).status).toBe(200);
    expect(verify).toHaveBeenCalledTimes(0);
    expect((await me(a)).status).toBe(200);
    expect(verify).toHaveBeenCalledTimes(1);
  });
});
