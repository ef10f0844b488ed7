import { Link } from "react-router";
import { LineDiff } from "~/components/templates/line-diff";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { useCompanyHref } from "~/lib/company-href";
import { useTemplatePaths } from "./paths";
import { templateOf, workspaceOwnerOf, workspaceTemplates } from "./templates.server";
import type { MasterComparison } from "../../../contracts/templates";
import type { Route } from "./+types/compare-master";

type Compared = MasterComparison["scripts"][number];

const STATE_WORDS = { same: "Same", onlyInProject: "Only here", onlyInMaster: "Only in the master" } as const;
const CHANGED_WORDS = { here: "Changed here", master: "Changed in the master", both: "Changed here and in the master" } as const;

/** "Differs" when the text the copy started from does not tell which side changed it. */
const stateWords = (s: Compared) => (s.state === "changed" ? (s.changedIn ? CHANGED_WORDS[s.changedIn] : "Differs") : STATE_WORDS[s.state]);

/** A workspace's copy beside its master template: each script the same, changed (with its line diff), or in one only. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const owner = workspaceOwnerOf(request);
  const { template } = await templateOf(context);
  const comparison = await workspaceTemplates(context, owner).compareMaster(template.id);
  return { templateId: template.id, comparison };
}

export const handle = { breadcrumb: "Compare with master" };

export default function CompareWithMaster({ loaderData }: Route.ComponentProps) {
  const { templateId, comparison } = loaderData;
  const href = useCompanyHref();
  const paths = useTemplatePaths();
  const changed = comparison.scripts.filter((s) => s.diff);
  return (
    <div className="flex flex-col gap-4">
      <Card>
        <h2 className="text-lg font-semibold">Compare with master {comparison.masterName}</h2>
        <p className="mt-1 text-sm text-muted-foreground">
          Copied from version {comparison.copiedVersion ?? "?"} of the master; the master is at version {comparison.masterVersion} now.
        </p>
        <Table aria-label="Scripts compared with the master" className="mt-3">
          <TableHeader>
            <TableRow>
              <TableHead>Level</TableHead>
              <TableHead>Script</TableHead>
              <TableHead>Compared with the master</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {comparison.scripts.map((s) => (
              <TableRow key={`${s.level}/${s.name}`}>
                <TableCell>{s.level}</TableCell>
                <TableCell className="font-medium">{s.name}</TableCell>
                <TableCell>{stateWords(s)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Card>
      {changed.map((s) => (
        <Card key={`${s.level}/${s.name}`}>
          <h3 className="mb-2 text-base font-semibold">
            {s.level} / {s.name}
          </h3>
          <LineDiff diff={s.diff!} label={`Changes of ${s.name} from the master to this copy`} from="the master" to="this copy" />
        </Card>
      ))}
      <p>
        <Link to={href(paths.edit(templateId))} className={buttonVariants({ variant: "outline" })}>
          Back to the template
        </Link>
      </p>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
