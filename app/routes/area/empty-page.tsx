import { Card, CardDescription, CardTitle } from "~/components/ui/card";
import { shellOf } from "~/lib/guards.server";
import type { Route } from "./+types/empty-page";

/**
 * Area pages whose features arrive in later issues. Each says plainly that there is nothing yet;
 * none pretends to a feature that does not exist.
 */
const PAGES: Record<string, { title: string; empty: string }> = {
  "/additional-options/sql-credentials/users": { title: "SQL Credentials", empty: "No SQL credentials have been issued." },
  "/migration/master-templates": { title: "Master Templates", empty: "There are no migration master templates yet." },
  "/translations/mappings": { title: "Mappings", empty: "There are no translation mappings in this company yet." },
  "/translations/master-templates": { title: "Master Templates", empty: "There are no translation master templates yet." },
  "/onboarding/master-templates": { title: "Master Templates", empty: "There are no onboarding master templates yet." },
};

function pageFor(pathname: string) {
  return PAGES[pathname.replace(/\/+$/, "")];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const page = pageFor(new URL(request.url).pathname);
  if (!page) throw new Response("Not found", { status: 404 });
  return { ...page, companyName: (await shellOf(context)).company?.name ?? null };
}

export const handle = {
  breadcrumb: (match: { pathname: string }) => pageFor(match.pathname)?.title,
};

export default function EmptyPage({ loaderData }: Route.ComponentProps) {
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" className="text-2xl font-semibold tracking-tight">
        {loaderData.title}
      </h1>
      {loaderData.companyName ? <p className="mt-1 text-sm text-muted-foreground">{loaderData.companyName}</p> : null}
      <Card className="mt-6">
        <CardTitle size="sm">Nothing here yet</CardTitle>
        <CardDescription>{loaderData.empty}</CardDescription>
      </Card>
    </section>
  );
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: `${data?.title ?? "Page"} · Data Transformation` }];
}
