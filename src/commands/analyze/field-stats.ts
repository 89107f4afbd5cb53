// One field folded into its column: the JavaScript reference for what the
// WebAssembly scanner (wasm/csv-scan.ts) does per field, and the path for
// the fields it hands back (numbers that need a full decimal parse).
import { addExact, roundExact, Kind, type ColumnPartial } from './column-stats.js';

const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);
const MAX_FAST_DIGITS = 15;
/** Integer sums stay exact in a double below this; past it they move to the exact partials. */
const EXACT_INT = 2 ** 52;

function noteString(col: ColumnPartial, b: Uint8Array, s: number, e: number, codePoints: number): void {
  // The first byte settles most comparisons without a call.
  const first = b[s]!;
  const min = col.strMin;
  if (min === null || (first <= min[0]! && compareRange(b, s, e, min) < 0)) col.strMin = new Uint8Array(b.subarray(s, e));
  const max = col.strMax;
  if (max === null || (first >= max[0]! && compareRange(b, s, e, max) > 0)) col.strMax = new Uint8Array(b.subarray(s, e));
  if (codePoints < col.minLength) col.minLength = codePoints;
  if (codePoints > col.maxLength) col.maxLength = codePoints;
}

function compareRange(b: Uint8Array, s: number, e: number, other: Uint8Array): number {
  const n = Math.min(e - s, other.length);
  for (let i = 0; i < n; i++) {
    const d = b[s + i]! - other[i]!;
    if (d !== 0) return d;
  }
  return e - s - other.length;
}

function noteNumber(col: ColumnPartial, value: number, kind: number): void {
  col.kinds |= kind;
  if (value < col.numMin) col.numMin = value;
  if (value > col.numMax) col.numMax = value;
  if (kind === Kind.Integer && value < EXACT_INT && value > -EXACT_INT) {
    const sum = col.intSum + value;
    if (sum < EXACT_INT && sum > -EXACT_INT) {
      col.intSum = sum;
      return;
    }
  }
  addExact(col.sum, value);
}

const SPLITTER = 134217729; // 2^27 + 1, Veltkamp's split for exact products
const scratch: number[] = [];

/** The correctly rounded value of a·10^d + b for integers a < 10^15, b < 10^d, d ≤ 15 (no string made). */
function exactDecimal(a: number, d: number, b: number): number {
  const m = POW10[d]!;
  const p = a * m;
  let c = SPLITTER * a;
  const ah = c - (c - a);
  const al = a - ah;
  c = SPLITTER * m;
  const mh = c - (c - m);
  const ml = m - mh;
  const e = ((ah * mh - p) + ah * ml + al * mh) + al * ml; // a·m = p + e exactly
  while (scratch.length > 0) scratch.pop();
  addExact(scratch, p);
  addExact(scratch, e);
  addExact(scratch, b);
  return roundExact(scratch);
}

/**
 * Classifies one non-empty value and folds it into its column. Numbers are
 * read from the bytes: up to 15 significant digits with a decimal exponent
 * of at most 22 by one exact operation (correctly rounded, as Number()
 * would), long integers exactly, anything else through Number().
 */
export function processField(col: ColumnPartial, b: Uint8Array, s: number, e: number): void {
  const len = e - s;
  if (len === 0) {
    col.nulls++;
    return;
  }
  col.count++;
  let k = s;
  let c = b[k]!;
  const negative = c === 45;
  if (c === 45 || c === 43) k++;
  let digits = 0;
  let fraction = 0;
  let dot = false;
  let mantissa = 0;
  let head = 0; // the first 15 digits, for long integers
  while (k < e) {
    c = b[k]!;
    if (c >= 48 && c <= 57) {
      digits++;
      if (digits <= MAX_FAST_DIGITS) head = mantissa = mantissa * 10 + (c - 48);
      if (dot) fraction++;
    } else if (c === 46 && !dot) {
      dot = true;
    } else break;
    k++;
  }
  if (digits > 0) {
    let exponent = 0;
    let ok = k === e;
    let hasExponent = false;
    if (!ok && (c === 101 || c === 69)) {
      k++;
      let sign = 1;
      if (k < e && (b[k] === 43 || b[k] === 45)) sign = b[k++] === 45 ? -1 : 1;
      const expStart = k;
      while (k < e && b[k]! >= 48 && b[k]! <= 57) exponent = Math.min(exponent * 10 + (b[k++]! - 48), 1e6);
      ok = k === e && k > expStart;
      exponent *= sign;
      hasExponent = true;
    }
    if (ok) {
      let value: number;
      const scale = exponent - fraction;
      if (digits <= MAX_FAST_DIGITS && scale >= -22 && scale <= 22) {
        value = scale >= 0 ? mantissa * POW10[scale]! : mantissa / POW10[-scale]!;
        if (negative) value = -value;
      } else if (!dot && !hasExponent && digits <= 2 * MAX_FAST_DIGITS) {
        let tail = 0;
        for (let i = e - (digits - MAX_FAST_DIGITS); i < e; i++) tail = tail * 10 + (b[i]! - 48);
        value = exactDecimal(head, digits - MAX_FAST_DIGITS, tail);
        if (negative) value = -value;
      } else {
        value = Number(Buffer.from(b.buffer, b.byteOffset + s, e - s).toString('latin1'));
      }
      if (Number.isFinite(value)) {
        noteNumber(col, value, dot || hasExponent ? Kind.Number : Kind.Integer);
        noteString(col, b, s, e, len);
        return;
      }
    }
  }
  if (len === 4 && (b[s]! | 32) === 116 && (b[s + 1]! | 32) === 114 && (b[s + 2]! | 32) === 117 && (b[s + 3]! | 32) === 101) {
    col.kinds |= Kind.Boolean;
    col.sawTrue = true;
    noteString(col, b, s, e, len);
    return;
  }
  if (len === 5 && (b[s]! | 32) === 102 && (b[s + 1]! | 32) === 97 && (b[s + 2]! | 32) === 108 && (b[s + 3]! | 32) === 115 && (b[s + 4]! | 32) === 101) {
    col.kinds |= Kind.Boolean;
    col.sawFalse = true;
    noteString(col, b, s, e, len);
    return;
  }
  col.kinds |= Kind.String;
  let codePoints = 0;
  for (let i = s; i < e; i++) if ((b[i]! & 0xc0) !== 0x80) codePoints++;
  noteString(col, b, s, e, codePoints);
}
