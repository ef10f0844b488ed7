import { formatTimestamp } from "~/components/dictionary/column-format";
import { PageSizeForm } from "~/components/ui/list-search-form";
import { Pagination } from "~/components/ui/pagination";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { useCompanyHref } from "~/lib/company-href";
import { PAGING_KEYS, pagingParams } from "~/lib/list-search";
import { readPaging } from "~/lib/list-search.server";
import { useTemplatePaths } from "./paths";
import { scriptOf, templateOf } from "./templates.server";
import type { Route } from "./+types/script-lock-audit";

const STATE_WORDS = { Locked: "Locked", Unlocked: "Unlocked", ForceUnlocked: "Force unlocked" } as const;

/** Who locked, unlocked or forced the script's lock, when, and why (a forced unlock's reason). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const [script, { api }] = await Promise.all([scriptOf(context), templateOf(context)]);
  const { page, pageSize } = readPaging(new URL(request.url).searchParams, ["at"], "at");
  const events = await api.lockEvents(script.id, { page, pageSize });
  return { script: { id: script.id, levelId: script.levelId, templateId: script.templateId }, events };
}

export default function ScriptLockAudit({ loaderData }: Route.ComponentProps) {
  const { script, events } = loaderData;
  const href = useCompanyHref();
  const paths = useTemplatePaths();
  if (events.total === 0) return <p className="text-sm text-muted-foreground">Nobody has locked this script yet.</p>;
  const here = paths.script(script.templateId, script.levelId, script.id, "lock-audit");
  return (
    <div>
      <PageSizeForm action={here} label="Lock audit page size" pageSize={events.pageSize} pageSizeId="lock-audit-page-size" className="mb-4" />
      <Table aria-label="Lock audit">
        <TableHeader>
          <TableRow>
            <TableHead>When</TableHead>
            <TableHead>Change</TableHead>
            <TableHead>By</TableHead>
            <TableHead>Reason</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {events.items.map((e) => (
            <TableRow key={e.id}>
              <TableCell className="whitespace-nowrap">
                <time dateTime={e.at}>{formatTimestamp(e.at)}</time>
              </TableCell>
              <TableCell>{STATE_WORDS[e.state]}</TableCell>
              <TableCell>{e.userName ?? e.userId}</TableCell>
              <TableCell>{e.reason ?? ""}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Pagination
        page={events.page}
        pageSize={events.pageSize}
        total={events.total}
        noun={["lock change", "lock changes"]}
        href={(page) => href(here, pagingParams(PAGING_KEYS, { page, pageSize: events.pageSize }))}
      />
    </div>
  );
}

export const handle = { breadcrumb: "Lock audit" };

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
