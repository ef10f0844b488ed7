import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../scripts/demo-data";
import { PORTAL_BUILD_TIMEOUT_MS, buildPortal } from "~/test/server-build";
import { PORTAL_URL, isRedirect, signIn, startLiveServices } from "~/test/live-services";
import { whenTranslationEnded } from "../../../services/data-api/src/testing/project-fixtures";

/**
 * The download routes (downloads.server.ts), through their middleware as React Router runs it, against
 * the live services: a file streams; a refusal goes back to the page that offers it with a message; an
 * unknown or another company's id is the portal's Not found page (404), never the data API's JSON.
 */
const live = await startLiveServices();
let portal: Awaited<ReturnType<typeof buildPortal>> | undefined;
afterAll(async () => {
  portal?.remove();
  await live.stop();
});

const { createHarness, unwrap } = await import("./test-support");
const { call, api, mappedGrade } = await createHarness();
const { readFlash } = await import("~/lib/flash.server");
const workspaceLayout = await import("./project/layout");
const translationFile = await import("./project/translation-file");
const valuesCsv = await import("./project/mapping-column-csv");

const [, acme, birch] = DEMO_COMPANIES;
const ANALYST = "analyst@demo.test";
const SUPPORT = "support@demo.test";
const API = "/api/v1/mapping-projects";

/** The message a redirect carries to the next page. */
async function flashOf(response: Response): Promise<string | undefined> {
  const cookie = response.headers.get("Set-Cookie")?.split(";")[0];
  return (await readFlash(new Request(PORTAL_URL, { headers: cookie ? { cookie } : {} })))?.text;
}

/** A mapping project of `companyId` with a table `employees` whose column `grade` is translated (G1 → P1). */
const mappingProject = (email: string, companyId: string) => mappedGrade(email, companyId, [{ sourceValue: "G1", targetValue: "P1" }]);

/** A translation of `text` in the project, once it has ended. */
async function translated(projectId: string, text: string) {
  const form = new FormData();
  form.set("file", new File([text], "employees.csv", { type: "text/csv" }));
  form.set("table", "employees");
  const started = await api(ANALYST, "POST", `${API}/${projectId}/translations`, form);
  return whenTranslationEnded(() => api<{ id: string; status: string }>(ANALYST, "GET", `${API}/${projectId}/translations/${started.id}`));
}

describe("a download route", () => {
  let mine: Awaited<ReturnType<typeof mappingProject>>;
  beforeAll(async () => {
    mine = await mappingProject(ANALYST, acme.id);
  }, 60_000);

  const base = (projectId: string) => `/translations/mappings/${projectId}`;
  const fileOf = (projectId: string, translationId: string) =>
    call(ANALYST, `${base(projectId)}/translate/${translationId}/file?companyId=${acme.id}`, translationFile.loader, {
      params: { mappingProjectId: projectId, translationId },
      middleware: [...workspaceLayout.middleware, ...translationFile.middleware],
    });
  const csvOf = (projectId: string, columnId: string) =>
    call(ANALYST, `${base(projectId)}/file-data-structure/mappingTable/${mine.tableId}/column/${columnId}/values.csv?companyId=${acme.id}`, valuesCsv.loader, {
      params: { mappingProjectId: projectId, mappingSourceTableId: mine.tableId, columnId },
      middleware: [...workspaceLayout.middleware, ...valuesCsv.middleware],
    });

  it("streams the file", async () => {
    const done = await translated(mine.projectId, "grade\nG1\n");
    expect(done.status).toBe("Completed");
    const file = (await fileOf(mine.projectId, done.id)) as Response;
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toContain("text/csv");
    // Saved as a file by its disposition: the page's links carry no `download` (a refusal is a page to show).
    expect(file.headers.get("content-disposition")).toBe('attachment; filename="employees-translated.csv"');
    expect(await file.text()).toContain("P1");
    const csv = (await csvOf(mine.projectId, mine.columnId)) as Response;
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="[\w.-]+\.csv"$/);
    expect(await csv.text()).toBe("source_value,target_value\r\nG1,P1\r\n");
  });

  it("sends a refusal back to the page that offers the download, saying why, rather than the data API's JSON", async () => {
    const failed = await translated(mine.projectId, 'grade\nG1\n"G2\n');
    expect(failed.status).toBe("Failed");
    const answer = await fileOf(mine.projectId, failed.id);
    const page = `${base(mine.projectId)}/translate/${failed.id}?companyId=${acme.id}`;
    expect(isRedirect(answer, page)).toBe(true);
    expect((answer as Response).status).toBe(303);
    expect(await flashOf(answer as Response)).toBe("This translation failed, so there is nothing to download.");
  });

  it("answers an unknown id, or another company's, with the portal's Not found page (404)", async () => {
    const unknownTranslation = unwrap(await fileOf(mine.projectId, crypto.randomUUID()));
    expect(unknownTranslation?.status).toBe(404);
    expect(unknownTranslation?.data.errors).toEqual([expect.any(String)]);
    expect(unwrap(await csvOf(mine.projectId, crypto.randomUUID()))?.status).toBe(404);

    const theirs = await mappingProject(SUPPORT, birch.id);
    const otherCompany = unwrap(await csvOf(theirs.projectId, theirs.columnId));
    expect(otherCompany?.status).toBe(404);
    expect(JSON.stringify(otherCompany?.data)).not.toContain("P1");
  });
});

describe("a download through the built portal, as a browser gets it", () => {
  it("is the file, a 303 to its page with the message, or the portal's Not found page as HTML: never JSON", async () => {
    portal = await buildPortal("downloads");
    const viaPortal = (request: Request) => portal!.handle(request);
    const { cookie } = await signIn({ login: viaPortal, callback: viaPortal }, ANALYST);
    const get = (path: string) => portal!.handle(new Request(`${PORTAL_URL}${path}`, { headers: { cookie } }));
    const mine = await mappingProject(ANALYST, acme.id);
    const fileUrl = (id: string) => `/translations/mappings/${mine.projectId}/translate/${id}/file?companyId=${acme.id}`;

    const done = await translated(mine.projectId, "grade\nG1\n");
    const file = await get(fileUrl(done.id));
    expect(file.status).toBe(200);
    expect(await file.text()).toContain("P1");

    const failed = await translated(mine.projectId, 'grade\nG1\n"G2\n');
    const refused = await get(fileUrl(failed.id));
    expect(refused.status).toBe(303);
    expect(refused.headers.get("location")).toBe(`/translations/mappings/${mine.projectId}/translate/${failed.id}?companyId=${acme.id}`);

    const unknown = await get(fileUrl(crypto.randomUUID()));
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toContain("text/html");
    const html = await unknown.text();
    expect(html).toContain("Not found");
    expect(html).toContain(mine.projectId);
  }, PORTAL_BUILD_TIMEOUT_MS);
});
