import { Fragment } from "react";
import type { ProcessFacts } from "../../../services/shared/product-facts";
import { formatDuration, formatTimestamp } from "~/components/projects/format";
import { Card } from "~/components/ui/card";
import { getClientPortalFacts, getProductDetails } from "~/lib/api/product.server";
import { serviceFailure } from "~/lib/forms.server";
import { afterGuard, callerOf, shellOf } from "~/lib/guards.server";
import { portalFacts } from "~/lib/process-facts.server";
import type { Route } from "./+types/product-info";

/** A service that does not answer is shown as such: this page is where an admin looks when something is down. */
const orUnreachable = <T,>(call: Promise<T>) =>
  call.catch((err: unknown) => {
    if (err instanceof Response || !serviceFailure(err)) throw err;
    return null;
  });

export async function loader({ context }: Route.LoaderArgs) {
  // Asked beside the shell's data; answered once the shell's guards passed.
  const as = callerOf(context);
  const [, [dataApi, clientPortal]] = await afterGuard(
    shellOf(context),
    Promise.all([orUnreachable(getProductDetails(as)), orUnreachable(getClientPortalFacts(as))]),
  );
  return { portal: portalFacts(), dataApi, clientPortal };
}

export const handle = { breadcrumb: "Product Info" };

type Facts = Pick<ProcessFacts, "version" | "build" | "startedAt" | "uptimeSeconds"> & { controlPlane: string };

function ProcessCard({ title, facts, databaseLabel, children }: { title: string; facts: Facts | null; databaseLabel: string; children?: React.ReactNode }) {
  const id = `${title.toLowerCase().replaceAll(" ", "-")}-title`;
  return (
    <Card aria-labelledby={id}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {!facts ? (
        <p className="mt-2 text-sm text-destructive">Not reachable: its details could not be read.</p>
      ) : (
        <dl className="mt-3 label-values gap-x-6 gap-y-2 text-sm">
          <dt className="text-muted-foreground">Version</dt>
          <dd>{facts.version}</dd>
          <dt className="text-muted-foreground">Built</dt>
          <dd>{facts.build ? formatTimestamp(facts.build.builtAt) : "Not built (running from source)"}</dd>
          <dt className="text-muted-foreground">Commit</dt>
          <dd>
            <code>{facts.build?.commit ?? "unknown"}</code>
          </dd>
          <dt className="text-muted-foreground">Started</dt>
          <dd>{formatTimestamp(facts.startedAt)}</dd>
          <dt className="text-muted-foreground">Uptime</dt>
          <dd>{formatDuration(facts.uptimeSeconds)}</dd>
          <dt className="text-muted-foreground">{databaseLabel}</dt>
          <dd>{facts.controlPlane}</dd>
          {children}
        </dl>
      )}
    </Card>
  );
}

export default function ProductInfo({ loaderData }: Route.ComponentProps) {
  const { portal, dataApi, clientPortal } = loaderData;
  return (
    <section aria-labelledby="page-title" className="flex flex-col gap-6">
      <h1 id="page-title" className="text-2xl font-semibold tracking-tight">
        Product Info
      </h1>
      <div className="grid gap-6 lg:grid-cols-3">
        <ProcessCard title="Portal" facts={portal} databaseLabel="Sessions database" />
        <ProcessCard title="Data API" facts={dataApi} databaseLabel="Control plane database">
          {dataApi ? (
            <>
              <dt className="text-muted-foreground">Cloud target</dt>
              <dd>{dataApi.cloudTarget}</dd>
              {dataApi.databaseServers.map((s) => (
                <Fragment key={s.id}>
                  <dt className="text-muted-foreground">PostgreSQL at {s.id}</dt>
                  <dd>{s.version ?? `not reachable: ${s.error}`}</dd>
                </Fragment>
              ))}
            </>
          ) : null}
        </ProcessCard>
        <ProcessCard title="Client portal" facts={clientPortal} databaseLabel="Database" />
      </div>
    </section>
  );
}
