export { formatColumnType } from "../../../contracts/values/column-type";

export const yesNo = (value: boolean) => (value ? "Yes" : "No");

// The one timestamp format, kept where the dictionary's pages have always imported it from.
export { formatTimestamp } from "../projects/format";
