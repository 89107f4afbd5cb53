// Columns whose values DuckDB would otherwise cast from text as it inserts:
// written in their own type, with the value that cast gives. Each field
// was checked before it is added (value-class.ts): an integer fits 64 bits,
// a decimal has at most 15 significant digits, a boolean is true or false
// in any letter case.
import { classify, lastNumberValue, SAFE_DIGITS } from '../../value-class.js';
import { ColumnPages, GROUP_ROWS, PhysicalType } from './column-pages.js';

const MINUS = 45;
const PLUS = 43;
/** `| 32` lowers an ASCII letter: t and T. */
const LOWER_T = 116;

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

export class DoubleColumn extends ColumnPages {
  readonly physical = PhysicalType.Double;

  add(b: Uint8Array, from: number, to: number): void {
    // Classifying the field is reading its number: lastNumberValue gives it.
    classify(b, from, to);
    this.addNumber(lastNumberValue(b, from, to));
  }

  addNumber(value: number): void {
    this.room(8);
    this.view.setFloat64(this.used, value, true);
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

  override undoRow(): boolean {
    const valued = super.undoRow();
    // A row that started its row group took the group with it; the next row starts it again, at bit 0.
    if (valued && this.rows % GROUP_ROWS !== 0) {
      this.bits--;
      this.values[this.groups.at(-1)!.at + (this.bits >> 3)]! &= ~(1 << (this.bits & 7));
    }
    return valued;
  }

  protected override startGroup(): void {
    super.startGroup();
    this.bits = 0;
  }
}
