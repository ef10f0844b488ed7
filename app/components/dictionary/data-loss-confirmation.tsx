import { lazyWidget } from "~/lib/lazy-widget";
import { dataLossOf } from "./data-loss";

// Shown only after a save that was refused: loaded on demand (decision 029).
const DataLossCard = lazyWidget(() => import("./data-loss-card").then((m) => m.DataLossCard));

/**
 * The page's refusal of a dictionary save that deletes data from the databases (DataLossCard), at the
 * top of the page. `actionData`: the page's; nothing shows unless it carries a `dataLoss` (refusedWrite).
 */
export function DataLossConfirmation({ actionData, backUpHref }: { actionData: object | null | undefined; backUpHref: string }) {
  const dataLoss = dataLossOf(actionData);
  return dataLoss ? <DataLossCard dataLoss={dataLoss} backUpHref={backUpHref} /> : null;
}
