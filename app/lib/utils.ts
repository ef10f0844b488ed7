import { clsx, type ClassValue } from "clsx";

/**
 * Joins class names. Only joins: it does not resolve conflicting Tailwind utilities (tailwind-merge
 * would cost every page 9 KiB of JavaScript), so a component's base classes and the classes a caller
 * adds must never set the same property; components offer variants for what callers change.
 */
export function cn(...inputs: ClassValue[]) {
  return clsx(inputs);
}
