import { z } from "zod";
import { columnChangeSchema, type BulkUploadMode, type ColumnInput, type ReviewTable, type Table } from "../../../../contracts/dictionary.ts";
import type { DesiredTable } from "../repositories/dictionary-tables.ts";

type ColumnChange = z.infer<typeof columnChangeSchema>;
type ColumnDefinition = NonNullable<ColumnChange["after"]>;

const COMPARED_FIELDS = ["name", "type", "length", "precision", "scale", "nullable", "isKey", "description"] as const;

/**
 * What applying the file would do, per table of the file (in its order): a new table is "added";
 * an existing one (same name, any case) is "changed" when its columns would be added, changed or
 * removed, else "unchanged". Tables the file does not name are left alone and not listed: a bulk
 * update never deletes a table.
 */
export function diffTables(desired: readonly DesiredTable[], current: readonly Table[]): ReviewTable[] {
  const currentByKey = new Map(current.map((t) => [t.name.toLowerCase(), t]));
  return desired.map((table) => {
    const existing = currentByKey.get(table.name.toLowerCase());
    if (!existing) {
      const added = table.columns.map((c) => ({ name: c.name, before: null, after: definition(c), fields: [] }));
      return { name: table.name, status: "added", added, changed: [], removed: [], unchanged: 0 };
    }
    return { name: existing.name, ...diffColumns(table.columns, existing.columns) };
  });
}

/**
 * The tables an upload asks for, by mode. replace: the file's tables as they are (each is its full
 * definition). merge ("Only add and change"): an existing table keeps the columns the file does not
 * list, in their places, with the file's definition for those it does list and its new columns after
 * them; so its diff proposes no removal and no move, and applying writes exactly that.
 */
export function desiredTables(fileTables: readonly DesiredTable[], current: readonly Table[], mode: BulkUploadMode): DesiredTable[] {
  if (mode === "replace") return [...fileTables];
  const currentByKey = new Map(current.map((t) => [t.name.toLowerCase(), t]));
  return fileTables.map((table) => {
    const existing = currentByKey.get(table.name.toLowerCase());
    if (!existing) return table;
    const fromFile = new Map(table.columns.map((c) => [c.name.toLowerCase(), c]));
    const have = [...existing.columns].sort((a, b) => a.order - b.order);
    const haveKeys = new Set(have.map((c) => c.name.toLowerCase()));
    const kept = have.map((c) => fromFile.get(c.name.toLowerCase()) ?? columnInput(c));
    const added = table.columns.filter((c) => !haveKeys.has(c.name.toLowerCase()));
    return { name: table.name, columns: [...kept, ...added] };
  });
}

function columnInput(c: Table["columns"][number]): ColumnInput {
  const { id: _id, order: _order, ...input } = c;
  return input;
}

function diffColumns(wanted: readonly ColumnInput[], have: readonly Table["columns"][number][]) {
  const haveByKey = new Map(have.map((c) => [c.name.toLowerCase(), c]));
  const wantedKeys = new Set(wanted.map((c) => c.name.toLowerCase()));
  const movedKeys = reordered(
    wanted.map((c) => c.name.toLowerCase()),
    [...have].sort((a, b) => a.order - b.order).map((c) => c.name.toLowerCase()),
  );

  const added: ColumnChange[] = [];
  const changed: ColumnChange[] = [];
  let unchanged = 0;
  for (const column of wanted) {
    const key = column.name.toLowerCase();
    const before = haveByKey.get(key);
    if (!before) {
      added.push({ name: column.name, before: null, after: definition(column), fields: [] });
      continue;
    }
    const after = definition(column);
    const fields: string[] = COMPARED_FIELDS.filter((f) => definition(before)[f] !== after[f]);
    if (movedKeys.has(key)) fields.push("order");
    if (fields.length > 0) changed.push({ name: column.name, before: definition(before), after, fields });
    else unchanged += 1;
  }
  const removed = have
    .filter((c) => !wantedKeys.has(c.name.toLowerCase()))
    .map((c) => ({ name: c.name, before: definition(c), after: null, fields: [] }));
  const status: ReviewTable["status"] = added.length + changed.length + removed.length > 0 ? "changed" : "unchanged";
  return { status, added, changed, removed, unchanged };
}

/**
 * The columns kept on both sides whose place among the kept ones differs: added and removed
 * columns shift the others without counting as a move.
 */
function reordered(wantedKeys: string[], haveKeys: string[]): Set<string> {
  const wanted = new Set(wantedKeys);
  const have = new Set(haveKeys);
  const keptWanted = wantedKeys.filter((k) => have.has(k));
  const keptHave = haveKeys.filter((k) => wanted.has(k));
  return new Set(keptWanted.filter((k, i) => keptHave[i] !== k));
}

function definition(c: ColumnInput | Table["columns"][number]): ColumnDefinition {
  return {
    name: c.name,
    type: c.type,
    length: c.length ?? null,
    precision: c.precision ?? null,
    scale: c.scale ?? null,
    nullable: c.nullable,
    isKey: c.isKey,
    description: c.description ?? null,
  };
}

/** True when applying would change something (a table added or changed). */
export function reviewChangesSomething(tables: readonly ReviewTable[]) {
  return tables.some((t) => t.status !== "unchanged");
}
