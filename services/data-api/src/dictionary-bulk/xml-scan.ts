/**
 * A small XML scanner for the parts of an .xlsx (SpreadsheetML is machine-written XML: elements,
 * attributes, text, the odd comment or CDATA section). It hands elements to a handler by local name
 * (`x:c` is `c`), never builds a tree, and gives the event loop a turn every few thousand elements,
 * so a large worksheet does not hold other requests up. A DOCTYPE is refused: no part of a workbook
 * has one, and refusing it rules out entity expansion.
 */
import { setImmediate as nextTurn } from "node:timers/promises";

export class XmlFormatError extends Error {
  override name = "XmlFormatError";
}

/** What the scanner calls; `attributes` is the raw text after the element's name (read it with `attribute`). */
export type XmlHandler = {
  open?(name: string, attributes: string, selfClosing: boolean): void | "stop";
  close?(name: string): void | "stop";
  /** Raw text between tags (decode it with decodeXmlText); CDATA comes already decoded. */
  text?(raw: string, cdata: boolean): void;
  /**
   * Shortcuts for the elements a part holds millions of (a worksheet's `<row>` and `<c>`), by name:
   * once an opening tag is read, its shortcut may read the rest of the element from `xml` at `from`
   * and answer where it ends; it answers -1 for anything it does not expect (or that is not all here
   * yet), which the scanner then reads as usual. Either way the handler sees the same element.
   */
  shortcuts?: ReadonlyMap<string, XmlShortcut>;
};

export type XmlShortcut = (xml: string, from: number, attributes: string, selfClosing: boolean) => number;

/** Characters a shortcut reads that count as one element against the slice (an element's usual length). */
const SHORTCUT_CHARS_PER_ELEMENT = 32;

/** Elements scanned between two turns of the event loop. */
export const SCAN_SLICE = 20_000;

/** Scans `xml` from start to end, or until a handler answers "stop"; a handler may also throw. */
export async function scanXml(xml: string, handler: XmlHandler, slice = SCAN_SLICE): Promise<void> {
  const scanner = new XmlScanner(handler, slice);
  await scanner.push(xml);
  await scanner.end();
}

/** The longest opening a token is recognised by ("<![CDATA["): less than this at a chunk's end waits for more. */
const LONGEST_OPENING = 9;

/**
 * The same scan fed in chunks (a part as it unpacks): what is complete is handed on, an unfinished
 * tag, comment or entity waits for the next chunk, so only the current chunk is ever held.
 */
export class XmlScanner {
  #buffer = "";
  #budget: number;
  #stopped = false;

  constructor(
    private readonly handler: XmlHandler,
    private readonly slice = SCAN_SLICE,
  ) {
    this.#budget = slice;
  }

  /** True once a handler answered "stop": the rest is not read. */
  get stopped() {
    return this.#stopped;
  }

  async push(chunk: string): Promise<void> {
    if (this.#stopped) return;
    this.#buffer = this.#buffer === "" ? chunk : this.#buffer + chunk;
    await this.#scan(false);
  }

  /** The end of the input: anything left unfinished is an error. */
  async end(): Promise<void> {
    if (this.#stopped) return;
    await this.#scan(true);
  }

  async #scan(final: boolean): Promise<void> {
    const { handler } = this;
    const xml = this.#buffer;
    const length = xml.length;
    let at = 0;
    const stop = () => {
      this.#stopped = true;
      this.#buffer = "";
    };
    while (at < length) {
      if (--this.#budget === 0) {
        this.#budget = this.slice;
        await nextTurn();
      }
      const lt = xml.indexOf("<", at);
      if (lt < 0) {
        // Text to the end: an entity may be cut in two, so what follows the last '&' waits.
        const amp = final ? -1 : xml.lastIndexOf("&");
        const cut = amp >= at ? amp : length;
        if (cut > at) handler.text?.(xml.slice(at, cut), false);
        at = cut;
        break;
      }
      if (lt > at) handler.text?.(xml.slice(at, lt), false);
      at = lt;
      if (!final && length - lt < LONGEST_OPENING) break;

      // Most tags are elements: comments, CDATA, declarations are looked for only after a '!' or a '?'.
      const second = xml.charCodeAt(lt + 1);
      if (second === 33 /* ! */ || second === 63 /* ? */) {
        if (xml.startsWith("<!--", lt)) {
          const end = after(xml, "-->", lt + 4, final);
          if (end < 0) break;
          at = end;
          continue;
        }
        if (xml.startsWith("<![CDATA[", lt)) {
          const end = after(xml, "]]>", lt + 9, final);
          if (end < 0) break;
          handler.text?.(xml.slice(lt + 9, end - 3), true);
          at = end;
          continue;
        }
        if (second === 63) {
          const end = after(xml, "?>", lt + 2, final);
          if (end < 0) break;
          at = end;
          continue;
        }
        throw new XmlFormatError("a DOCTYPE or other declaration");
      }

      const gt = tagEnd(xml, lt + 1, final);
      if (gt < 0) break;
      if (xml.charCodeAt(lt + 1) === 47 /* / */) {
        if (handler.close?.(localName(xml.slice(lt + 2, gt).trim())) === "stop") return stop();
      } else {
        const selfClosing = xml.charCodeAt(gt - 1) === 47;
        const bodyEnd = selfClosing ? gt - 1 : gt;
        const nameEnd = firstSpace(xml, lt + 1, bodyEnd);
        const name = xml.slice(lt + 1, nameEnd);
        if (name === "") throw new XmlFormatError("an element without a name");
        const attributes = nameEnd === bodyEnd ? "" : xml.slice(nameEnd, bodyEnd);
        const shortcut = handler.shortcuts?.get(name);
        if (shortcut) {
          const end = shortcut(xml, gt + 1, attributes, selfClosing);
          if (end >= 0) {
            // A row read whole is many elements: the event loop still gets its turns.
            this.#budget = Math.max(1, this.#budget - Math.floor((end - gt) / SHORTCUT_CHARS_PER_ELEMENT));
            at = end;
            continue;
          }
        }
        if (handler.open?.(localName(name), attributes, selfClosing) === "stop") return stop();
        if (selfClosing && handler.close?.(localName(name)) === "stop") return stop();
      }
      at = gt + 1;
    }
    this.#buffer = at >= length ? "" : xml.slice(at);
    if (final && this.#buffer !== "") throw new XmlFormatError("an unterminated tag");
  }
}

/** The index just after the next `marker` from `from`; -1 when it may come in the next chunk. */
function after(xml: string, marker: string, from: number, final: boolean): number {
  const end = xml.indexOf(marker, from);
  if (end >= 0) return end + marker.length;
  if (final) throw new XmlFormatError(`an unterminated '${marker}'`);
  return -1;
}

/** The `>` closing the tag that starts before `from`, skipping any inside quoted attribute values; -1 when not here yet. */
function tagEnd(xml: string, from: number, final: boolean): number {
  let quote = 0;
  for (let i = from; i < xml.length; i++) {
    const c = xml.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) {
      quote = c;
    } else if (c === 62) {
      return i;
    } else if (c === 60) {
      throw new XmlFormatError("a '<' inside a tag");
    }
  }
  if (final) throw new XmlFormatError("an unterminated tag");
  return -1;
}

/** The index of the first XML white space (space, tab, CR, LF) in `text` from `from` before `end`, or `end`: a loop, as it runs for every element. */
function firstSpace(text: string, from: number, end: number): number {
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) return i;
  }
  return end;
}

function localName(name: string): string {
  const colon = name.indexOf(":");
  return colon < 0 ? name : name.slice(colon + 1);
}

const attributePatterns = new Map<string, RegExp>();
const SPACE_BEFORE_EQUALS = /\s=/;

/** The decoded value of the attribute whose local name is `name` (`r:id` is `id`), if present. */
export function attribute(attributes: string, name: string): string | undefined {
  // Machine-written parts say ` r="A1"`: found without a regular expression, as it runs for every cell.
  const plain = attributes.indexOf(` ${name}="`);
  if (plain >= 0) {
    const from = plain + name.length + 3;
    const end = attributes.indexOf('"', from);
    if (end >= 0) return decodeXmlText(attributes.slice(from, end));
  }
  // Absent, in the way machine-written parts leave one out (most cells have no t or no s): no
  // pattern to run when neither `name=` nor white space before an '=' is there.
  if (!attributes.includes(`${name}=`) && !SPACE_BEFORE_EQUALS.test(attributes)) return undefined;
  let pattern = attributePatterns.get(name);
  if (!pattern) {
    pattern = new RegExp(`(?:^|\\s)(?:[^\\s=:"']+:)?${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`);
    attributePatterns.set(name, pattern);
  }
  const match = pattern.exec(attributes);
  if (!match) return undefined;
  return decodeXmlText(match[1] ?? match[2] ?? "");
}

const ENTITY = /&(?:(lt|gt|amp|quot|apos)|#([0-9]+)|#x([0-9a-fA-F]+));/g;
const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** Text with XML's five named entities and character references replaced. */
export function decodeXmlText(raw: string): string {
  if (!raw.includes("&")) return raw;
  return raw.replace(ENTITY, (match, named: string | undefined, decimal: string | undefined, hex: string | undefined) => {
    if (named) return NAMED[named]!;
    const code = decimal !== undefined ? Number.parseInt(decimal, 10) : Number.parseInt(hex!, 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : match;
  });
}
