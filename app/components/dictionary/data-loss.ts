/**
 * What a write of a workspace's dictionary would delete from its databases (or, `valueMaps`, a mapping project's
 * value maps), the form as it was posted, and what else the user may do.
 */
export type DataLoss = { lines: string[]; resubmit: [string, string][]; instead: string; valueMaps?: boolean };

/**
 * What a page's refused write would delete (refusedWrite's `dataLoss`), or null. Its own module, declaring no widget:
 * the Delete table card, itself loaded on demand, reads it too (a widget's module imports no other widget's).
 */
export function dataLossOf(actionData: object | null | undefined): DataLoss | null {
  return actionData && "dataLoss" in actionData ? (actionData.dataLoss as DataLoss | null) : null;
}
