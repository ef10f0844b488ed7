import type * as React from "react";
import { cn } from "~/lib/utils";
import type { IconName } from "./icon-names";
import sprite from "./icons.svg?url";

export type { IconName } from "./icon-names";

/**
 * A Lucide icon drawn from the sprite (icons.svg, a cached file): the page holds a short <use>
 * reference instead of the drawing. The `icon` class (app.css) gives Lucide's stroke and 24 px size;
 * a size class (`size-4`) overrides the size. Decorative unless given a label.
 */
export function Icon({ name, className, ...props }: { name: IconName } & React.ComponentProps<"svg">) {
  return (
    <svg aria-hidden="true" {...props} className={cn("icon", className)}>
      <use href={`${sprite}#${name}`} />
    </svg>
  );
}
