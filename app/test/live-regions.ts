/**
 * The text that a screen reader is told of as it changes: what sits inside a live region (aria-live, or
 * role status, alert or log) in server-rendered markup, one string per outermost region.
 */
export function liveRegionTexts(html: string): string[] {
  const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
  const texts: string[] = [];
  // Each open element, and whether it is (or is inside) a live region.
  const open: { tag: string; live: boolean; start: boolean }[] = [];
  let current: string[] | null = null;
  for (const [token, closing, tag, attributes, text] of html.matchAll(/<(\/?)([a-zA-Z0-9-]+)([^>]*)>|([^<]+)/g)) {
    if (text !== undefined) {
      current?.push(text);
      continue;
    }
    if (closing) {
      const element = open.pop();
      if (element?.start && current) {
        texts.push(current.join(" ").replace(/\s+/g, " ").trim());
        current = null;
      }
      continue;
    }
    if (VOID.has(tag!.toLowerCase()) || token.endsWith("/>")) continue;
    const inside = open.at(-1)?.live ?? false;
    const live = /\saria-live="(polite|assertive)"|\srole="(status|alert|log)"/.test(attributes!);
    open.push({ tag: tag!, live: inside || live, start: !inside && live });
    if (!inside && live) current = [];
  }
  return texts;
}
