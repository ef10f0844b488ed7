import { Card } from "~/components/ui/card";
import { getProductInfo } from "~/lib/api/product.server";
import { afterGuard, callerOf, shellOf } from "~/lib/guards.server";
import packageJson from "../../../package.json";
import type { Route } from "./+types/product-info";

export async function loader({ context }: Route.LoaderArgs) {
  // Asked beside the shell's data; answered once the shell's guards passed.
  const [, dataApi] = await afterGuard(shellOf(context), getProductInfo(callerOf(context)));
  return { portalVersion: packageJson.version, dataApiVersion: dataApi.version };
}

export const handle = { breadcrumb: "Product Info" };

export default function ProductInfo({ loaderData }: Route.ComponentProps) {
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" className="text-2xl font-semibold tracking-tight">
        Product Info
      </h1>
      <Card className="mt-6 max-w-md">
        <dl className="grid grid-cols-2 gap-y-2 text-sm">
          <dt className="text-muted-foreground">Portal version</dt>
          <dd>{loaderData.portalVersion}</dd>
          <dt className="text-muted-foreground">Data API version</dt>
          <dd>{loaderData.dataApiVersion}</dd>
        </dl>
      </Card>
    </section>
  );
}

export function meta() {
  return [{ title: "Product Info · Data Transformation" }];
}
