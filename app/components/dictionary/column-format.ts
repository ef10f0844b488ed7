export { formatColumnType } from "../../../contracts/values/dictionary";

export const yesNo = (value: boolean) => (value ? "Yes" : "No");

/** A timestamp the same on the server and in the browser (no local time zone, no hydration mismatch). */
export function formatTimestamp(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
