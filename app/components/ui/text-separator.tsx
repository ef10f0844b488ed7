/**
 * A separator for the page's text only: where CSS alone sets two pieces apart (a flex gap, a block
 * on its own line), text browsers (w3m, lynx), reader views, copied text and `textContent` would run
 * them together ("Data HubData Transformation"). Hidden on screen (sr-only) and from assistive
 * technology (which gets the pieces as separate items already); w3m ignores CSS and shows it.
 * Where a plain space reads well, `{" "}` between flex items does the same with less: a flex
 * container does not render whitespace-only text.
 */
export function TextSeparator({ text = " · " }: { text?: string }) {
  return (
    <span aria-hidden="true" className="sr-only">
      {text}
    </span>
  );
}
