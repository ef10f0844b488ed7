import { Plus } from "lucide-react";
import { Link } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import { Card, CardDescription } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { useCompanyHref } from "~/lib/company-href";
import { shellContext } from "~/lib/guards.server";
import { listApplications } from "../data-dictionary/api.server";
import { masterDataAccess } from "../data-dictionary/dictionary.server";
import { CREATE_APPLICATION_PATH, CREATED_PARAM } from "./paths";
import type { Route } from "./+types/list";

export async function loader({ request, context }: Route.LoaderArgs) {
  const shell = context.get(shellContext);
  const applications = shell.company ? await listApplications(shell, shell.company.id) : [];
  const createdId = new URL(request.url).searchParams.get(CREATED_PARAM);
  return {
    applications,
    companyName: shell.company?.name ?? null,
    created: applications.find((a) => a.id === createdId) ?? null,
    canWrite: masterDataAccess(shell).canWrite,
  };
}

export default function Applications({ loaderData }: Route.ComponentProps) {
  const { applications, companyName, created, canWrite } = loaderData;
  const href = useCompanyHref();
  return (
    <section aria-labelledby="page-title" className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 id="page-title" className="text-2xl font-semibold tracking-tight">
            Applications
          </h1>
          {companyName ? <p className="mt-1 text-sm text-muted-foreground">{companyName}</p> : null}
        </div>
        {canWrite ? (
          <Link to={href(CREATE_APPLICATION_PATH)} className={buttonVariants()}>
            <Plus aria-hidden="true" />
            Create application
          </Link>
        ) : null}
      </div>

      {created ? (
        <p role="status" className="rounded-md border border-emerald-300 bg-emerald-50 px-4 py-3 text-sm text-emerald-900">
          Application {created.name} was created.
        </p>
      ) : null}

      {applications.length === 0 ? (
        <Card>
          <h2 className="text-base font-semibold">No applications yet</h2>
          <CardDescription>
            No applications are registered in this company yet. Register the legacy applications the company migrates from, then describe
            their tables in a data dictionary.
          </CardDescription>
        </Card>
      ) : (
        <Table aria-label="Applications">
          <TableHeader>
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead>Description</TableHead>
              <TableHead className="text-right">Dictionaries</TableHead>
              <TableHead className="text-right">Projects</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {applications.map((a) => (
              <TableRow key={a.id} aria-current={a.id === created?.id ? "true" : undefined} className={a.id === created?.id ? "bg-emerald-50/60" : undefined}>
                <TableCell className="font-medium">{a.name}</TableCell>
                <TableCell className="text-muted-foreground">{a.description}</TableCell>
                <TableCell className="text-right tabular-nums">{a.dictionaryCount}</TableCell>
                <TableCell className="text-right tabular-nums">{a.projectCount}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}

export function meta() {
  return [{ title: "Applications · Data Transformation" }];
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
