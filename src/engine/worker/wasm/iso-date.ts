// AssemblyScript, compiled into analyze's scanner (its column-extras.ts
// calls it for a value that may be a date) and the import's Parquet writer
// (parquet-columns.ts checks a date or timestamp column's fields with it).
//
// ISO 8601 dates and timestamps as ../iso-date.ts reads them, byte for
// byte and operation for operation (a unit test compares the two): days
// from the civil date, no Date. It may look a few bytes past a field's end
// (the callers leave memory after the chunk), as its twin may.

const DASH: u32 = 45;
const COLON: u32 = 58;
const DAY_MS: f64 = 86400000;

function digitsAt(at: usize, count: i32): i32 {
  let value = 0;
  for (let i = 0; i < count; i++) {
    const d = <i32>load<u8>(at + <usize>i) - 48;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's days_from_civil). */
function daysFromCivil(year: i32, month: i32, day: i32): i32 {
  const y = month <= 2 ? year - 1 : year;
  const era = (y >= 0 ? y : y - 399) / 400;
  const yearOfEra = y - era * 400;
  const dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  return era * 146097 + yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear - 719468;
}

function daysIn(year: i32, month: i32): i32 {
  if (month == 2) return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28;
  return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
}

/** Where the last time of day read ended. */
let timeEnd: usize = 0;
/** The seconds of the last value read, -1 when it had none: 60 is a leap second. */
export let lastSeconds: i32 = -1;

/** As its twin: nothing at or past `e` is read as the time's (the byte after a field may be a comma). */
function timeOfDay(at: usize, e: usize): f64 {
  if (at + 5 > e) return NaN;
  const hours = digitsAt(at, 2);
  const minutes = load<u8>(at + 2) == COLON ? digitsAt(at + 3, 2) : -1;
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return NaN;
  let end = at + 5;
  let ms = <f64>((hours * 60 + minutes) * 60000);
  if (end < e && load<u8>(end) == COLON) {
    const seconds = end + 3 <= e ? digitsAt(end + 1, 2) : -1;
    if (seconds < 0 || seconds > 60) return NaN;
    lastSeconds = seconds;
    ms += <f64>(seconds * 1000);
    end += 3;
    const mark = end < e ? load<u8>(end) : 0;
    if (mark == 46 || mark == 44) {
      let scale: f64 = 100;
      const first = ++end;
      for (; end < e && <u32>load<u8>(end) - 48 <= 9; end++, scale /= 10) ms += <f64>(<i32>load<u8>(end) - 48) * scale;
      if (end == first) return NaN;
    }
  }
  timeEnd = end;
  return ms;
}

function zoneOffset(at: usize, e: usize): f64 {
  const first = <u32>load<u8>(at);
  if (at == e || (at + 1 == e && (first == 90 || first == 122))) return 0;
  const sign = first == 43 ? 1 : first == DASH ? -1 : 0;
  const colon = load<u8>(at + 3) == COLON ? 1 : 0;
  const len = <i32>(e - at);
  if (sign == 0 || !(len == 3 || len == 5 + colon)) return NaN;
  const hours = digitsAt(at + 1, 2);
  const minutes = len == 3 ? 0 : digitsAt(at + 3 + <usize>colon, 2);
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return NaN;
  return <f64>(sign * (hours * 60 + minutes));
}

/** The instant (ms since 1970) the date or timestamp in bytes s..e names; NaN when it is neither. */
export function isoInstant(s: usize, e: usize): f64 {
  lastSeconds = -1;
  if (e - s < 10 || load<u8>(s + 4) != DASH || load<u8>(s + 7) != DASH) return NaN;
  const year = digitsAt(s, 4);
  const month = digitsAt(s + 5, 2);
  const day = digitsAt(s + 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return NaN;
  const date = <f64>daysFromCivil(year, month, day) * DAY_MS;
  if (e - s == 10) return date;
  const t = <u32>load<u8>(s + 10);
  if (t != 84 && t != 116 && t != 32) return NaN;
  const time = timeOfDay(s + 11, e);
  if (isNaN(time)) return NaN;
  return date + time - zoneOffset(timeEnd, e) * 60000;
}
