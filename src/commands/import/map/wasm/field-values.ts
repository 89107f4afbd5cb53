// AssemblyScript: what a field holds, read from its bytes as ../value-class.ts
// reads them (the same classes, the same precision, the same double), for
// the columns the Parquet writer (parquet-columns.ts) checks and writes.

/** The classes of ../value-class.ts this writer tells apart (anything else is text to it). */
export const INTEGER: i32 = 1;
export const DECIMAL: i32 = 2;
export const NOT_NUMBER: i32 = 6;

const MINUS: u32 = 45;
const PLUS: u32 = 43;
const DOT: u32 = 46;
const ZERO: u32 = 48;
/** Powers of ten this far from 1 are well inside a double's range, either way. */
const SURE_EXPONENT: i32 = 290;
/** Up to 15 significant digits and a power of ten up to 22 either way, one multiplication or division is exact. */
const SAFE_DIGITS: i32 = 15;
const EXACT_POWER: i32 = 22;
const POWERS: StaticArray<f64> = [
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
  1e20, 1e21, 1e22,
];

/** JavaScript's Number() of the text at [at, at + length): the rare number one operation cannot read exactly. */
@external('env', 'numberOf')
declare function numberOf(at: usize, length: i32): f64;

/** The last number classified: its significant digits, its digits as an integer times 10^power, its sign. */
export let lastPrecision: i32 = 0;
let lastDigits: f64 = 0;
let lastPower: i32 = 0;
let lastNegative = false;

@inline function isDigit(c: u32): bool {
  return c - ZERO < 10;
}

/** Whether a number's first byte may start one (a digit, a sign or a dot). */
@inline export function mayBeNumber(c: u32): bool {
  return isDigit(c) || c == MINUS || c == PLUS || c == DOT;
}

/** Whether the digits [s, e) (no sign, leading zeros allowed) fit a signed 64-bit integer. */
function fitsInt64(s: usize, e: usize, negative: bool): bool {
  while (s < e - 1 && load<u8>(s) == ZERO) s++;
  const length = <i32>(e - s);
  if (length != 19) return length < 19;
  let value: u64 = 0;
  for (let k = s; k < e; k++) value = value * 10 + <u64>(load<u8>(k) - ZERO);
  return value <= <u64>i64.MAX_VALUE + (negative ? 1 : 0);
}

/** INTEGER or DECIMAL for a number in [s, e) (s < e), else NOT_NUMBER; the number is kept for numberValue. */
export function numberClass(s: usize, e: usize): i32 {
  let k = s;
  const negative = load<u8>(k) == MINUS;
  if (negative || load<u8>(k) == PLUS) k++;
  const digitsStart = k;
  // A leading zero marks a code, not a number.
  if (k + 1 < e && load<u8>(k) == ZERO && isDigit(load<u8>(k + 1))) return NOT_NUMBER;
  let significant = 0;
  let dot = false;
  let mantissa: f64 = 0;
  let scale = 0;
  for (; k < e; k++) {
    const c = <u32>load<u8>(k);
    if (isDigit(c)) {
      if (significant > 0 || c != ZERO) significant++;
      mantissa = mantissa * 10 + <f64>(c - ZERO);
      if (dot) scale++;
    } else if (c == DOT && !dot) dot = true;
    else break;
  }
  const digits = <i32>(k - digitsStart) - (dot ? 1 : 0);
  if (digits == 0) return NOT_NUMBER;
  lastPrecision = max(significant, 1);
  lastDigits = mantissa;
  lastPower = -scale;
  lastNegative = negative;
  if (k == e) {
    if (dot) return DECIMAL;
    return fitsInt64(digitsStart, e, negative) ? INTEGER : DECIMAL;
  }
  return exponentClass(s, k, e, digits, significant);
}

/** The class of a number whose digits end at k, where an exponent must follow to the field's end. */
function exponentClass(s: usize, k: usize, e: usize, digits: i32, significant: i32): i32 {
  const c = <u32>load<u8>(k);
  if (c != 101 && c != 69) return NOT_NUMBER;
  k++;
  const below = k < e && load<u8>(k) == MINUS;
  if (k < e && (below || load<u8>(k) == PLUS)) k++;
  const exponentStart = k;
  let exponent = 0;
  for (; k < e && isDigit(load<u8>(k)); k++) exponent = min(exponent * 10 + <i32>(load<u8>(k) - ZERO), SURE_EXPONENT);
  if (k != e || k == exponentStart) return NOT_NUMBER;
  lastPower += below ? -exponent : exponent;
  if (exponent + digits < SURE_EXPONENT) return DECIMAL;
  // Past the doubles (1e400, or 1e-400 rounding to 0) it is text, as analyze reads it.
  const value = numberOf(s, <i32>(e - s));
  return isFinite(value) && (value != 0 || significant == 0) ? DECIMAL : NOT_NUMBER;
}

/** The double nearest to the number last classified, in [s, e), as DuckDB's cast and JavaScript round it. */
export function numberValue(s: usize, e: usize): f64 {
  if (lastPrecision > SAFE_DIGITS || lastPower > EXACT_POWER || lastPower < -EXACT_POWER) {
    return numberOf(s, <i32>(e - s));
  }
  const value = lastPower >= 0
    ? lastDigits * unchecked(POWERS[lastPower])
    : lastDigits / unchecked(POWERS[-lastPower]);
  return lastNegative ? -value : value;
}

/** The integer [s, e) spells, already known to fit 64 bits (a sign, then digits). */
export function integerValue(s: usize, e: usize): i64 {
  const negative = load<u8>(s) == MINUS;
  let k = negative || load<u8>(s) == PLUS ? s + 1 : s;
  // Summed below zero, where the smallest integer fits.
  let value: i64 = 0;
  for (; k < e; k++) value = value * 10 - <i64>(load<u8>(k) - ZERO);
  return negative ? value : -value;
}

/** `true` or `false` in any letter case (`| 32` lowers an ASCII letter). */
export function isBooleanWord(s: usize, e: usize): bool {
  const length = e - s;
  if (length == 4) {
    return (load<u32>(s) | 0x20202020) == 0x65757274;
  }
  if (length == 5) {
    return (load<u32>(s) | 0x20202020) == 0x736c6166 && (load<u8>(s + 4) | 32) == 101;
  }
  return false;
}
