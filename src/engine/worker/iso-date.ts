// ISO 8601 dates and timestamps as analyze recognizes them: YYYY-MM-DD, or
// that with a time (T or a space, HH:MM, optional :SS and fraction) and an
// optional zone (Z, ±HH, ±HHMM, ±HH:MM). A time without a zone is read as UTC
// for ordering. The result is milliseconds since 1970, or NaN; a value longer
// than its 10-character date has a time. No object is made per value.

const DASH = 45;
const COLON = 58;

function digits(b: Uint8Array, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const d = b[i]! - 48;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

const MS_PER_DAY = 86_400_000;
/** Days from 0000-03-01 to 1970-01-01 in the proleptic Gregorian calendar. */
const EPOCH_DAYS = 719_468;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Date.UTC (month from 0) without its reading of years 0–99 as 1900–1999, by arithmetic (H. Hinnant's
 * days_from_civil): a Date per value was most of a typed import's worker time on a column of dates.
 */
function utc(year: number, month: number, day: number): number {
  const y = month < 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month < 2 ? month + 10 : month - 2) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return (era * 146_097 + dayOfEra - EPOCH_DAYS) * MS_PER_DAY;
}

/** The days of month `month` (from 1). */
function daysIn(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!;
}

/** The zone's offset in minutes from `at` to `e` (empty: UTC), or NaN. */
function zoneOffset(b: Uint8Array, at: number, e: number): number {
  if (at === e || (at + 1 === e && (b[at] === 90 || b[at] === 122))) return 0;
  const sign = b[at] === 43 ? 1 : b[at] === DASH ? -1 : 0;
  const colon = b[at + 3] === COLON ? 1 : 0;
  const len = e - at;
  if (sign === 0 || !(len === 3 || len === 5 + colon)) return NaN;
  const hours = digits(b, at + 1, 2);
  const minutes = len === 3 ? 0 : digits(b, at + 3 + colon, 2);
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return NaN;
  return sign * (hours * 60 + minutes);
}

/** Where the last time of day read ended. */
let timeEnd = 0;

/**
 * Milliseconds into the day of HH:MM[:SS[.fff]] at `at` (its end in timeEnd); NaN when malformed. Nothing at
 * or past `e` is read as the time's: the byte after a field is the delimiter, and a comma is also a fraction's mark.
 */
function timeOfDay(b: Uint8Array, at: number, e: number): number {
  if (at + 5 > e) return NaN;
  const hours = digits(b, at, 2);
  const minutes = b[at + 2] === COLON ? digits(b, at + 3, 2) : -1;
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return NaN;
  let end = at + 5;
  let ms = (hours * 60 + minutes) * 60000;
  if (end < e && b[end] === COLON) {
    const seconds = end + 3 <= e ? digits(b, end + 1, 2) : -1;
    if (seconds < 0 || seconds > 60) return NaN;
    ms += seconds * 1000;
    end += 3;
    if (end < e && (b[end] === 46 || b[end] === 44)) {
      let scale = 100;
      const first = ++end;
      for (; end < e && b[end]! >= 48 && b[end]! <= 57; end++, scale /= 10) ms += (b[end]! - 48) * scale;
      if (end === first) return NaN;
    }
  }
  timeEnd = end;
  return ms;
}

/** The instant the date or timestamp in bytes s..e names; NaN when it is neither. */
export function parseIsoDate(b: Uint8Array, s: number, e: number): number {
  if (e - s < 10 || b[s + 4] !== DASH || b[s + 7] !== DASH) return NaN;
  const year = digits(b, s, 4);
  const month = digits(b, s + 5, 2);
  const day = digits(b, s + 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return NaN;
  const date = utc(year, month - 1, day);
  if (e - s === 10) return date;
  const t = b[s + 10];
  if (t !== 84 && t !== 116 && t !== 32) return NaN;
  const time = timeOfDay(b, s + 11, e);
  return date + time - zoneOffset(b, timeEnd, e) * 60000;
}
