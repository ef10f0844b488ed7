import type { HttpBindings } from "@hono/node-server";
import type { BearerVariables } from "../../shared/bearer.ts";
import type { RequestIdVariables } from "../../shared/http.ts";

/** The Hono environment of this service. Bindings are absent when tests call app.request. */
export type AppEnv = {
  Bindings: Partial<HttpBindings>;
  Variables: RequestIdVariables & BearerVariables;
};
