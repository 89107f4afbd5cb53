// One field folded into its column, in JavaScript: the path for the fields
// the WebAssembly scanner (wasm/csv-scan.ts) hands back (numbers that need a
// full decimal parse), and a plain statement of what it computes per field.
import { Kind, type ColumnPartial } from './column-stats.js';
import { addToSum, beyond, decimalText, parseDecimal, type Decimal } from './exact-decimal.js';
import { observeNumber, observeText } from './stats/column-extras.js';

function noteString(col: ColumnPartial, b: Uint8Array, s: number, e: number, codePoints: number): void {
  observeText(col.extras, b, s, e);
  // The first byte settles most comparisons without a call.
  const first = b[s]!;
  const min = col.strMin;
  if (min === null || (first <= min[0]! && compareRange(b, s, e, min) < 0)) {
    col.strMin = new Uint8Array(b.subarray(s, e));
  }
  const max = col.strMax;
  if (max === null || (first >= max[0]! && compareRange(b, s, e, max) > 0)) {
    col.strMax = new Uint8Array(b.subarray(s, e));
  }
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

function noteNumber(col: ColumnPartial, value: number, kind: number, decimal: Decimal): void {
  observeNumber(col.extras, value);
  col.kinds |= kind;
  addToSum(col.sum, decimal);
  if (value > col.numMin && value < col.numMax) return; // most values: no text is needed
  const exact = decimalText(decimal);
  const text = String(value) === exact ? null : exact;
  if (beyond(-1, value, text, col.numMin, col.numMinText)) {
    col.numMin = value;
    col.numMinText = text;
  }
  if (beyond(1, value, text, col.numMax, col.numMaxText)) {
    col.numMax = value;
    col.numMaxText = text;
  }
}

/** `true` in any letter case (`| 32` lowers an ASCII letter). */
function isTrueWord(b: Uint8Array, s: number, len: number): boolean {
  return len === 4
    && (b[s]! | 32) === 116 && (b[s + 1]! | 32) === 114 && (b[s + 2]! | 32) === 117 && (b[s + 3]! | 32) === 101;
}

/** `false` in any letter case. */
function isFalseWord(b: Uint8Array, s: number, len: number): boolean {
  return len === 5
    && (b[s]! | 32) === 102 && (b[s + 1]! | 32) === 97 && (b[s + 2]! | 32) === 108 && (b[s + 3]! | 32) === 115
    && (b[s + 4]! | 32) === 101;
}

/**
 * Classifies one value and folds it into its column. A number (an optional
 * sign, digits with at most one dot, an optional exponent) is read by
 * Number(), which rounds correctly, for its double, and exactly as a decimal
 * for its sum and extremes: the scanner's fast paths give the same, so either
 * side may fold any field.
 */
export function processField(col: ColumnPartial, b: Uint8Array, s: number, e: number): void {
  const len = e - s;
  if (len === 0) {
    col.nulls++;
    return;
  }
  col.count++;
  let k = s;
  if (b[k] === 45 || b[k] === 43) k++;
  let digits = 0;
  let nonzero = false;
  let dot = false;
  for (; k < e; k++) {
    const c = b[k]!;
    if (c >= 48 && c <= 57) {
      digits++;
      nonzero ||= c !== 48;
    }
    else if (c === 46 && !dot) dot = true;
    else break;
  }
  if (digits > 0) {
    let ok = k === e;
    let hasExponent = false;
    if (!ok && (b[k] === 101 || b[k] === 69)) {
      hasExponent = true;
      k++;
      if (k < e && (b[k] === 43 || b[k] === 45)) k++;
      const expStart = k;
      while (k < e && b[k]! >= 48 && b[k]! <= 57) k++;
      ok = k === e && k > expStart;
    }
    if (ok) {
      const text = Buffer.from(b.buffer, b.byteOffset + s, len).toString('latin1');
      const value = Number(text);
      // Beyond the doubles (overflow, or a nonzero value that rounds to 0) a value is a string: see docs/cli.md.
      if (Number.isFinite(value) && (value !== 0 || !nonzero)) {
        noteNumber(col, value, dot || hasExponent ? Kind.Number : Kind.Integer, parseDecimal(text));
        noteString(col, b, s, e, len);
        return;
      }
      col.outOfRange++;
    }
  }
  if (isTrueWord(b, s, len)) {
    col.kinds |= Kind.Boolean;
    col.sawTrue = true;
    noteString(col, b, s, e, len);
    return;
  }
  if (isFalseWord(b, s, len)) {
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
