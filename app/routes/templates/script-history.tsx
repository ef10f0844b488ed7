import { data, Form, Link } from "react-router";
import { RefusalAlert } from "~/components/forms/refusal-alert";
import { formatTimestamp } from "~/components/dictionary/column-format";
import { LineDiff } from "~/components/templates/line-diff";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { KeptFields, PageSizeForm } from "~/components/ui/list-search-form";
import { Pagination } from "~/components/ui/pagination";
import { SelectFilter } from "~/components/ui/select-filter";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { useCompanyHref } from "~/lib/company-href";
import { PAGING_KEYS, pagingParams } from "~/lib/list-search";
import { readPaging } from "~/lib/list-search.server";
import { useTemplatePaths } from "./paths";
import { scriptOf, templateOf } from "./templates.server";
import type { Route } from "./+types/script-history";

/** A version number of the URL (`from`, `to`) the script has, else null. */
const versionParam = (url: URL, key: string, newest: number) => {
  const n = Number(url.searchParams.get(key));
  return Number.isInteger(n) && n >= 1 && n <= newest ? n : null;
};

/**
 * Why the versions the URL asks to compare (`from`, `to`: a hand-made or old link) cannot be, in words, or null when
 * it asks for none or for two the script has: a number it does not have, or not a number, is named (at most 20 of
 * its characters), with the versions there are; one left out or empty, by asking for two.
 */
function refusedComparison(url: URL, newest: number, from: number | null, to: number | null): string | null {
  const asked = [url.searchParams.get("from"), url.searchParams.get("to")];
  if (asked.every((v) => v === null) || (from && to)) return null;
  const missing = [...new Set(asked.filter((v, i): v is string => Boolean(v) && [from, to][i] === null))].map((v) => `“${v.slice(0, 20)}”`);
  if (!missing.length) return "Choose two versions to compare.";
  const has = newest === 1 ? "it has only version 1" : `its versions are 1 to ${newest}`;
  return `${missing.length === 1 ? `There is no version ${missing[0]}` : `There are no versions ${missing.join(" and ")}`} of this script: ${has}. Choose two of them to compare.`;
}

/** The script's versions, newest first, and the line diff of any two (a GET form: works without JavaScript). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const [script, { api }] = await Promise.all([scriptOf(context), templateOf(context)]);
  const { page, pageSize } = readPaging(url.searchParams, ["version"], "version");
  const from = versionParam(url, "from", script.version);
  const to = versionParam(url, "to", script.version);
  const refused = refusedComparison(url, script.version, from, to);
  const [versions, diff] = await Promise.all([api.versions(script.id, { page, pageSize }), from && to ? api.diff(script.id, from, to) : Promise.resolve(null)]);
  // Refused: a 400, the page usable as it is without a comparison (its versions listed, the form offering them).
  return data(
    { script: { id: script.id, levelId: script.levelId, templateId: script.templateId, version: script.version }, versions, diff, from, to, refused },
    { status: refused ? 400 : 200 },
  );
}

export default function ScriptHistory({ loaderData }: Route.ComponentProps) {
  const { script, versions, diff, from, to, refused } = loaderData;
  const href = useCompanyHref();
  const paths = useTemplatePaths();
  const here = paths.script(script.templateId, script.levelId, script.id, "history");
  const versionsPlace = pagingParams(PAGING_KEYS, versions);
  const numbers = Array.from({ length: script.version }, (_, i) => String(script.version - i)).map((n) => [n, n] as const);
  return (
    <div className="flex flex-col gap-4">
      <Card>
        <h3 className="text-base font-semibold">Compare two versions</h3>
        {refused ? (
          <RefusalAlert refusal={refused} className="mt-3">
            {refused}
          </RefusalAlert>
        ) : null}
        {/* Comparing keeps the versions list where it is: its page and page size. */}
        <Form method="get" action={here} aria-label="Compare two versions" className="mt-3 flex flex-wrap items-end gap-3">
          <KeptFields keep={versionsPlace} />
          <SelectFilter id="script-version-from" label="From version" name="from" value={String(from ?? Math.max(1, script.version - 1))} options={numbers} />
          <SelectFilter id="script-version-to" label="To version" name="to" value={String(to ?? script.version)} options={numbers} />
          <Button type="submit" variant="outline">
            Compare
          </Button>
        </Form>
        {diff ? (
          <div className="mt-4">
            <LineDiff diff={diff} label={`Changes between version ${diff.from} and version ${diff.to}`} />
          </div>
        ) : null}
      </Card>
      <div>
        {/* The two versions compared stay compared while the list is paged. */}
        <PageSizeForm
          action={here}
          label="Versions page size"
          pageSize={versions.pageSize}
          pageSizeId="versions-page-size"
          keep={{ from: from ?? undefined, to: to ?? undefined }}
          className="mb-4"
        />
        <Table aria-label="Versions">
          <TableHeader>
            <TableRow>
              <TableHead>Version</TableHead>
              <TableHead>Comment</TableHead>
              <TableHead>Author</TableHead>
              <TableHead>Saved</TableHead>
              <TableHead className="text-right">Lines</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {versions.items.map((v) => (
              <TableRow key={v.version}>
                <TableCell>
                  <Link to={href(paths.version(script.templateId, script.levelId, script.id, v.version))} className="text-brand hover:underline">
                    Version {v.version}
                  </Link>
                  {v.version === script.version ? <span className="ml-2 text-xs text-muted-foreground">(newest)</span> : null}
                </TableCell>
                <TableCell>{v.comment ?? ""}</TableCell>
                <TableCell>{v.authorName ?? v.author}</TableCell>
                <TableCell className="whitespace-nowrap text-muted-foreground">
                  <time dateTime={v.createdAt}>{formatTimestamp(v.createdAt)}</time>
                </TableCell>
                <TableCell className="text-right tabular-nums">{v.lines}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <Pagination
          page={versions.page}
          pageSize={versions.pageSize}
          total={versions.total}
          noun={["version", "versions"]}
          href={(page) => href(here, { from: from ?? undefined, to: to ?? undefined, ...pagingParams(PAGING_KEYS, { page, pageSize: versions.pageSize }) })}
        />
      </div>
    </div>
  );
}

export const handle = { breadcrumb: "History" };

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
