// Columns whose values DuckDB would otherwise cast from text as it inserts:
// written in their own type, with the value that cast gives. The workers
// checked each field first (value-class.ts): an integer fits 64 bits, a
// decimal has at most 15 significant digits, a boolean is true or false in
// any letter case.
import { ColumnPages, PhysicalType } from './column-pages.js';

const MINUS = 45;
const PLUS = 43;
const DOT = 46;
/** `| 32` lowers an ASCII letter: t and T. */
const LOWER_T = 116;

/** Digits a double holds exactly in its integers, and more: up to 15 are read as a number. */
const SAFE_DIGITS = 15;
/** The powers of ten a double holds exactly. */
const EXACT_POWERS = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** The text b[from, to) (its bytes are ASCII: a number). */
const asText = (b: Uint8Array, from: number, to: number) =>
  Buffer.from(b.buffer, b.byteOffset + from, to - from).toString('latin1');

export class Int64Column extends ColumnPages {
  readonly physical = PhysicalType.Int64;

  add(b: Uint8Array, from: number, to: number): void {
    this.room(8);
    const signed = b[from] === MINUS || b[from] === PLUS;
    if (to - from - (signed ? 1 : 0) > SAFE_DIGITS) {
      this.view.setBigInt64(this.used, BigInt(asText(b, from, to)), true);
    } else {
      let value = 0;
      for (let k = signed ? from + 1 : from; k < to; k++) value = value * 10 + b[k]! - 48;
      if (b[from] === MINUS) value = -value;
      // Two's complement in two halves: the high one is the value's floor over 2^32.
      const high = Math.floor(value / 2 ** 32);
      this.view.setUint32(this.used, value - high * 2 ** 32, true);
      this.view.setInt32(this.used + 4, high, true);
    }
    this.used += 8;
    this.defineRow();
  }
}

/**
 * The double nearest to the decimal b[from, to), as DuckDB's cast (and JavaScript's Number) rounds it. Up to 15
 * digits and a power of ten up to 22 either way, the digits and the power are both exact doubles and one
 * multiplication or division rounds once, correctly; anything else is read by Number.
 */
export function doubleOf(b: Uint8Array, from: number, to: number): number {
  let k = from;
  const negative = b[k] === MINUS;
  if (negative || b[k] === PLUS) k++;
  let digits = 0;
  let count = 0;
  let scale = 0;
  let dot = false;
  for (; k < to; k++) {
    const c = b[k]!;
    if (c === DOT) dot = true;
    else if (c >= 48 && c <= 57) {
      digits = digits * 10 + c - 48;
      if (digits > 0) count++;
      if (dot) scale++;
    } else break;
  }
  let exponent = 0;
  if (k < to) {
    const sign = b[k + 1] === MINUS ? -1 : 1;
    let e = b[k + 1] === MINUS || b[k + 1] === PLUS ? k + 2 : k + 1;
    for (; e < to && exponent < 1000; e++) exponent = exponent * 10 + b[e]! - 48;
    exponent *= sign;
  }
  const power = exponent - scale;
  if (count > SAFE_DIGITS || power > 22 || power < -22) return Number(asText(b, from, to));
  const value = power >= 0 ? digits * EXACT_POWERS[power]! : digits / EXACT_POWERS[-power]!;
  return negative ? -value : value;
}

export class DoubleColumn extends ColumnPages {
  readonly physical = PhysicalType.Double;

  add(b: Uint8Array, from: number, to: number): void {
    this.room(8);
    this.view.setFloat64(this.used, doubleOf(b, from, to), true);
    this.used += 8;
    this.defineRow();
  }
}

/** Booleans are bits, first value lowest; each row group's start on a whole byte. */
export class BooleanColumn extends ColumnPages {
  readonly physical = PhysicalType.Boolean;
  /** Values in the current row group. */
  private bits = 0;

  add(b: Uint8Array, from: number): void {
    this.room(1);
    const at = this.groups.at(-1)!.at + (this.bits >> 3);
    if ((this.bits & 7) === 0) this.values[at] = 0;
    if ((b[from]! | 32) === LOWER_T) this.values[at]! |= 1 << (this.bits & 7);
    this.bits++;
    this.used = at + 1;
    this.defineRow();
  }

  protected override startGroup(): void {
    super.startGroup();
    this.bits = 0;
  }
}
