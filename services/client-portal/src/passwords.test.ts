import { describe, expect, it } from "vitest";
import { hashPassword, verifyAgainstDummy, verifyPassword } from "./passwords.ts";

describe("passwords", () => {
  it("accepts the right password and refuses a wrong one", async () => {
    const hash = await hashPassword("correct horse");
    expect(await verifyPassword("correct horse", hash)).toBe(true);
    expect(await verifyPassword("correct horse ", hash)).toBe(false);
    expect(await verifyPassword("", hash)).toBe(false);
  });

  it("stores scrypt with its parameters and a per-user salt, never the password", async () => {
    const [a, b] = await Promise.all([hashPassword("same"), hashPassword("same")]);
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("same");
  });

  it("refuses malformed or tampered hashes instead of throwing", async () => {
    const hash = await hashPassword("pw");
    expect(await verifyPassword("pw", "plain-text-password")).toBe(false);
    expect(await verifyPassword("pw", hash.replace("scrypt$32768", "scrypt$3"))).toBe(false);
    expect(await verifyPassword("pw", hash.replace("scrypt$32768", `scrypt$${2 ** 30}`))).toBe(false);
    expect(await verifyPassword("pw", hash.slice(0, -4))).toBe(false);
  });

  it("spends the time of a real check on an unknown account, and never matches", async () => {
    expect(await verifyAgainstDummy("anything")).toBe(false);
  });
});
