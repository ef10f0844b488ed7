/**
 * Calls this area's loaders and actions as React Router does: behind the shell and area middleware
 * (and the project's, for project pages), for a user signed in for real against the live services.
 * Import it only after `startLiveServices()`: the portal reads its environment at import.
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
    options: { params?: Record<string, string>; middleware?: Middleware[]; form?: Record<string, string> | [string, string][] | FormData } = {},
  ) {
    const headers: Record<string, string> = { cookie: await cookieFor(email) };
    let body: BodyInit | undefined;
    if (options.form instanceof FormData) body = options.form;
    else if (options.form) {
      body = new URLSearchParams(options.form);
      headers["content-type"] = "application/x-www-form-urlencoded";
    }
    const request = new Request(`${PORTAL_URL}${path}`, { method: options.form ? "POST" : "GET", headers, body });
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

  return { call, api, cookieFor, mappedGrade, masterTemplate };
}

/** A `data(value, { status })` an action returned or threw, unwrapped. */
export function unwrap(value: unknown): { status: number; data: any } | null {
  if (!value || typeof value !== "object" || (value as { type?: unknown }).type !== "DataWithResponseInit") return null;
  const { data, init } = value as { data: unknown; init: ResponseInit | null };
  return { status: init?.status ?? 200, data };
}
