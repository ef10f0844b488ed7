import { beforeAll, describe, expect, it } from "vitest";
import type { Caller } from "../../shared/bearer.ts";
import { createTestSigner } from "../../shared/testing/tokens.ts";
import { PermissionsUnavailableError, createHttpPermissionsSource, type Fetch } from "./permissions.ts";
import { CLIENT_PORTAL_TEST_URL, createClientPortalStub } from "./testing/client-portal-stub.ts";
import { USERS } from "./testing/harness.ts";

describe("HTTP permissions source", () => {
  let signer: Awaited<ReturnType<typeof createTestSigner>>;
  beforeAll(async () => {
    signer = await createTestSigner();
  });

  async function callerFor(user: { id: string; roles: string }, jti = "1"): Promise<Caller> {
    return { userId: user.id, name: null, roles: [user.roles], token: await signer.token(user.id, user.roles, { claims: { jti } }) };
  }

  function setUp(now = () => 0) {
    const stub = createClientPortalStub(
      signer.bearer,
      new Map([
        [USERS.analyst.id, USERS.analyst.permissions],
        ["user/with?odd#chars", [{ companyId: "c1", productRoleName: "DataTransformation_Viewer" }]],
      ]),
    );
    const source = createHttpPermissionsSource({ baseUrl: `${CLIENT_PORTAL_TEST_URL}/`, fetch: stub.fetch, cacheTtlMs: 30_000, now });
    return { stub, source };
  }

  it("reads the caller's own entries with the caller's token", async () => {
    const { stub, source } = setUp();
    const caller = await callerFor(USERS.analyst);
    expect(await source.forCaller(caller)).toEqual(USERS.analyst.permissions);
    expect(stub.calls).toEqual([{ userId: USERS.analyst.id, authorization: `Bearer ${caller.token}` }]);
  });

  it("escapes the user id in the path", async () => {
    const { source } = setUp();
    const entries = await source.forCaller(await callerFor({ id: "user/with?odd#chars", roles: "DataTransformation_Viewer" }));
    expect(entries).toEqual([{ companyId: "c1", productRoleName: "DataTransformation_Viewer" }]);
  });

  it("reuses an answer for the same token for 30 s, then asks again (a revoked permission stops working)", async () => {
    let t = 0;
    const { stub, source } = setUp(() => t);
    const caller = await callerFor(USERS.analyst);
    await Promise.all([source.forCaller(caller), source.forCaller(caller)]);
    t = 29_999;
    await source.forCaller(caller);
    expect(stub.calls).toHaveLength(1);
    t = 30_000;
    await source.forCaller(caller);
    expect(stub.calls).toHaveLength(2);
  });

  it("asks again for a new token", async () => {
    const { stub, source } = setUp();
    await source.forCaller(await callerFor(USERS.analyst, "first"));
    await source.forCaller(await callerFor(USERS.analyst, "refreshed"));
    expect(stub.calls).toHaveLength(2);
  });

  it.each(["down", "error", "garbage"] as const)("fails with PermissionsUnavailableError when the client portal is %s, and does not cache it", async (mode) => {
    const { stub, source } = setUp();
    const caller = await callerFor(USERS.analyst);
    stub.setMode(mode);
    await expect(source.forCaller(caller)).rejects.toBeInstanceOf(PermissionsUnavailableError);
    stub.setMode("up");
    expect(await source.forCaller(caller)).toEqual(USERS.analyst.permissions);
  });

  it("fails when the client portal refuses the token", async () => {
    const { source } = setUp();
    const caller = await callerFor(USERS.analyst);
    await expect(source.forCaller({ ...caller, userId: USERS.superAdmin.id })).rejects.toThrow(/answered 403/);
  });

  it("gives up on a client portal that does not answer", async () => {
    const hanging: Fetch = (_url, init) =>
      new Promise((_resolve, reject) => init.signal?.addEventListener("abort", () => reject(init.signal?.reason)));
    const source = createHttpPermissionsSource({ baseUrl: CLIENT_PORTAL_TEST_URL, fetch: hanging, timeoutMs: 50 });
    await expect(source.forCaller(await callerFor(USERS.analyst))).rejects.toThrow(/permissions request failed/);
  });
});
