import type { ReviewHeader } from "../../../contracts/dictionary";
import { formatCountOf } from "~/components/projects/format";

/**
 * What a dictionary write did, as its flash message says it (master and project dictionaries alike):
 * `return redirectWithFlash(companyHref(…), dictionaryMessages.tableSaved(name, isNew))`.
 */
export const dictionaryMessages = {
  tableSaved: (name: string, isNew: boolean) => `Table ${name} ${isNew ? "added" : "saved"}.`,
  tableDeleted: (name: string) => `Table ${name} deleted.`,
  uploaded: (fileName: string) => `File ${fileName} uploaded for review.`,
  reviewApplied: (review: Pick<ReviewHeader, "addedTableCount" | "changingTableCount">) => {
    const added = review.addedTableCount;
    const changed = review.changingTableCount - review.addedTableCount;
    const parts = [...(added ? [`${formatCountOf(added, "table")} added`] : []), ...(changed || !added ? [`${formatCountOf(changed, "table")} changed`] : [])];
    return `Review applied: ${parts.join(", ")}.`;
  },
  reviewDiscarded: (fileName?: string) => `Upload${fileName ? ` of ${fileName}` : ""} discarded. The dictionary has not changed.`,
};
