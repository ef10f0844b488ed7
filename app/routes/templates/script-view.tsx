import { Card } from "~/components/ui/card";
import { scriptOf } from "./templates.server";
import type { Route } from "./+types/script-view";

/** A script read-only (script/view/{id}): for Archived templates and readers. */
export async function loader({ context }: Route.LoaderArgs) {
  const script = await scriptOf(context);
  return { sql: script.sql, version: script.version };
}

export default function ScriptView({ loaderData }: Route.ComponentProps) {
  return (
    <Card>
      <h3 className="text-base font-semibold">SQL (version {loaderData.version})</h3>
      <pre aria-label="SQL" className="mt-3 overflow-x-auto rounded-md bg-muted/40 p-3 font-mono text-[13px] leading-5">
        {loaderData.sql}
      </pre>
    </Card>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
