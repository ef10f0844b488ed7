import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createSqlCredentialSchema } from "./sql-access";

const fieldErrors = (body: object) => {
  const result = createSqlCredentialSchema.safeParse(body);
  return result.success ? {} : z.flattenError(result.error).fieldErrors;
};

describe("a new SQL credential", () => {
  it("lists every refused field at once: no user or service as well as a missing expiry date (a form leaves empty fields out)", () => {
    expect(fieldErrors({ companyId: "c", userId: "", serviceName: "" })).toEqual({
      expiresOn: ["Choose the day the credential expires"],
      userId: ["Choose a user, or name a service"],
    });
  });

  it("says a field's own message rather than the rule's when that field is refused", () => {
    expect(fieldErrors({ companyId: "c", serviceName: "x".repeat(1_000) })).toEqual({
      expiresOn: ["Choose the day the credential expires"],
      serviceName: [expect.stringMatching(/^The service name has at most \d+ characters$/)],
    });
  });

  it("refuses what is not an object at all, without reading its fields (the OpenAPI document's generator asks so)", () => {
    for (const body of [null, undefined, "text"]) expect(createSqlCredentialSchema.safeParse(body).success).toBe(false);
  });
});
