import { describe, expect, it } from "vitest";
import { detectDelimiter } from "./read-flat-file.ts";
import { DelimitedFormatError, readDelimitedBatches, readDelimitedRecords, type DelimitedOptions } from "./read-delimited.ts";

async function records(chunks: string[], options: DelimitedOptions = { delimiter: ",", quote: '"' }) {
  const out = [];
  for await (const r of readDelimitedRecords(chunks, options)) out.push(r);
  return out;
}

describe("delimited records", () => {
  it("reads quoted fields with delimiters, doubled quotes and line breaks, across chunk boundaries", async () => {
    const text = 'a,"b,c","say ""hi""","two\r\nlines"\r\nd,,e,\n';
    for (let cut = 0; cut <= text.length; cut++) {
      expect(await records([text.slice(0, cut), text.slice(cut)])).toEqual([
        { row: 1, cells: ["a", "b,c", 'say "hi"', "two\r\nlines"] },
        { row: 2, cells: ["d", "", "e", ""], line: "d,,e," },
      ]);
    }
  });

  it("keeps the text of a plain line (no qualifier, no CR but before its LF), whatever its line ends", async () => {
    const text = 'a,b\rc,d\r\n"e",f\ng,h';
    for (let cut = 0; cut <= text.length; cut++) {
      expect(await records([text.slice(0, cut), text.slice(cut)])).toEqual([
        { row: 1, cells: ["a", "b"] },
        { row: 2, cells: ["c", "d"], line: "c,d" },
        { row: 3, cells: ["e", "f"] },
        { row: 4, cells: ["g", "h"] },
      ]);
    }
  });

  it("hands records on in batches of at most 1,000, in order, whatever one chunk holds", async () => {
    // One chunk of 2,500 rows, then a row cut across two chunks.
    const big = Array.from({ length: 2500 }, (_, i) => `${i + 1},x\n`).join("");
    const sizes: number[] = [];
    const rows: number[] = [];
    for await (const batch of readDelimitedBatches([big + "2501,", "y\n"], { delimiter: ",", quote: '"' })) {
      sizes.push(batch.length);
      rows.push(...batch.map((r) => Number(r.cells[0])));
    }
    expect(sizes).toEqual([1000, 1000, 500, 1]);
    expect(rows).toEqual(Array.from({ length: 2501 }, (_, i) => i + 1));
  });

  it("takes any one-character delimiter and the single quote, or no qualifier at all", async () => {
    expect(await records(["x|'a|b'|'it''s'\n"], { delimiter: "|", quote: "'" })).toEqual([{ row: 1, cells: ["x", "a|b", "it's"] }]);
    expect(await records(['x\t"y"\n'], { delimiter: "\t", quote: null })).toEqual([{ row: 1, cells: ["x", '"y"'], line: 'x\t"y"' }]);
  });

  it("names the row of broken quoting", async () => {
    await expect(records(['a\nb,"open\n'])).rejects.toEqual(new DelimitedFormatError(2, "a quoted field is never closed"));
    await expect(records(['a,b"c\n'])).rejects.toThrow('on row 1, a field with a quote in it must be quoted, with the quote doubled ("")');
  });

  it("detects the delimiter from the first line, outside quoted text", () => {
    expect(detectDelimiter("a;b;c\n1,2;3;4\n", '"')).toBe(";");
    expect(detectDelimiter('"a,b,c"|x|y\n', '"')).toBe("|");
    expect(detectDelimiter("a\tb\n", '"')).toBe("\t");
    expect(detectDelimiter("single\n", '"')).toBe(",");
  });
});
