import { Plus } from "lucide-react";
import { Link } from "react-router";
import { formatTimestamp } from "~/components/dictionary/column-format";
import { buttonVariants } from "~/components/ui/button";
import { Card, CardDescription } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { useCompanyHref } from "~/lib/company-href";
import { shellContext } from "~/lib/guards.server";
import { listDictionaries } from "./api.server";
import { masterDataAccess } from "./dictionary.server";
import { CREATE_DICTIONARY_PATH, dictionaryPaths } from "./paths";
import type { Route } from "./+types/list";

export async function loader({ context }: Route.LoaderArgs) {
  const shell = context.get(shellContext);
  const dictionaries = shell.company ? await listDictionaries(shell, shell.company.id) : [];
  return { dictionaries, companyName: shell.company?.name ?? null, canWrite: masterDataAccess(shell).canWrite };
}

export default function DataDictionaries({ loaderData }: Route.ComponentProps) {
  const { dictionaries, companyName, canWrite } = loaderData;
  const href = useCompanyHref();
  return (
    <section aria-labelledby="page-title" className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 id="page-title" className="text-2xl font-semibold tracking-tight">
            Data Dictionary
          </h1>
          {companyName ? <p className="mt-1 text-sm text-muted-foreground">{companyName}</p> : null}
        </div>
        {canWrite ? (
          <Link to={href(CREATE_DICTIONARY_PATH)} className={buttonVariants()}>
            <Plus aria-hidden="true" />
            Create data dictionary
          </Link>
        ) : null}
      </div>

      {dictionaries.length === 0 ? (
        <Card>
          <h2 className="text-base font-semibold">No data dictionaries yet</h2>
          <CardDescription>
            There are no master data dictionaries in this company yet. A dictionary describes the tables and columns of one application;
            projects of that application start from it.
          </CardDescription>
        </Card>
      ) : (
        <Table aria-label="Data dictionaries">
          <TableHeader>
            <TableRow>
              <TableHead>Application</TableHead>
              <TableHead>Name</TableHead>
              <TableHead className="text-right">Tables</TableHead>
              <TableHead className="text-right">Columns</TableHead>
              <TableHead>Updated</TableHead>
              {canWrite ? (
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              ) : null}
            </TableRow>
          </TableHeader>
          <TableBody>
            {dictionaries.map((d) => (
              <TableRow key={d.id}>
                <TableCell>{d.applicationName}</TableCell>
                <TableCell className="font-medium">
                  <Link to={href(dictionaryPaths.definition("view", d.id))} className="text-brand hover:underline">
                    {d.name}
                  </Link>
                </TableCell>
                <TableCell className="text-right tabular-nums">{d.tableCount}</TableCell>
                <TableCell className="text-right tabular-nums">{d.columnCount}</TableCell>
                <TableCell className="whitespace-nowrap text-muted-foreground">
                  <time dateTime={d.updatedAt}>{formatTimestamp(d.updatedAt)}</time>
                </TableCell>
                {canWrite ? (
                  <TableCell className="text-right">
                    <Link
                      to={href(dictionaryPaths.definition("edit", d.id))}
                      className={buttonVariants({ variant: "ghost", size: "sm" })}
                      aria-label={`Edit ${d.name}`}
                    >
                      Edit
                    </Link>
                  </TableCell>
                ) : null}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}

export function meta() {
  return [{ title: "Data Dictionary · Data Transformation" }];
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
