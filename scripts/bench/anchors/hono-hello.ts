/** The anchor for the data API: Hono's hello world on @hono/node-server, as its README starts it. */
import { serve } from "@hono/node-server";
import { Hono } from "hono";

const app = new Hono();
app.get("/", (c) => c.text("Hello Hono!"));
serve({ fetch: app.fetch, port: Number(process.env.PORT) });
