// AssemblyScript: whether a field is an ISO 8601 date or timestamp as
// engine/worker/iso-date.ts reads one (YYYY-MM-DD, or that with a time: T,
// t or a space, HH:MM, optional :SS and a fraction after a dot or a comma,
// an optional zone Z, z, ±HH, ±HHMM or ±HH:MM), without its instant.

/** What isoDate() found. */
export const NOT_DATE: i32 = 0;
export const DATE: i32 = 1;
export const TIMESTAMP: i32 = 2;

const DASH: u32 = 45;
const COLON: u32 = 58;
const DAYS_IN_MONTH: StaticArray<i32> = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The seconds of the last timestamp read (-1 when it had none): 60 is a leap second. */
export let lastSeconds: i32 = -1;
/** Where the last time of day read ended. */
let timeEnd: usize = 0;

/** The number `count` digits at `at` spell, or -1. */
function digits(at: usize, count: i32): i32 {
  let value = 0;
  for (let i: usize = 0; i < <usize>count; i++) {
    const d = <u32>load<u8>(at + i) - 48;
    if (d > 9) return -1;
    value = value * 10 + <i32>d;
  }
  return value;
}

function daysIn(year: i32, month: i32): i32 {
  const leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  return month == 2 && leap ? 29 : unchecked(DAYS_IN_MONTH[month - 1]);
}

/** Whether [at, e) is a zone (empty, Z, z, ±HH, ±HHMM, ±HH:MM). */
function isZone(at: usize, e: usize): bool {
  if (at == e || (at + 1 == e && (load<u8>(at) | 32) == 122)) return true;
  const sign = <u32>load<u8>(at);
  const colon: usize = at + 3 < e && load<u8>(at + 3) == COLON ? 1 : 0;
  const length = e - at;
  if ((sign != 43 && sign != DASH) || !(length == 3 || length == 5 + colon)) return false;
  const hours = digits(at + 1, 2);
  const minutes = length == 3 ? 0 : digits(at + 3 + colon, 2);
  return hours >= 0 && hours <= 23 && minutes >= 0 && minutes <= 59;
}

/** Whether HH:MM[:SS[.fff]] starts at `at`, read no further than e (its end in timeEnd, seconds in lastSeconds). */
function isTimeOfDay(at: usize, e: usize): bool {
  if (at + 5 > e) return false;
  const hours = digits(at, 2);
  const minutes = load<u8>(at + 2) == COLON ? digits(at + 3, 2) : -1;
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return false;
  let end = at + 5;
  lastSeconds = -1;
  if (end < e && load<u8>(end) == COLON) {
    const seconds = end + 3 <= e ? digits(end + 1, 2) : -1;
    if (seconds < 0 || seconds > 60) return false;
    lastSeconds = seconds;
    end += 3;
    if (end < e && (load<u8>(end) == 46 || load<u8>(end) == 44)) {
      const first = ++end;
      while (end < e && <u32>load<u8>(end) - 48 < 10) end++;
      if (end == first) return false;
    }
  }
  timeEnd = end;
  return true;
}

/** DATE, TIMESTAMP or NOT_DATE for the field [s, e). */
export function isoDate(s: usize, e: usize): i32 {
  if (e - s < 10 || load<u8>(s + 4) != DASH || load<u8>(s + 7) != DASH) return NOT_DATE;
  const year = digits(s, 4);
  const month = digits(s + 5, 2);
  const day = digits(s + 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return NOT_DATE;
  lastSeconds = -1;
  if (e - s == 10) return DATE;
  const t = <u32>load<u8>(s + 10);
  if (t != 84 && t != 116 && t != 32) return NOT_DATE;
  return isTimeOfDay(s + 11, e) && isZone(timeEnd, e) ? TIMESTAMP : NOT_DATE;
}
