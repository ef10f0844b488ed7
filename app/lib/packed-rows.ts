/**
 * A list's rows for the loader's data as arrays under one list of keys. That data is serialized into
 * the page (turbo-stream), which writes an object's keys again for every row: 25 rows of 7 fields
 * spent ~1.6 KB of a list page on keys alone. The component unpacks them to the same objects.
 * Every row must have the keys of the first (rows of one list come from one function).
 */
export type PackedRows<T> = { keys: string[]; rows: unknown[][]; /** types only: never sent */ row?: T };

export function packRows<T extends Record<string, unknown>>(items: readonly T[]): PackedRows<T> {
  const keys = items[0] ? Object.keys(items[0]) : [];
  return { keys, rows: items.map((item) => keys.map((key) => item[key])) };
}

export function unpackRows<T>({ keys, rows }: PackedRows<T>): T[] {
  return rows.map((values) => Object.fromEntries(keys.map((key, i) => [key, values[i]])) as T);
}
