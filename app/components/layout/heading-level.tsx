import { createContext, useContext, type ReactNode } from "react";

type HeadingTag = "h1" | "h2" | "h3";

const NextHeading = createContext<HeadingTag>("h1");

/**
 * What a layout shows below its own heading (a project's name over its tabs, a master dictionary's or
 * template's name): a page of one h1, so what is rendered there in the layout's place (an error page
 * caught below the layout) is headed one level down. `level`: the layout's own heading's.
 */
export function BelowHeading({ level, children }: { level: 1 | 2; children: ReactNode }) {
  return <NextHeading.Provider value={level === 1 ? "h2" : "h3"}>{children}</NextHeading.Provider>;
}

/** The heading a page of its own (the error page) takes where it is shown: h1 unless a layout above has one. */
export function useHeadingTag(): HeadingTag {
  return useContext(NextHeading);
}
