import type * as React from "react";
import { cn } from "~/lib/utils";

const VARIANTS = {
  default: "bg-brand text-brand-foreground hover:bg-brand/90",
  outline: "border border-border bg-white hover:bg-muted",
  ghost: "hover:bg-muted",
  link: "text-brand underline-offset-4 hover:underline",
  destructive: "bg-destructive text-white hover:bg-destructive/90",
};

const SIZES = {
  default: "h-9 px-4 py-2",
  sm: "h-8 px-3",
  icon: "size-9",
};

export type ButtonVariants = { variant?: keyof typeof VARIANTS; size?: keyof typeof SIZES };

/**
 * A button's classes: .btn (app.css), the base classes once in the stylesheet instead of on every
 * button, then its variant's and its size's. Two lookups rather than class-variance-authority, which
 * weighed 0.4 KiB gzip on every page for the same strings.
 */
export const buttonVariants = ({ variant = "default", size = "default" }: ButtonVariants = {}): string => `btn ${VARIANTS[variant]} ${SIZES[size]}`;

/** A link that looks like a button takes `buttonVariants()` as its className (no asChild: Radix's Slot is not worth its bytes). */
export type ButtonProps = React.ComponentProps<"button"> & ButtonVariants;

export function Button({ className, variant, size, ...props }: ButtonProps) {
  return <button className={cn(buttonVariants({ variant, size }), className)} {...props} />;
}
