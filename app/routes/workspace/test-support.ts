/**
 * Calls the portal's loaders and actions as React Router does: behind the shell and area middleware
 * (and the route's own, for project and dictionary pages), for a user signed in for real against the
 * live services. The one harness of the portal's route tests. Import it only after
 * `startLiveServices()`: the portal reads its environment at import.
 */
import { z } from "zod";
import { PORTAL_URL, routeArgs, sessionCookies, throughMiddleware } from "~/test/live-services";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Middleware = (args: any, next: any) => unknown;
type Handler = (args: any) => unknown;

export async function createHarness() {
  const { shellMiddleware } = await import("~/lib/guards.server");
  const { middleware: areaMiddleware } = await import("~/routes/area/layout");
  const { requireAuth } = await import("~/lib/auth.server");
  const { callService } = await import("~/lib/api.server");
  const cookieFor = sessionCookies();

  /**
   * Runs `handler` (a loader or action) for `path` as `email`, after the shell, area and `middleware`.
   * `form` is posted as a form (pairs repeat keys). Returns what it returned or threw.
   */
  async function call(
    email: string,
    path: string,
    handler: Handler,
    options: {
      params?: Record<string, string>;
      middleware?: Middleware[];
      form?: Record<string, string> | [string, string][] | FormData;
      /** A body as it is (a stream: a chunked upload), posted unless `method` says otherwise, with `headers`. */
      body?: BodyInit;
      method?: string;
      headers?: Record<string, string>;
    } = {},
  ) {
    const headers: Record<string, string> = { cookie: await cookieFor(email), ...options.headers };
    let body: BodyInit | undefined = options.body;
    if (options.form instanceof FormData) body = options.form;
    else if (options.form) {
      body = new URLSearchParams(options.form);
      headers["content-type"] = "application/x-www-form-urlencoded";
    }
    const method = options.method ?? (body === undefined ? "GET" : "POST");
    // A stream body needs `duplex`, as in the server.
    const request = new Request(`${PORTAL_URL}${path}`, { method, headers, body, ...(body instanceof ReadableStream ? { duplex: "half" } : {}) } as RequestInit);
    const args = routeArgs(request, options.params ?? {});
    return throughMiddleware(args, [shellMiddleware as Middleware, ...(areaMiddleware as Middleware[]), ...(options.middleware ?? [])], () => handler(args));
  }

  /** Calls the data API as `email` (to arrange a test), with the user's real access token; a FormData `body` goes as multipart. */
  async function api<T = any>(email: string, method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE", path: string, body?: unknown, query?: Record<string, string>): Promise<T> {
    const request = new Request(`${PORTAL_URL}/`, { headers: { cookie: await cookieFor(email) } });
    const authenticated = await requireAuth(request);
    const payload = body instanceof FormData ? { formData: body } : { body };
    return callService("data-api", path, { request, authenticated }, { schema: z.any(), method, ...payload, query }) as Promise<T>;
  }

  /**
   * A mapping project of `companyId`, made by `email`, with a table `employees` whose column `grade`
   * (nvarchar(20)) is translated and whose map holds `values`.
   */
  async function mappedGrade(email: string, companyId: string, values: { sourceValue: string; targetValue: string | null }[]) {
    const base = "/api/v1/mapping-projects";
    const application = await api(email, "POST", "/api/v1/applications", { companyId, name: `Payroll ${crypto.randomUUID()}`, description: null });
    const project = await api(email, "POST", base, { companyId, name: `Codes ${crypto.randomUUID().slice(0, 8)}`, applicationId: application.id });
    const dictionary = await api(email, "GET", `${base}/${project.id}/data-dictionary`);
    const table = await api(email, "POST", `${base}/${project.id}/data-dictionary/tables`, {
      version: dictionary.version,
      name: "employees",
      description: null,
      columns: [{ name: "grade", type: "nvarchar", length: 20, nullable: true, isKey: false }],
    });
    const tableId: string = table.table.id;
    const grade = (await api(email, "GET", `${base}/${project.id}/mapping-tables/${tableId}`)).columns[0];
    await api(email, "PUT", `${base}/${project.id}/mapping-columns/${grade.id}/settings`, { version: 0, translate: true, unmappedRule: "Keep" });
    await api(email, "POST", `${base}/${project.id}/mapping-columns/${grade.id}/values`, { version: 1, values });
    return { projectId: project.id as string, tableId, columnId: grade.id as string };
  }

  /** A migration project of `companyId` named `<name> <uuid part>`, made by `email` with an application of its own. */
  async function migrationProject(email: string, companyId: string, name: string, sourceType: "BackUp" | "FlatFile" = "FlatFile") {
    const application = await api(email, "POST", "/api/v1/applications", { companyId, name: `${name} app ${crypto.randomUUID()}`, description: null });
    const project = await api(email, "POST", "/api/v1/projects", {
      companyId,
      name: `${name} ${crypto.randomUUID().slice(0, 8)}`,
      applicationId: application.id,
      sourceType,
      description: null,
    });
    return { id: project.id as string, name: project.name as string };
  }

  /** A Migrations master template of `companyId`, made by `email`, with a level "Load" and its script "Customers" (`select 1;`). */
  async function masterTemplate(email: string, companyId: string, name: string) {
    const template = await api(email, "POST", "/api/v1/master-templates", { companyId, area: "migration", name, type: "Core" });
    const base = `/api/v1/master-templates/${template.id}`;
    const withLevel = await api(email, "POST", `${base}/levels`, { version: template.version, name: "Load" });
    const level = withLevel.levels[0];
    const script = await api(email, "POST", `${base}/levels/${level.id}/scripts`, { version: withLevel.version, name: "Customers", sql: "select 1;", comment: null });
    const { version } = await api(email, "GET", base);
    return { id: template.id as string, name, version: version as number, levelId: level.id as string, scriptId: script.id as string };
  }

  /** `email`'s access token, fresh from the user's session: for the data API's own fixtures (LiveServices' fixtureApi). */
  async function tokenOf(email: string): Promise<string> {
    return (await requireAuth(new Request(`${PORTAL_URL}/`, { headers: { cookie: await cookieFor(email) } }))).auth.accessToken;
  }

  return { call, api, cookieFor, tokenOf, mappedGrade, masterTemplate, migrationProject };
}

/** A `data(value, { status })` an action returned or threw, unwrapped. */
export function unwrap(value: unknown): { status: number; data: any } | null {
  if (!value || typeof value !== "object" || (value as { type?: unknown }).type !== "DataWithResponseInit") return null;
  const { data, init } = value as { data: unknown; init: ResponseInit | null };
  return { status: init?.status ?? 200, data };
}

/** A form post body from plain fields (what a browser sends without JavaScript); an array repeats its key. */
export function form(fields: Record<string, string | string[]>) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const item of Array.isArray(v) ? v : [v]) body.append(k, item);
  return body;
}

/** The parts of an action's `data({ result }, { status })` answer; anything else fails the test, named. */
export function actionAnswer(value: unknown) {
  const { status, data } = unwrapped(value, "a data() answer");
  return { status, result: data?.result as { status?: string; error?: Record<string, string[] | null>; initialValue?: any } };
}

/** A thrown `data(body, status)` (404s and other expected failures); anything else fails the test, named. */
export function thrownData(value: unknown) {
  const { status, data } = unwrapped(value, "a thrown data()");
  return { status, body: data };
}

function unwrapped(value: unknown, expected: string) {
  const answer = unwrap(value);
  if (!answer) throw new Error(`not ${expected}: ${describe(value)}`);
  return answer;
}

function describe(value: unknown) {
  if (value instanceof Response) return `Response ${value.status} ${value.headers.get("Location") ?? ""}`;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  return JSON.stringify(value)?.slice(0, 300) ?? String(value);
}
