/** Every page's `<main>` has this id: the skip link's target. */
export const MAIN_ID = "main";

/**
 * The page's first tab stop, shown when focused: a keyboard user goes past the header and the
 * sidebar's menu (some twenty stops) to the page's own content in one key.
 */
export function SkipLink() {
  return (
    <a
      href={`#${MAIN_ID}`}
      className="sr-only z-50 rounded-md bg-white px-3 py-2 text-sm font-medium text-brand shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
    >
      Skip to main content
    </a>
  );
}
