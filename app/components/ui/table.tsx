import type * as React from "react";
import { cn } from "~/lib/utils";

/**
 * A data table in the shadcn style: plain HTML table elements, scrolling sideways in its own box when
 * narrow. The box is `relative` so that what a header hides visually (sr-only text, positioned
 * absolutely) stays inside it: otherwise it was placed against the page and widened the page itself.
 */
export function Table({ className, ...props }: React.ComponentProps<"table">) {
  // The box is a stop of the Tab order, so a keyboard user can scroll a table wider than the screen with the arrow keys
  // even when no cell holds a link or a button (WCAG 2.1.1, axe's scrollable-region-focusable; a phone showed it). It is
  // a group named as its table, so what takes the focus says what it is; without JavaScript too, as a script measuring
  // the overflow would not.
  const label = props["aria-label"];
  return (
    <div
      tabIndex={0}
      role={label ? "group" : undefined}
      aria-label={label}
      className="relative w-full overflow-x-auto rounded-lg border border-border bg-white"
    >
      {/* text-left here, not on each header cell, so a cell's own text-right wins (cn() only joins). */}
      <table className={cn("cells w-full caption-bottom text-left text-sm", className)} {...props} />
    </div>
  );
}

export function TableHeader({ className, ...props }: React.ComponentProps<"thead">) {
  return <thead className={cn("border-b border-border bg-muted/60", className)} {...props} />;
}

export function TableBody({ className, ...props }: React.ComponentProps<"tbody">) {
  return <tbody className={cn("[&_tr:last-child]:border-0", className)} {...props} />;
}

export function TableRow({ className, ...props }: React.ComponentProps<"tr">) {
  return <tr className={cn("border-b border-border", className)} {...props} />;
}

/** A header cell's classes (SortableHeader uses them too, for a sortable column of a Table). */
export const tableHeadClassName = "h-10 px-3 align-middle font-medium whitespace-nowrap text-muted-foreground";

export function TableHead({ className, ...props }: React.ComponentProps<"th">) {
  return <th scope="col" className={cn(tableHeadClassName, className)} {...props} />;
}

/** Its padding comes from the table's `cells` class (app.css): a list of 25 rows says it once. */
export function TableCell({ className, ...props }: React.ComponentProps<"td">) {
  return <td className={className} {...props} />;
}

export function TableCaption({ className, ...props }: React.ComponentProps<"caption">) {
  return <caption className={cn("mt-2 text-sm text-muted-foreground", className)} {...props} />;
}
