// A typed import's column types: inferred from the values a sample of the
// file holds, or given by --schema, then checked field by field in the
// workers (a field that does not fit is a rejected row, never coerced).
import { classify, lastPrecision, ValueClass } from './value-class.js';

export const SqlType = {
  Integer: 'integer',
  Decimal: 'decimal',
  Boolean: 'boolean',
  Date: 'date',
  Timestamp: 'timestamp',
  Text: 'text',
} as const;
export type SqlType = (typeof SqlType)[keyof typeof SqlType];

const SQL_TYPES: readonly SqlType[] = Object.values(SqlType);

/**
 * The vocabulary's own string for `type`, which may be a copy (a worker's options are a structured clone): === on
 * two of the vocabulary's strings compares one pointer, on a copy its letters, for every field a worker checks.
 */
export function ownSqlType(type: SqlType): SqlType {
  return SQL_TYPES.find((own) => own === type)!;
}

/** Whether the field b[s..e) fits a column of `type`; decimals up to `precision` significant digits. */
export function fits(type: SqlType, b: Uint8Array, s: number, e: number, precision: number): boolean {
  if (type === SqlType.Text) return true;
  if (type === SqlType.Decimal) return fitsDecimal(b, s, e, precision);
  const found = classify(b, s, e);
  switch (found) {
    case ValueClass.Null: return true;
    case ValueClass.Integer: return type === SqlType.Integer;
    case ValueClass.Boolean: return type === SqlType.Boolean;
    case ValueClass.Date: return type === SqlType.Date || type === SqlType.Timestamp;
    case ValueClass.Timestamp: return type === SqlType.Timestamp;
    default: return false;
  }
}

/**
 * Whether the field b[s..e) fits a decimal column of `precision` significant digits: an integer or a decimal of
 * that many digits at most. The number it is stays readable as lastNumberValue's until the next field is classified.
 */
export function fitsDecimal(b: Uint8Array, s: number, e: number, precision: number): boolean {
  const found = classify(b, s, e);
  if (found === ValueClass.Null) return true;
  return (found === ValueClass.Integer || found === ValueClass.Decimal) && lastPrecision <= precision;
}

/** One column's values seen so far: the classes (a bit each) and the widest number's precision. */
export class TypeTally {
  private classes = 0;
  private precision = 0;

  add(b: Uint8Array, s: number, e: number): void {
    const found = classify(b, s, e);
    this.classes |= 1 << found;
    if (found === ValueClass.Integer || found === ValueClass.Decimal) {
      this.precision = Math.max(this.precision, lastPrecision);
    }
  }

  /** The narrowest type every value fits: text when the values mix kinds or none was seen. */
  type(maxPrecision: number): SqlType {
    const seen = this.classes & ~(1 << ValueClass.Null);
    const only = (...classes: ValueClass[]) =>
      seen !== 0 && (seen & ~classes.reduce((mask: number, c) => mask | (1 << c), 0)) === 0;
    if (only(ValueClass.Integer)) return SqlType.Integer;
    if (only(ValueClass.Integer, ValueClass.Decimal)) {
      return this.precision <= maxPrecision ? SqlType.Decimal : SqlType.Text;
    }
    if (only(ValueClass.Boolean)) return SqlType.Boolean;
    if (only(ValueClass.Date)) return SqlType.Date;
    if (only(ValueClass.Date, ValueClass.Timestamp)) return SqlType.Timestamp;
    return SqlType.Text;
  }
}
