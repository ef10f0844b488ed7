import { createRoute } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { apiErrorSchema } from "../../../contracts/errors.ts";
import { createRouter, errorResponses, jsonContent } from "./openapi.ts";

// No endpoint of this issue takes input that can fail validation; later resources (search, create)
// all will, through this hook. The probe route stands in for them.
describe("validation failures", () => {
  const probe = createRoute({
    method: "get",
    path: "/probe",
    request: { query: z.object({ page: z.coerce.number().int().min(1), status: z.enum(["Active", "Inactive"]) }) },
    responses: { 200: jsonContent(z.object({ ok: z.boolean() }), "ok"), 400: errorResponses[400] },
  });
  const router = createRouter().openapi(probe, (c) => c.json({ ok: true }, 200));

  it("answer 400 with the shared error body naming each field", async () => {
    const res = await router.request("/probe?page=0&status=Deleted");
    expect(res.status).toBe(400);
    const body = apiErrorSchema.parse(await res.json());
    expect(body.code).toBe("validation_failed");
    expect(Object.keys(body.fieldErrors ?? {}).sort()).toEqual(["page", "status"]);
    expect(body.errors).toHaveLength(2);
    expect(body.errors.every((line) => /^(page|status): /.test(line))).toBe(true);
  });

  it("let valid input through", async () => {
    const res = await router.request("/probe?page=2&status=Active");
    expect(res.status).toBe(200);
  });
});
