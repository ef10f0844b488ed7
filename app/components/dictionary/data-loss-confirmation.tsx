import { lazyWidget } from "~/lib/lazy-widget";

/**
 * What a write of a workspace's dictionary would delete from its databases (or, `valueMaps`, a mapping project's
 * value maps), the form as it was posted, and what else the user may do.
 */
export type DataLoss = { lines: string[]; resubmit: [string, string][]; instead: string; valueMaps?: boolean };

// Shown only after a save that was refused: loaded on demand (decision 029).
const DataLossCard = lazyWidget(() => import("./data-loss-card").then((m) => m.DataLossCard));

/**
 * The page's refusal of a dictionary save that deletes data from the databases (DataLossCard), at the
 * top of the page. `actionData`: the page's; nothing shows unless it carries a `dataLoss` (refusedWrite).
 */
export function DataLossConfirmation({ actionData, backUpHref }: { actionData: object | null | undefined; backUpHref: string }) {
  const dataLoss = actionData && "dataLoss" in actionData ? (actionData.dataLoss as DataLoss | null) : null;
  return dataLoss ? <DataLossCard dataLoss={dataLoss} backUpHref={backUpHref} /> : null;
}
