/**
 * A timestamp the same on the server and in the browser (no locale or time-zone dependence, so the
 * hydrated page matches the server's HTML): "2025-03-04 14:05 UTC".
 */
export function formatTimestamp(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** "1,234": counts of rows, the same on the server and in the browser; nothing for a count not known. */
export function formatCount(n: number | null | undefined): string {
  return n == null ? "" : n.toLocaleString("en-US");
}

/** "1 row", "1,234 rows": a count with its noun in the number it needs (a plural is the noun + "s" unless given). */
export function formatCountOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${formatCount(n)} ${n === 1 ? noun : plural}`;
}

/** "56.2 MB": a file's size or the part of it read, in the unit that keeps it readable. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** "2 h 5 min", "3 min 20 s", "45 s": how long something took or will take. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ""}`;
  const minutes = Math.floor((s % 3600) / 60);
  return `${Math.floor(s / 3600)} h${minutes ? ` ${minutes} min` : ""}`;
}
