import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import type { Context } from "hono";
import { Hono } from "hono";
import type { Kysely } from "kysely";
import { errors, type default as Provider } from "oidc-provider";
import type { Logger } from "../../shared/logger.ts";
import type { AppEnv } from "./app-env.ts";
import { DEFAULT_BRANDING, getBranding } from "./db/branding.ts";
import type { Database } from "./db/schema.ts";
import { findUserByEmail, normaliseEmail } from "./db/users.ts";
import type { ClientPortalEnv } from "./env.ts";
import { INTERACTION_PATH } from "./oidc.ts";
import { verifyAgainstDummy, verifyPassword } from "./passwords.ts";
import type { SignInLimiter } from "./rate-limit.ts";
import { messagePage } from "./views/pages.ts";
import { signInPage } from "./views/sign-in.ts";

export const INVALID_CREDENTIALS = "Invalid email or password";

type Deps = { provider: Provider; db: Kysely<Database>; env: ClientPortalEnv; limiter: SignInLimiter; logger: Logger };

/**
 * Our sign-in page, where the provider sends the browser when it needs a login
 * (GET /interaction/:uid shows the form, POST /interaction/:uid/login checks it). Plain HTML forms:
 * nothing here needs JavaScript.
 */
export function interactionRoutes({ provider, db, env, limiter, logger }: Deps) {
  const app = new Hono<AppEnv>();

  app.use(async (c, next) => {
    await next();
    c.header("Cache-Control", "no-store");
    c.header("X-Frame-Options", "DENY");
    c.header("Content-Security-Policy", "frame-ancestors 'none'");
    c.header("Referrer-Policy", "no-referrer");
  });

  app.get("/:uid", async (c) => {
    const interaction = await findInteraction(c);
    if (!interaction) return expired(c);
    if (interaction.prompt.name !== "login") return unsupportedPrompt(c);
    const hint = interaction.params.login_hint;
    return c.html(
      signInPage({
        branding: await getBranding(db),
        action: loginAction(interaction.uid),
        email: typeof hint === "string" ? hint : undefined,
      }),
    );
  });

  app.post("/:uid/login", async (c) => {
    const interaction = await findInteraction(c);
    if (!interaction) return expired(c);
    if (interaction.prompt.name !== "login") return unsupportedPrompt(c);

    const form = await c.req.parseBody();
    const email = typeof form.email === "string" ? form.email.trim() : "";
    const password = typeof form.password === "string" ? form.password : "";
    const key = { account: normaliseEmail(email), address: clientAddress(c, env.TRUST_PROXY) };
    const branding = await getBranding(db);
    const retry = (status: 401 | 429, error: string) =>
      c.html(signInPage({ branding, action: loginAction(interaction.uid), email, error }), status);

    const decision = await limiter.check(key);
    if (!decision.allowed) {
      c.header("Retry-After", String(decision.retryAfterSeconds));
      const minutes = Math.ceil(decision.retryAfterSeconds / 60);
      return retry(429, `Too many sign-in attempts. Try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`);
    }

    const user = email ? await findUserByEmail(db, email) : undefined;
    const valid = user && password ? await verifyPassword(password, user.password_hash) : await verifyAgainstDummy(password);
    if (!user || !valid) {
      const { delayMs } = await limiter.recordFailure(key);
      logger.info("sign-in failed", { address: key.address });
      await sleep(delayMs);
      return retry(401, INVALID_CREDENTIALS);
    }

    await limiter.recordSuccess(key);
    const [req, res] = providerRequest(c);
    const returnTo = await provider.interactionResult(req, res, { login: { accountId: user.id } }, { mergeWithLastSubmission: false });
    return c.redirect(returnTo, 303);
  });

  async function findInteraction(c: Context<AppEnv>) {
    const [req, res] = providerRequest(c);
    try {
      const interaction = await provider.interactionDetails(req, res);
      // The cookie names the interaction; the URL must name the same one.
      return interaction.uid === c.req.param("uid") ? interaction : undefined;
    } catch (err) {
      if (err instanceof errors.SessionNotFound) return undefined;
      throw err;
    }
  }

  async function expired(c: Context<AppEnv>) {
    return c.html(
      messagePage({
        branding: await getBranding(db),
        title: "This sign-in page has expired",
        message: "The sign-in request is no longer valid. Go back to Data Transformation and sign in again.",
        backUrl: env.PORTAL_URL,
      }),
      400,
    );
  }

  async function unsupportedPrompt(c: Context<AppEnv>) {
    return c.html(
      messagePage({
        branding: await getBranding(db),
        title: "This sign-in request cannot be completed",
        message: "The application asked for something this sign-in service does not offer.",
        backUrl: env.PORTAL_URL,
      }),
      400,
    );
  }

  app.onError(async (err, c) => {
    logger.error("sign-in page error", { err, requestId: c.get("requestId"), path: c.req.path });
    return c.html(
      messagePage({
        branding: DEFAULT_BRANDING,
        title: "Something went wrong",
        message: "Try again in a moment.",
        backUrl: env.PORTAL_URL,
      }),
      500,
    );
  });

  return app;
}

function loginAction(uid: string) {
  return `${INTERACTION_PATH}/${encodeURIComponent(uid)}/login`;
}

/**
 * oidc-provider finds an interaction by its signed cookie alone, so a stand-in Node request carrying
 * the request's headers is all it needs; that keeps these routes independent of the Node adapter
 * (and callable with app.request in tests).
 */
function providerRequest(c: Context<AppEnv>): [IncomingMessage, ServerResponse] {
  const req = new IncomingMessage(new Socket());
  const url = new URL(c.req.url);
  req.method = c.req.method;
  req.url = url.pathname + url.search;
  req.headers = Object.fromEntries(c.req.raw.headers.entries());
  return [req, new ServerResponse(req)];
}

/**
 * The address failures are counted against. X-Forwarded-For is only believed behind our own proxy,
 * and then only its last hop (the one our proxy appended): earlier entries are the client's to forge.
 */
function clientAddress(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const hops = c.req.header("x-forwarded-for")?.split(",").map((h) => h.trim()).filter(Boolean);
    const last = hops?.at(-1);
    if (last) return last;
  }
  return c.env?.incoming?.socket?.remoteAddress ?? "unknown";
}
