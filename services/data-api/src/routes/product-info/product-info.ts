import { createRoute } from "@hono/zod-openapi";
import { productInfoSchema } from "../../../../../contracts/data-api.ts";
import { createRouter, errorResponses, jsonContent } from "../../openapi.ts";

const getProductInfo = createRoute({
  method: "get",
  path: "/productInfo",
  tags: ["Product info"],
  summary: "The product version, shown in the portal's footer",
  responses: {
    200: jsonContent(productInfoSchema, "The product version."),
    401: errorResponses[401],
  },
});

export function createProductInfoRouter() {
  return createRouter().openapi(getProductInfo, (c) => c.json({ version: c.var.deps.version }, 200));
}
