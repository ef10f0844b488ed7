import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "./table";

function render(label?: string) {
  return renderToStaticMarkup(
    <Table aria-label={label}>
      <TableHeader>
        <TableRow>
          <TableHead>Column</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        <TableRow>
          <TableCell>A value with no link</TableCell>
        </TableRow>
      </TableBody>
    </Table>,
  );
}

describe("a table's box, which scrolls sideways when the table is wider than the screen", () => {
  // axe's scrollable-region-focusable (WCAG 2.1.1), seen at a phone's width on a data dictionary's tables, whose cells hold no link.
  it("is in the Tab order, so the keyboard can scroll it, and is a group named as its table", () => {
    const box = /^<div ([^>]*)><table [^>]*aria-label="Columns of Customers"/.exec(render("Columns of Customers"))?.[1] ?? "";
    expect(box).toContain('tabindex="0"');
    expect(box).toContain('role="group"');
    expect(box).toContain('aria-label="Columns of Customers"');
  });

  it("without a name for its table, is in the Tab order still, with no role nor name of its own", () => {
    const box = /^<div ([^>]*)><table/.exec(render())?.[1] ?? "";
    expect(box).toContain('tabindex="0"');
    expect(box).not.toContain("role=");
    expect(box).not.toContain("aria-label=");
  });
});
