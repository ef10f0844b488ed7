import type { ScriptDiff } from "../../../contracts/templates";
import { capitalised } from "../../../contracts/values/common";
import { cn } from "~/lib/utils";

const MARK = { same: " ", added: "+", removed: "−" } as const;
const ROW = { same: "", added: "bg-emerald-50 text-emerald-900", removed: "bg-red-50 text-red-900" } as const;
const SPOKEN = { same: "", added: "Added: ", removed: "Removed: " } as const;

/** A line diff between two versions: each line with its numbers in the older and newer text, added and removed lines marked (not by colour alone). */
export function LineDiff({
  diff,
  label,
  from = `version ${diff.from}`,
  to = `version ${diff.to}`,
}: {
  diff: ScriptDiff;
  label: string;
  from?: string;
  to?: string;
}) {
  return (
    <div>
      <p className="mb-2 text-sm text-muted-foreground">
        {capitalised(from)} → {to}: {diff.added} {diff.added === 1 ? "line" : "lines"} added, {diff.removed} {diff.removed === 1 ? "line" : "lines"} removed.
      </p>
      {/* relative: the visually hidden words stay in the scrolling box (see Table). */}
      <div className="relative overflow-x-auto rounded-md border border-border">
        <table aria-label={label} className="w-full border-collapse font-mono text-[13px] leading-5">
          <thead className="sr-only">
            <tr>
              <th scope="col">Line in {from}</th>
              <th scope="col">Line in {to}</th>
              <th scope="col">Change</th>
              <th scope="col">Text</th>
            </tr>
          </thead>
          <tbody>
            {diff.lines.map((line, i) => (
              <tr key={i} className={cn(ROW[line.kind])}>
                <td className="w-12 select-none px-2 text-right text-muted-foreground">{line.oldLine ?? ""}</td>
                <td className="w-12 select-none px-2 text-right text-muted-foreground">{line.newLine ?? ""}</td>
                <td className="w-6 select-none text-center" aria-hidden="true">
                  {MARK[line.kind]}
                </td>
                <td className="whitespace-pre px-2">
                  {SPOKEN[line.kind] ? <span className="sr-only">{SPOKEN[line.kind]}</span> : null}
                  {line.text}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
