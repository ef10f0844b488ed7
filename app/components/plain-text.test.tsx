/**
 * Pieces that CSS alone sets apart (flex gaps, blocks) must also be apart in the page's text: what a
 * text browser (w3m, lynx), a reader view, copy and paste or `textContent` see. Rendered on the
 * server, as the portal renders them, without a DOM.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Outlet, createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { Breadcrumbs } from "~/components/layout/breadcrumbs";
import { SiteFooter } from "~/components/layout/site-footer";
import { SiteHeader } from "~/components/layout/site-header";
import { Pagination } from "~/components/ui/pagination";
import { SortableHeader } from "~/components/ui/sortable-header";
import { StepIndicator } from "~/components/ui/step-indicator";
import { JobProgress } from "~/components/projects/job-progress";
import { FilePreview } from "~/components/loads/file-preview";
import type { PreviewFile } from "../../contracts/loads";
import { jobOf, scriptOf } from "~/test/fixtures";
import { renderPage } from "~/test/render-page";
import ScriptLayout from "~/routes/templates/script-layout";

/** Renders inside a router (links and matches need one), at `path`, with a breadcrumb per level. */
function render(ui: ReactElement, path = "/migration/projects/p1/details"): string {
  const Stub = createRoutesStub([
    {
      path: "/migration",
      handle: { breadcrumb: "Migrations" },
      Component: () => (
        <>
          {ui}
          <Outlet />
        </>
      ),
      children: [
        {
          path: "projects",
          handle: { breadcrumb: "Projects" },
          Component: Outlet,
          children: [{ path: ":projectId/details", handle: { breadcrumb: "Details" }, Component: () => null }],
        },
      ],
    },
  ]);
  return renderToStaticMarkup(<Stub initialEntries={[path]} />);
}

/** The markup's textContent: its text nodes, joined as they are. */
function textContent(html: string): string {
  return html
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (entity, code: string) => {
      const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };
      if (code.startsWith("#x") || code.startsWith("#X")) return String.fromCodePoint(parseInt(code.slice(2), 16));
      if (code.startsWith("#")) return String.fromCodePoint(Number(code.slice(1)));
      return named[code.toLowerCase()] ?? entity;
    });
}

/** Words, as text without CSS shows them (whitespace collapsed). */
const words = (html: string) => textContent(html).replace(/\s+/g, " ").trim();

const branding = { name: "Data Hub", logoUrl: null, termsAndConditions: "https://example.test/terms" };

describe("text without CSS keeps the pieces apart", () => {
  it("site header: brand and product, user name and role, log out", () => {
    const text = words(render(<SiteHeader branding={branding} user={{ name: "Ann Analyst", roleLabel: "Analyst", company: "Acme Health" }} />));
    expect(text).not.toContain("Data HubData Transformation");
    expect(text).not.toContain("Ann AnalystAnalyst");
    expect(text).not.toContain("Acme HealthAnn");
    expect(text).toBe("Data Hub · Data Transformation Company: Acme Health Ann Analyst Analyst Log out");
  });

  it("site header without a role or a user", () => {
    expect(words(render(<SiteHeader branding={branding} user={{ name: "Ann Analyst", roleLabel: null, company: null }} />))).toBe(
      "Data Hub · Data Transformation Ann Analyst Log out",
    );
    expect(words(render(<SiteHeader branding={branding} user={null} />))).toBe("Data Hub · Data Transformation");
  });

  it("step indicator: number and label, note, one step from the next", () => {
    const steps = [
      { id: "details", label: "Details", to: "/migration/projects/p1/details" },
      { id: "data-dictionary", label: "Data dictionary" },
      { id: "databases", label: "Databases" },
      { id: "templates", label: "Templates", note: "(a later step)" },
    ];
    const text = words(render(<StepIndicator label="Project setup steps" current="data-dictionary" steps={steps} />));
    expect(text).not.toMatch(/\d[A-Z]/);
    // The done step shows a tick (an icon, its words visually hidden), the others their number.
    expect(text).toBe("Details (completed) 2 Data dictionary 3 Databases 4 Templates (a later step)");
  });

  it("breadcrumbs: one crumb from the next", () => {
    const html = render(<Breadcrumbs />);
    expect(words(html)).toBe("Migrations Projects Details");
    // Each crumb's own text is just its label (the browser tests compare list items with it).
    const items = [...html.matchAll(/<li[^>]*>(.*?)<\/li>/g)].map((m) => words(m[1]!));
    expect(items).toEqual(["Migrations", "Projects", "Details"]);
  });

  it("sortable header, pagination and footer", () => {
    const header = words(
      render(
        <table>
          <thead>
            <tr>
              <SortableHeader label="Name" column="name" sort={"-updatedAt" as "name" | "-updatedAt"} to={(s) => `/?sort=${s}`} />
            </tr>
          </thead>
        </table>,
      ),
    );
    expect(header).toBe("Name (sort)");
    const pages = words(render(<Pagination page={2} pageSize={25} total={80} noun={["project", "projects"]} href={(p) => `/?page=${p}`} />));
    expect(pages).toBe("Page 2 of 4 · 80 projects Previous Next");
    const pastTheEnd = words(render(<Pagination page={999} pageSize={25} total={2} noun={["project", "projects"]} href={(p) => `/?page=${p}`} />));
    expect(pastTheEnd).toBe("1 page · 2 projects Previous Next");
    expect(words(render(<SiteFooter branding={branding} version="1.2.3" />))).toBe("v1.2.3 Terms and Conditions");
  });

  it("site header with a tenant logo: its alternative text apart from the name", () => {
    const html = render(<SiteHeader branding={{ ...branding, logoUrl: "/logo.png" }} user={null} />);
    // A text browser shows an image's alt text in its place.
    expect(words(html.replace(/<img[^>]*alt="([^"]*)"[^>]*>/g, "$1"))).toBe("Data Hub logo Data Hub · Data Transformation");
  });

  it("a job's step: its name, when it ran and what it said", () => {
    const job = jobOf({
      status: "ERROR",
      steps: [
        {
          name: "Load a.csv into A",
          status: "Failed",
          startedAt: "2025-03-04T14:05:00.000Z",
          finishedAt: "2025-03-04T14:05:01.000Z",
          message: "2 rows were rejected, so nothing was loaded",
        },
      ],
    });
    const text = words(render(<JobProgress job={job} startedBy="Ann Analyst" />));
    expect(text).not.toContain("s2 rows");
    expect(text).toContain("Load a.csv into A (Failed) Started 2025-03-04 14:05 UTC · took 1 s · 2 rows were rejected, so nothing was loaded");
  });

  it("a file's preview: each column's name apart from the table column it goes into", () => {
    const file: PreviewFile = {
      name: "Employees.csv",
      bytes: 100,
      table: "Employees",
      encoding: "UTF-8",
      delimiter: "Comma",
      header: ["EmployeeId"],
      rows: [{ line: 2, cells: ["1"] }],
      columns: [{ file: "EmployeeId", table: "EmployeeId" }],
      missingColumns: [],
      extraColumns: [],
      problem: null,
    };
    const headings = [...render(<FilePreview file={file} />).matchAll(/<th[^>]*>(.*?)<\/th>/g)].map((m) => words(m[1]!));
    expect(headings).toEqual(["Row", "EmployeeId into EmployeeId"]);
  });

  it("a script's tabs, one from the next", () => {
    const path = "/migration/master-templates/:templateId/edit/level/:levelId/script/edit/:scriptId/*";
    const url = "/migration/master-templates/t1/edit/level/l1/script/edit/s1?companyId=c1";
    const html = renderPage(path, url, ScriptLayout, { script: scriptOf({ id: "s1", templateId: "t1", levelId: "l1" }) });
    const tabs = /<nav aria-label="Script"[^>]*>(.*?)<\/nav>/.exec(html)?.[1] ?? "";
    expect(words(tabs)).toBe("Edit Details History Lock audit Info");
  });

  it.skipIf(!fs.existsSync("/usr/bin/w3m"))("w3m shows the header's pieces apart", () => {
    const html = render(<SiteHeader branding={branding} user={{ name: "Ann Analyst", roleLabel: "Analyst", company: null }} />);
    const dump = execFileSync("/usr/bin/w3m", ["-dump", "-T", "text/html", "-cols", "100"], { input: html, encoding: "utf8" });
    const lines = dump.split("\n").map((l) => l.trim()).filter(Boolean);
    expect(lines).toEqual(["Data Hub · Data Transformation", "Ann Analyst", "Analyst", "Log out"]);
  });
});
