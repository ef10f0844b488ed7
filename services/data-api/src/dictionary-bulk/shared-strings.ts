/**
 * A workbook's shared strings (xl/sharedStrings.xml), held while its sheet is read. A sheet written
 * by a program often has a string per cell: a million rows, millions of strings. Held as JavaScript
 * strings, each is an object the garbage collector marks on every full collection (a 1,000,000-row
 * load's worker spent a quarter of its time doing so); here they are joined a few thousand at a
 * time into one string, with where each ends in a typed array, and a lookup cuts its string out.
 */

/** Strings per part: an index's part and place in it are a shift and a mask. */
const PART_BITS = 12;
const PART_SIZE = 1 << PART_BITS;

export class SharedStrings {
  readonly #parts: string[] = [];
  readonly #ends: Uint32Array[] = [];
  #pending: string[] = [];
  #pendingEnds = new Uint32Array(PART_SIZE);
  #pendingLength = 0;

  /** How many strings there are. */
  get length(): number {
    return this.#parts.length * PART_SIZE + this.#pending.length;
  }

  push(text: string): void {
    this.#pendingLength += text.length;
    this.#pendingEnds[this.#pending.length] = this.#pendingLength;
    this.#pending.push(text);
    if (this.#pending.length === PART_SIZE) this.#seal();
  }

  /** The string at `index`, or undefined past the end. */
  at(index: number): string | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.length) return undefined;
    const part = index >>> PART_BITS;
    const place = index & (PART_SIZE - 1);
    if (part < this.#parts.length) {
      const ends = this.#ends[part]!;
      return this.#parts[part]!.slice(place === 0 ? 0 : ends[place - 1], ends[place]);
    }
    return this.#pending[place];
  }

  #seal() {
    this.#parts.push(this.#pending.join(""));
    this.#ends.push(this.#pendingEnds);
    this.#pending = [];
    this.#pendingEnds = new Uint32Array(PART_SIZE);
    this.#pendingLength = 0;
  }
}
