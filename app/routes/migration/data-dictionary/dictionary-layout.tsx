import { Link, NavLink, Outlet, redirect, useLocation, type UIMatch } from "react-router";
import { BelowHeading } from "~/components/layout/heading-level";
import { DictionarySteps, type DictionaryStep } from "~/components/dictionary/dictionary-steps";
import { buttonVariants } from "~/components/ui/button";
import { COMPANY_PARAM, companyHref, useCompanyHref } from "~/lib/company-href";
import { shellOf } from "~/lib/guards.server";
import { cn } from "~/lib/utils";
import { dictionaryOf, dictionaryPathsOfRequest, loadDictionary, masterDataAccess } from "./dictionary.server";
import { dictionaryModeOf, dictionaryPathsOf, useDictionaryPaths, type DictionaryMode } from "./paths";
import type { Route } from "./+types/dictionary-layout";

/**
 * One master data dictionary: create/{id} (the draft's setup steps), edit/{id} and view/{id}. Its
 * middleware loads the dictionary once for this layout and every page below it.
 */
export const middleware: Route.MiddlewareFunction[] = [loadDictionary];

// After a refused save (409: the dictionary changed meanwhile), the header is read again with the page below it.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

export async function loader({ request, context }: Route.LoaderArgs) {
  const shell = await shellOf(context);
  const dictionary = await dictionaryOf(context);
  const url = new URL(request.url);
  const mode = dictionaryModeOf(url.pathname);
  const canWrite = masterDataAccess(shell).canWrite;
  // Create and edit pages need write access; without it, the same page read-only.
  if (mode !== "view" && !canWrite) throw redirect(companyHref(dictionaryPathsOfRequest(request).definition("view", dictionary.id), url.searchParams.get(COMPANY_PARAM)));
  const { tables: _tables, ...summary } = dictionary;
  return { dictionary: summary, mode, canWrite };
}

type LoaderData = Awaited<ReturnType<typeof loader>>;

export const handle = {
  breadcrumb: (match: UIMatch) => (match.loaderData as LoaderData | undefined)?.dictionary.name,
  /** A dictionary belongs to one company: switching goes to the list of the same area. */
  companySwitchTo: (pathname: string) => dictionaryPathsOf(pathname).list,
};

export default function DictionaryLayout({ loaderData }: Route.ComponentProps) {
  const { dictionary, mode, canWrite } = loaderData;
  const href = useCompanyHref();
  const paths = useDictionaryPaths();
  return (
    <section aria-labelledby="page-title" className="flex flex-col gap-6">
      <div>
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div>
            <h1 id="page-title" className="text-2xl font-semibold tracking-tight">
              {mode === "create" ? `Create data dictionary: ${dictionary.name}` : dictionary.name}
            </h1>
            <p className="mt-1 text-sm text-muted-foreground">
              Application {dictionary.applicationName} · {dictionary.tableCount} {dictionary.tableCount === 1 ? "table" : "tables"},{" "}
              {dictionary.columnCount} {dictionary.columnCount === 1 ? "column" : "columns"}
            </p>
            {/* DOMAIN.md: a project gets its own copy (Assign copies the tables); what is changed here never reaches it. */}
            {mode === "edit" ? (
              <p className="mt-1 text-sm text-muted-foreground">
                Changes here do not reach the projects, configurations or mapping projects already assigned this dictionary: each has its own copy.
              </p>
            ) : null}
          </div>
          {mode === "view" && canWrite ? (
            <Link to={href(paths.definition("edit", dictionary.id))} className={buttonVariants({ variant: "outline" })}>
              Edit data dictionary
            </Link>
          ) : mode === "edit" ? (
            <Link to={href(paths.definition("view", dictionary.id))} className={buttonVariants({ variant: "outline" })}>
              Done editing
            </Link>
          ) : null}
        </div>
        {mode === "create" ? <CreateSteps id={dictionary.id} /> : <DictionaryTabs id={dictionary.id} mode={mode} />}
      </div>
      <BelowHeading level={1}>
        <Outlet />
      </BelowHeading>
    </section>
  );
}

function CreateSteps({ id }: { id: string }) {
  const { pathname } = useLocation();
  const paths = useDictionaryPaths();
  const current: DictionaryStep = pathname.endsWith("/application") ? "application" : pathname.includes("/review/") ? "review" : "upload";
  return <DictionarySteps current={current} links={{ application: paths.application("create", id), upload: paths.upload("create", id) }} />;
}

function DictionaryTabs({ id, mode }: { id: string; mode: Exclude<DictionaryMode, "create"> }) {
  const href = useCompanyHref();
  const paths = useDictionaryPaths();
  const tabs = [
    { label: "Application", to: paths.application(mode, id) },
    { label: "Data definition", to: paths.definition(mode, id) },
    ...(mode === "edit" ? [{ label: "Bulk update", to: paths.upload("edit", id) }] : []),
  ];
  return (
    <nav aria-label="Data dictionary pages" className="mt-4 border-b border-border">
      <ul className="-mb-px flex gap-4 text-sm">
        {tabs.map((t) => (
          <li key={t.to}>
            <NavLink
              to={href(t.to)}
              className={({ isActive }) =>
                cn("inline-block border-b-2 px-1 pb-2", isActive ? "border-brand font-medium text-slate-900" : "border-transparent text-muted-foreground hover:text-slate-900")
              }
            >
              {t.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}


export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
