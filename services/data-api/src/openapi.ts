import { OpenAPIHono, type Hook } from "@hono/zod-openapi";
import { z, type ZodType } from "zod";
import { apiErrorSchema } from "../../../contracts/errors.ts";
import { apiError } from "../../shared/http.ts";
import { ApiProblem } from "./api-problem.ts";
import type { AppEnv } from "./context.ts";

export const API_PREFIX = "/api/v1";
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;
export const BEARER_SCHEME = "bearerAuth";

/**
 * A failed Zod validation of params, query or body answers 400 with the shared error body:
 * one readable line per problem and `fieldErrors` keyed by the field's dotted path.
 */
export const validationHook: Hook<unknown, AppEnv, string, Response | undefined> = (result, c) => {
  if (result.success) return;
  const fieldErrors = fieldErrorsOf(result.error.issues, result.target);
  const lines = Object.entries(fieldErrors).flatMap(([field, messages]) => messages.map((m) => `${field}: ${m}`));
  return apiError(c, 400, "validation_failed", lines, fieldErrors);
};

/** Zod's issues as the API's `fieldErrors`: messages keyed by the field's dotted path (`whole` for the value itself). */
export function fieldErrorsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[], whole: string): Record<string, string[]> {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of issues) (fieldErrors[issue.path.map(String).join(".") || whole] ??= []).push(issue.message);
  return fieldErrors;
}

/**
 * `?companyId=`: the company a caller who sees several (SuperAdmin, Support) is working in, for a
 * route that names a thing by id alone. Another company's thing then answers 404, as it does for a
 * caller of one company: a portal page of Acme Health acts on Acme Health's things only.
 */
export const inCompanyQuery = z.object({ companyId: z.string().min(1).optional() });

/** Refuses, as not found, a thing of another company than the one named by `inCompanyQuery`. */
export function requireInCompany(thingCompanyId: string, companyId: string | undefined, notFoundMessage: string): void {
  if (companyId !== undefined && companyId !== thingCompanyId) throw new ApiProblem(404, "not_found", notFoundMessage);
}

/** Every resource router is one of these, mounted on the app with `app.route(API_PREFIX, router)`. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}

export function jsonContent<S extends ZodType>(schema: S, description: string) {
  return { description, content: { "application/json": { schema } } };
}

/** A required JSON request body of `schema` (what `c.req.valid("json")` then answers). */
export function jsonBody<S extends ZodType>(schema: S) {
  return { required: true, content: { "application/json": { schema } } };
}

// Named, so the document holds the error body once as a component and every answer refers to it.
const apiErrorComponent = apiErrorSchema.openapi("ApiError");
const errorBody = (description: string) => jsonContent(apiErrorComponent, description);

/** Error answers shared by the routes, so the document shows what a client must handle. */
export const errorResponses = {
  400: errorBody("The request failed validation; `fieldErrors` names the fields."),
  401: errorBody("No bearer token, or one that is forged, expired or for another issuer or audience."),
  404: errorBody("Not found, or it belongs to a company the caller may not see (the two are indistinguishable)."),
  503: errorBody("The caller's permissions could not be loaded from the client portal."),
} as const;

/** Publishes the document generated from every route registered on `app` (and its mounted routers). */
export function installOpenApiDocument(app: OpenAPIHono<AppEnv>, version: string) {
  app.openAPIRegistry.registerComponent("securitySchemes", BEARER_SCHEME, {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "An access token issued by the client portal (OpenID Connect).",
  });
  app.doc(OPENAPI_PATH, {
    openapi: "3.0.3",
    info: {
      title: "Data Transformation data API",
      version,
      description: "Reference implementation of the data API (Base B). Every path needs a bearer token.",
    },
    security: [{ [BEARER_SCHEME]: [] }],
  });
}
