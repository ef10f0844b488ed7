import type * as React from "react";
import { cn } from "~/lib/utils";

/** An error or notice the user must read; `role="alert"` so assistive technology announces it. */
export function Alert({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div
      role="alert"
      className={cn("rounded-md border border-destructive/40 bg-destructive/5 px-4 py-3 text-sm text-destructive", className)}
      {...props}
    />
  );
}
