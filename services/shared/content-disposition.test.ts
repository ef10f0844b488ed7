import { describe, expect, it } from "vitest";
import { attachment } from "./content-disposition.ts";
import { savedAs } from "./testing/saved-as.ts";

/** What a browser that reads only `filename` (no RFC 6266 `filename*`) saves. */
const fallbackOf = (disposition: string) => savedAs(disposition.replace(/; filename\*=.*$/, ""));

describe("attachment (every download's Content-Disposition)", () => {
  it("names a plain file as it is, with no filename*", () => {
    expect(attachment("audit-log.csv")).toBe('attachment; filename="audit-log.csv"');
    expect(attachment("Kunden 2024-rejected-rows.csv")).toBe('attachment; filename="Kunden 2024-rejected-rows.csv"');
    expect(savedAs(attachment("ERP-customers-2026-12-01-064500.backup.tar"))).toBe("ERP-customers-2026-12-01-064500.backup.tar");
  });

  it("saves a name with letters beyond ASCII as it is, and gives an older browser the letters without their accents", () => {
    const header = attachment("Müller_Kunden-rejected-rows.csv");
    expect(header).toBe("attachment; filename=\"Muller_Kunden-rejected-rows.csv\"; filename*=UTF-8''M%C3%BCller_Kunden-rejected-rows.csv");
    expect(savedAs(header)).toBe("Müller_Kunden-rejected-rows.csv");
    expect(fallbackOf(header)).toBe("Muller_Kunden-rejected-rows.csv");
    expect(savedAs(attachment("Straße Zoë 東京.csv"))).toBe("Straße Zoë 東京.csv");
    expect(fallbackOf(attachment("Straße Zoë 東京.csv"))).toBe("Stra_e Zoe __.csv");
    // Every byte of the header is ASCII: a header value holds no other (Headers refuses it).
    expect(new Headers({ "content-disposition": attachment("Straße Zoë 東京 😀.csv") }).get("content-disposition")).toMatch(/^[\x20-\x7e]+$/);
    expect(savedAs(attachment("Straße Zoë 東京 😀.csv"))).toBe("Straße Zoë 東京 😀.csv");
  });

  it("keeps quotes, semicolons and percent signs in the name saved, never letting them end or add a parameter", () => {
    for (const name of ['Bob "B"; x=1.csv', "50% off;.csv", "a\\b'(c)*.csv", 'filename="evil.exe".csv']) {
      const header = attachment(name);
      expect(savedAs(header)).toBe(name);
      expect(fallbackOf(header)).toMatch(/^[^"\\;%]+$/);
    }
    expect(fallbackOf(attachment('Bob "B"; x=1.csv'))).toBe("Bob _B__ x=1.csv");
    // A control character (a line break would end the header) is none of the name.
    expect(savedAs(attachment("two\r\nlines.csv"))).toBe("two_lines.csv");
  });
});
