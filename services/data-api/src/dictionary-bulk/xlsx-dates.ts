/**
 * Dates in an .xlsx: a date is a number (days since 1900, or 1904) whose cell style has a date
 * format. xl/styles.xml lists the cell formats (`<cellXfs>`, indexed by a cell's `s`), each with a
 * number format: a built-in id (ECMA-376 §18.8.30: 14–22 and 45–47 are dates and times) or a
 * `<numFmt>` whose code holds date letters (d, m, y, h, s outside quotes and brackets).
 */
import { attribute, scanXml } from "./xml-scan.ts";

export type DateKind = "date" | "time" | "datetime";
/** The date kind of each cell format (undefined: not a date), and the date system. */
export type DateStyles = { kinds: (DateKind | undefined)[]; date1904: boolean };

const BUILT_IN: Record<number, DateKind> = {
  14: "date",
  15: "date",
  16: "date",
  17: "date",
  18: "time",
  19: "time",
  20: "time",
  21: "time",
  22: "datetime",
  27: "date",
  30: "date",
  36: "date",
  45: "time",
  46: "time",
  47: "time",
  50: "date",
  57: "date",
};

/** What a format code shows: quoted text, escaped characters, colours and conditions ([Red], [>100]) are not date letters; [h] is. */
export function dateKindOfFormat(code: string): DateKind | undefined {
  const letters = code
    .replace(/"[^"]*"/g, "")
    .replace(/\\./g, "")
    .replace(/\[(?![hms]+\])[^\]]*\]/gi, "")
    .toLowerCase();
  // A general or number format ("0.00", "#,##0") has none of these.
  const time = /[hs]/.test(letters);
  const date = /[yd]/.test(letters) || (/m/.test(letters) && !time);
  return date && time ? "datetime" : date ? "date" : time ? "time" : undefined;
}

/** xl/styles.xml: each cell format's date kind, by its index in `<cellXfs>`. */
export async function readDateStyles(xml: string): Promise<(DateKind | undefined)[]> {
  const custom = new Map<number, DateKind | undefined>();
  const kinds: (DateKind | undefined)[] = [];
  let inCellXfs = false;
  await scanXml(xml, {
    open(name, attributes, selfClosing) {
      if (name === "numFmt") custom.set(Number(attribute(attributes, "numFmtId")), dateKindOfFormat(attribute(attributes, "formatCode") ?? ""));
      else if (name === "cellXfs") inCellXfs = !selfClosing;
      else if (name === "xf" && inCellXfs) {
        const id = Number(attribute(attributes, "numFmtId") ?? 0);
        kinds.push(custom.has(id) ? custom.get(id) : BUILT_IN[id]);
      }
    },
    close(name) {
      if (name === "cellXfs") return "stop";
    },
  });
  return kinds;
}

const DAY_MS = 86_400_000;
/** Days from 1970-01-01 to serial 0: 1899-12-31 in the 1900 system, but Excel counts a 29 February 1900 that never was, so from serial 61 on day 0 is 1899-12-30. */
const EPOCH_1900_EARLY = -25_568;
const EPOCH_1900 = -25_569;
const EPOCH_1904 = -24_107;

/** The serial number `value` as ISO text of its kind ("2024-01-31", "10:30:00", "2024-01-31 10:30:00"), or undefined when it is not one. */
export function isoOfSerial(value: string, kind: DateKind, date1904: boolean): string | undefined {
  const serial = Number(value);
  if (value.trim() === "" || !Number.isFinite(serial) || serial < 0 || serial >= 2_958_466) return undefined;
  // To the millisecond: a time typed as 10:31 is stored as 0.43819444…
  let ms = Math.round(serial * DAY_MS);
  if (kind === "time") ms %= DAY_MS;
  const days = Math.floor(ms / DAY_MS);
  if (!date1904 && days === 60) return undefined; // 29 February 1900
  const epoch = date1904 ? EPOCH_1904 : days < 60 ? EPOCH_1900_EARLY : EPOCH_1900;
  const date = civilDate(epoch + days);
  if (kind === "date") return date;
  const time = timeOfDay(ms - days * DAY_MS);
  return kind === "time" ? time : `${date} ${time}`;
}

const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/** yyyy-mm-dd of a day counted from 1970-01-01 (H. Hinnant's days_from_civil, inverted): this runs for every date cell of a sheet. */
function civilDate(days: number): string {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, "0")}-${two(month)}-${two(day)}`;
}

/** hh:mm:ss, with the milliseconds when there are any. */
function timeOfDay(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const rest = ms - seconds * 1000;
  const hms = `${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}`;
  return rest === 0 ? hms : `${hms}.${String(rest).padStart(3, "0")}`;
}
