/**
 * The links to the download routes (downloads.server.ts), rendered on the server: plain links the
 * browser follows as a document request, without the `download` attribute. The route's file says
 * Content-Disposition: attachment, so it is saved as a file; a refusal is a page (a 303 back with its
 * message, the Not found page), which `download` made the browser save as the file instead of showing.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { BackupsTable } from "~/components/backups/backups-table";
import { backupOf, translationOf } from "~/test/fixtures";
import { renderPage } from "~/test/render-page";
import AuditLog from "../additional-options/audit-log";
import TranslationPage from "./project/translation";

/** The <a> elements (their opening tags) whose href matches `path`. */
const linksTo = (html: string, path: RegExp) => [...html.matchAll(/<a [^>]*>/g)].map((m) => m[0]).filter((a) => path.test(a));

describe("a link to a file", () => {
  it("is no `download` link on the audit log (Export CSV)", () => {
    const page = "/additional-options/audit-log";
    const html = renderPage(page, page, AuditLog, {
      filters: { page: 1, pageSize: 25 },
      log: { items: [], total: 0, page: 1, pageSize: 25, retentionDays: 365 },
      datesRefused: null,
      daysUnread: { from: null, to: null },
      companies: [],
      companyId: null,
    });
    const links = linksTo(html, /href="\/additional-options\/audit-log\.csv/);
    expect(links).toHaveLength(1);
    expect(links[0]).not.toMatch(/\sdownload/);
  });

  it("is no `download` link on a translation (Download the translated file)", () => {
    const page = "/translations/mappings/p1/translate/tr1";
    const translation = translationOf();
    const html = renderPage(page, `${page}?companyId=c1`, TranslationPage, { projectId: "p1", translation });
    const links = linksTo(html, /href="\/translations\/mappings\/p1\/translate\/tr1\/file["?]/);
    expect(links).toHaveLength(1);
    expect(links[0]).not.toMatch(/\sdownload/);
  });

  it("is no `download` link in a workspace's backups (Download)", () => {
    const page = "/migration/projects/p1/databases/current";
    const Stub = createRoutesStub([{ path: page, Component: () => <BackupsTable projectId="p1" backups={[backupOf()]} /> }]);
    const html = renderToStaticMarkup(<Stub initialEntries={[`${page}?companyId=c1`]} />);
    const links = linksTo(html, /href="\/migration\/projects\/p1\/databases\/backups\/b1\/download["?]/);
    expect(links).toHaveLength(1);
    expect(links[0]).not.toMatch(/\sdownload/);
  });
});
