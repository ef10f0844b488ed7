import type * as React from "react";
import { cn } from "~/lib/utils";

// cn() only joins classes: what a caller may change (border tone, padding, title size) is a variant.
const TONES = { default: "border-border", destructive: "border-destructive/40", success: "border-emerald-600/50" };
const SIZES = { default: "p-6", sm: "p-4" };

export function Card({
  className,
  tone = "default",
  size = "default",
  ...props
}: React.ComponentProps<"section"> & { tone?: keyof typeof TONES; size?: keyof typeof SIZES }) {
  return <section className={cn("rounded-lg border bg-white shadow-sm", TONES[tone], SIZES[size], className)} {...props} />;
}

/** An h2 inside a page; `as="h1"` where the card is the whole page (sign-in failed, permission denied, errors). */
export function CardTitle({
  className,
  as: Heading = "h2",
  size = "default",
  ...props
}: React.ComponentProps<"h2"> & { as?: "h1" | "h2" | "h3"; size?: "default" | "sm" }) {
  return <Heading className={cn(size === "sm" ? "text-base" : "text-xl", "font-semibold tracking-tight", className)} {...props} />;
}

export function CardDescription({ className, ...props }: React.ComponentProps<"p">) {
  return <p className={cn("mt-2 text-sm text-muted-foreground", className)} {...props} />;
}
