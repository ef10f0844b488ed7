import { describe, expect, it } from "vitest";
import { z } from "zod";
import { INVISIBLE_CHARACTERS_MESSAGE } from "./common";
import { createSqlCredentialSchema, expiresOnSchema, lastExpiryDay, todayUtc } from "./sql-access";
import { SQL_CREDENTIAL_MAX_DAYS } from "./values/sql-access";

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

  it("refuses a service name holding a line break, a tab or an invisible character, as any name", () => {
    for (const serviceName of ["ETL\nnightly", "ETL\tnightly", "ETL\u200bnightly"]) {
      expect(fieldErrors({ companyId: "c", serviceName, expiresOn: todayUtc() })).toEqual({ serviceName: [INVISIBLE_CHARACTERS_MESSAGE] });
    }
    expect(fieldErrors({ companyId: "c", serviceName: " ETL nightly\n", expiresOn: todayUtc() })).toEqual({});
  });

  it("refuses what is not an object at all, without reading its fields (the OpenAPI document's generator asks so)", () => {
    for (const body of [null, undefined, "text"]) expect(createSqlCredentialSchema.safeParse(body).success).toBe(false);
  });
});

describe("a credential's expiry date", () => {
  it("is at most SQL_CREDENTIAL_MAX_DAYS ahead: the last day the form offers (its max) is the last the schema accepts", () => {
    expect(SQL_CREDENTIAL_MAX_DAYS).toBe(366);
    expect(lastExpiryDay("2026-11-27")).toBe("2027-11-28");
    expect(lastExpiryDay("2028-02-28")).toBe("2029-02-28");
    expect(expiresOnSchema.safeParse(todayUtc()).success).toBe(true);
    expect(expiresOnSchema.safeParse(lastExpiryDay()).success).toBe(true);
    const dayAfter = new Date(Date.parse(`${lastExpiryDay()}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect(expiresOnSchema.safeParse(dayAfter).error?.issues[0]?.message).toBe("The expiry date is at most 366 days from today");
  });

  it("that is no date says only so: not also that it is too far ahead or in the past", () => {
    const messages = (day: string) => expiresOnSchema.safeParse(day).error?.issues.map((i) => i.message);
    expect(messages("2027-13-45")).toEqual(["Give a real date"]);
    expect(messages("2001-02-30")).toEqual(["Give a real date"]);
    expect(messages("9999-1-1")).toEqual(["Give a date as YYYY-MM-DD"]);
    expect(fieldErrors({ companyId: "c", serviceName: "ETL", expiresOn: "2027-13-45" })).toEqual({ expiresOn: ["Give a real date"] });
  });
});
