// What kind of value a field holds, read from its bytes with no string made:
// the classes a typed import infers a column's type from and checks each of
// its fields against. Numbers, booleans and dates are spelled as analyze
// reads them (an optional sign, digits with at most one dot, an optional
// exponent; `true`/`false` in any case; ISO 8601 dates and timestamps),
// except that digits with a leading zero are text, as a code is.
import { parseIsoDate } from '../../../engine/worker/iso-date.js';

export const ValueClass = {
  Null: 0,
  Integer: 1,
  Decimal: 2,
  Boolean: 3,
  Date: 4,
  Timestamp: 5,
  Text: 6,
} as const;
export type ValueClass = (typeof ValueClass)[keyof typeof ValueClass];

/** The largest integer a 64-bit column holds, as the digits a field spells it with. */
const INT64_MAX = '9223372036854775807';

/** Powers of ten this far from 1 are well inside a double's range, either way (it reaches 1e308 and 1e-323). */
const SURE_EXPONENT = 290;

/** The significant digits of the last number classified (leading zeros left out): its precision. */
export let lastPrecision = 0;
/**
 * The last number classified as its digits (an integer, exact while they are 15 or fewer) times 10^lastPower,
 * negated when lastNegative: what lastNumberValue makes its double of.
 */
let lastDigits = 0;
let lastPower = 0;
let lastNegative = false;

/** Digits a double holds exactly in its integers, and more: up to 15 are read as a number. */
export const SAFE_DIGITS = 15;
/** The powers of ten a double holds exactly. */
const EXACT_POWERS = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** Whether the integer digits b[s..e) (no sign, leading zeros allowed) fit a signed 64-bit integer. */
function fitsInt64(b: Uint8Array, s: number, e: number, negative: boolean): boolean {
  while (s < e - 1 && b[s] === 48) s++;
  const len = e - s;
  if (len !== INT64_MAX.length) return len < INT64_MAX.length;
  for (let k = 0; k < len; k++) {
    const d = b[s + k]! - INT64_MAX.charCodeAt(k);
    if (d !== 0) return d < 0 || (negative && k === len - 1 && d === 1);
  }
  return true;
}

/** The class of a number in b[s..e), or Text when it is not one. */
function numberClass(b: Uint8Array, s: number, e: number): ValueClass {
  let k = s;
  const negative = b[k] === 45;
  if (negative || b[k] === 43) k++;
  const digitsStart = k;
  // A leading zero (007, 02134) marks a code, not a number: stored as a number it would lose its digits.
  if (b[k] === 48 && k + 1 < e && b[k + 1]! >= 48 && b[k + 1]! <= 57) return ValueClass.Text;
  let significant = 0;
  let dot = false;
  let mantissa = 0;
  let scale = 0;
  for (; k < e; k++) {
    const c = b[k]!;
    if (c >= 48 && c <= 57) {
      if (significant > 0 || c !== 48) significant++;
      mantissa = mantissa * 10 + c - 48;
      if (dot) scale++;
    } else if (c === 46 && !dot) dot = true;
    else break;
  }
  const digits = k - digitsStart - (dot ? 1 : 0);
  if (digits === 0) return ValueClass.Text;
  lastPrecision = Math.max(significant, 1);
  lastDigits = mantissa;
  lastPower = -scale;
  lastNegative = negative;
  if (k === e) {
    if (dot) return ValueClass.Decimal;
    return fitsInt64(b, digitsStart, e, negative) ? ValueClass.Integer : ValueClass.Decimal;
  }
  if (b[k] !== 101 && b[k] !== 69) return ValueClass.Text;
  k++;
  const below = b[k] === 45;
  if (k < e && (b[k] === 43 || below)) k++;
  const exponentStart = k;
  let exponent = 0;
  for (; k < e && b[k]! >= 48 && b[k]! <= 57; k++) exponent = Math.min(exponent * 10 + b[k]! - 48, SURE_EXPONENT);
  if (k !== e || k === exponentStart) return ValueClass.Text;
  lastPower += below ? -exponent : exponent;
  // The value is within `digits` powers of ten of 10^exponent: far inside the doubles' range, it is one.
  if (exponent + digits < SURE_EXPONENT) return ValueClass.Decimal;
  // Past the doubles (1e400, or 1e-400 rounding to 0) it is text, as analyze reads it.
  const value = Number(Buffer.from(b.buffer, b.byteOffset + s, e - s).toString('latin1'));
  return Number.isFinite(value) && (value !== 0 || significant === 0) ? ValueClass.Decimal : ValueClass.Text;
}

/**
 * The double nearest to the number last classified, read from b[s..e), as DuckDB's cast (and JavaScript's Number)
 * rounds it. Up to 15 digits and a power of ten up to 22 either way, the digits and the power are both exact
 * doubles and one multiplication or division rounds once, correctly; anything else is read by Number.
 */
export function lastNumberValue(b: Uint8Array, s: number, e: number): number {
  if (lastPrecision > SAFE_DIGITS || lastPower > 22 || lastPower < -22) {
    return Number(Buffer.from(b.buffer, b.byteOffset + s, e - s).toString('latin1'));
  }
  const value = lastPower >= 0 ? lastDigits * EXACT_POWERS[lastPower]! : lastDigits / EXACT_POWERS[-lastPower]!;
  return lastNegative ? -value : value;
}

/** `true` or `false` in any letter case (`| 32` lowers an ASCII letter). */
export function isBooleanWord(b: Uint8Array, s: number, e: number): boolean {
  const len = e - s;
  const word = len === 4 ? 'true' : len === 5 ? 'false' : '';
  if (word === '') return false;
  for (let k = 0; k < len; k++) if ((b[s + k]! | 32) !== word.charCodeAt(k)) return false;
  return true;
}

/** The class of the field b[s..e): an empty field is Null. */
export function classify(b: Uint8Array, s: number, e: number): ValueClass {
  if (s === e) return ValueClass.Null;
  const first = b[s]!;
  if ((first >= 48 && first <= 57) || first === 45 || first === 43 || first === 46) {
    const number = numberClass(b, s, e);
    if (number !== ValueClass.Text) return number;
    if (e - s >= 10 && !Number.isNaN(parseIsoDate(b, s, e))) {
      return e - s === 10 ? ValueClass.Date : ValueClass.Timestamp;
    }
    return ValueClass.Text;
  }
  return isBooleanWord(b, s, e) ? ValueClass.Boolean : ValueClass.Text;
}
