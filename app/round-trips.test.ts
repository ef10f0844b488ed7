/**
 * The main pages wait for the services once, not once per layer: the shell's companies and roles, the
 * workspace and its access, and the page's own data are asked in parallel (depth 1), on a fresh
 * session (nothing cached) as well as on the next page (the shell's data from the session's cache).
 * Measured by the portal itself (SERVER_TIMING=true), through the built server's request handler, as production runs it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../scripts/demo-data";
import { PORTAL_BUILD_TIMEOUT_MS, buildPortal } from "~/test/server-build";
import { PORTAL_URL, signIn, startLiveServices } from "~/test/live-services";

const live = await startLiveServices({ SERVER_TIMING: "true" });
let portal: Awaited<ReturnType<typeof buildPortal>>;
const [, acme] = DEMO_COMPANIES;
const pages: Record<string, string> = {};

const viaPortal = (request: Request) => portal.handle(request);
const signedIn = async () => (await signIn({ login: viaPortal, callback: viaPortal }, "analyst@demo.test")).cookie;
const get = (path: string, cookie: string) => portal.handle(new Request(`${PORTAL_URL}${path}`, { headers: { cookie } }));

function timing(res: Response) {
  const header = res.headers.get("Server-Timing") ?? "";
  const match = /svc;dur=([\d.]+);desc="calls=(\d+) depth=(\d+)"/.exec(header);
  if (!match) throw new Error(`no service timing in "${header}"`);
  return { ms: Number(match[1]), calls: Number(match[2]), depth: Number(match[3]) };
}

beforeAll(async () => {
  portal = await buildPortal("round-trips");
  // A project to visit, made through the data API as the analyst.
  const { createHarness } = await import("~/routes/workspace/test-support");
  const { api, mappedGrade } = await createHarness();
  const app = await api("analyst@demo.test", "POST", "/api/v1/applications", { companyId: acme.id, name: "Round trips", description: null });
  const project = await api("analyst@demo.test", "POST", "/api/v1/projects", {
    companyId: acme.id,
    name: "Round trips",
    applicationId: app.id,
    sourceType: "BackUp",
    description: null,
  });
  const projectId = project.id as string;
  Object.assign(pages, {
    "projects list": `/migration/projects?companyId=${acme.id}`,
    "project details": `/migration/projects/${projectId}/details?companyId=${acme.id}`,
    "project dictionary tables": `/migration/projects/${projectId}/data-dictionary/data-definition/tables?companyId=${acme.id}`,
    "master dictionaries list": `/migration/data-dictionary?companyId=${acme.id}`,
  });
  // A translation mapping project's pages (issue 12), whose value map pages sit below its file data structure's layout.
  const mapping = await mappedGrade("analyst@demo.test", acme.id, [{ sourceValue: "G1", targetValue: null }]);
  const structure = `/translations/mappings/${mapping.projectId}/file-data-structure`;
  Object.assign(pages, {
    "mapping table": `${structure}/mappingTable/${mapping.tableId}?companyId=${acme.id}`,
    "mapping column": `${structure}/mappingTable/${mapping.tableId}/column/${mapping.columnId}?companyId=${acme.id}`,
    "translate a file": `/translations/mappings/${mapping.projectId}/translate?companyId=${acme.id}`,
  });
}, PORTAL_BUILD_TIMEOUT_MS);

afterAll(async () => {
  portal?.remove();
  await live.stop();
});

describe("sequential service round trips per page", () => {
  it.each(["projects list", "project details", "project dictionary tables", "master dictionaries list", "mapping table", "mapping column", "translate a file"])(
    "%s: one round trip on a fresh session (the shell's calls beside the page's), one after",
    async (name) => {
      const cookie = await signedIn();
      const first = await get(pages[name]!, cookie);
      expect(first.status).toBe(200);
      const cold = timing(first);
      // Companies and permissions were asked too, in parallel with the page's own calls.
      expect(cold.calls).toBeGreaterThanOrEqual(3);
      expect(cold.depth).toBe(1);

      const again = await get(pages[name]!, cookie);
      expect(again.status).toBe(200);
      const warm = timing(again);
      expect(warm.depth).toBe(1);
      // The shell's data came from the session's cache: only the page's own calls.
      expect(warm.calls).toBeLessThanOrEqual(cold.calls - 2);

      // A client navigation (a data request) as well.
      const data = await get(pages[name]!.replace("?", ".data?"), cookie);
      expect(data.status).toBe(200);
      expect(timing(data).depth).toBeLessThanOrEqual(1);
    },
  );
});
