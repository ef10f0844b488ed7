/**
 * The line diff between two versions of a script (jsdiff's Myers diff by line): every line of both
 * texts in order, marked same, added or removed, with its number in the older and the newer text.
 */
import { diffLines } from "diff";
import type { ScriptDiff } from "../../../../contracts/templates.ts";

export function lineDiff(from: { version: number; sql: string }, to: { version: number; sql: string }): ScriptDiff {
  const lines: ScriptDiff["lines"] = [];
  let oldLine = 1;
  let newLine = 1;
  let added = 0;
  let removed = 0;
  // Every text ends with a newline here, so a last line is not "changed" for gaining one.
  const ended = (text: string) => (text === "" || text.endsWith("\n") ? text : `${text}\n`);
  for (const part of diffLines(ended(from.sql), ended(to.sql))) {
    if (!part.value) continue;
    const texts = part.value.slice(0, -1).split("\n");
    for (const text of texts) {
      if (part.added) {
        lines.push({ kind: "added", text, oldLine: null, newLine: newLine++ });
        added++;
      } else if (part.removed) {
        lines.push({ kind: "removed", text, oldLine: oldLine++, newLine: null });
        removed++;
      } else lines.push({ kind: "same", text, oldLine: oldLine++, newLine: newLine++ });
    }
  }
  return { from: from.version, to: to.version, added, removed, lines };
}
