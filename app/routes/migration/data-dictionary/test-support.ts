/**
 * Calling the migration pages' loaders and actions directly, as React Router would: the shell's and
 * the area's middleware first (real sign-in, real guards), then the route's own middleware, then the
 * loader or action. Import it only after `startLiveServices()` (the portal reads its env at import).
 */
import { PORTAL_URL, routeArgs, sessionCookies, throughMiddleware } from "~/test/live-services";

type Middleware = (args: any, next: () => Promise<unknown>) => unknown;
type Handler = (args: any) => unknown;

export async function createRouteHarness() {
  const { shellMiddleware } = await import("~/lib/guards.server");
  const { middleware: areaMiddleware } = await import("~/routes/area/layout");
  const cookieFor = sessionCookies();

  /**
   * Runs `handler` (a loader or an action) for `path` as `email`, behind the shell and area
   * middleware and `middleware` (the route's layouts). Returns what it returned or threw.
   */
  async function call(
    email: string,
    path: string,
    handler: Handler,
    options: { method?: string; body?: BodyInit; headers?: Record<string, string>; params?: Record<string, string>; middleware?: Middleware[] } = {},
  ): Promise<unknown> {
    const request = new Request(`${PORTAL_URL}${path}`, {
      method: options.method ?? "GET",
      headers: { cookie: await cookieFor(email), ...options.headers },
      body: options.body,
      // A stream body (a chunked upload) needs it, as in the server.
      ...(options.body instanceof ReadableStream ? { duplex: "half" } : {}),
    } as RequestInit);
    const args = routeArgs(request, options.params ?? {});
    return throughMiddleware(args, [shellMiddleware as Middleware, ...(areaMiddleware as Middleware[]), ...(options.middleware ?? [])], () => handler(args));
  }

  return { call, cookieFor };
}

/** A form post body from plain fields (what a browser sends without JavaScript). */
export function form(fields: Record<string, string | string[]>) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const item of Array.isArray(v) ? v : [v]) body.append(k, item);
  return body;
}

/** The parts of an action's `data({ result }, { status })` answer. */
export function actionAnswer(value: unknown) {
  const v = value as { type?: string; data?: { result?: any }; init?: { status?: number } | null };
  if (v?.type !== "DataWithResponseInit") throw new Error(`not a data() answer: ${describe(value)}`);
  return { status: v.init?.status ?? 200, result: v.data?.result as { status?: string; error?: Record<string, string[] | null>; initialValue?: any } };
}

/** A thrown `data(body, status)` (404s and other expected failures). */
export function thrownData(value: unknown) {
  const v = value as { type?: string; data?: any; init?: { status?: number } | null };
  if (v?.type !== "DataWithResponseInit") throw new Error(`not a thrown data(): ${describe(value)}`);
  return { status: v.init?.status ?? 200, body: v.data };
}

function describe(value: unknown) {
  if (value instanceof Response) return `Response ${value.status} ${value.headers.get("Location") ?? ""}`;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  return JSON.stringify(value)?.slice(0, 300) ?? String(value);
}
