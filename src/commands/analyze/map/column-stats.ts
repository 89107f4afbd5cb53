// Column statistics shared by the worker-side map and the main-side fold.
import {
  beyond, decimalOfSum, exactOf, exactText, meanOf, mergedSum, nearestDouble, newDecimalSum, type DecimalSum,
} from './exact-decimal.js';
import {
  commonSummary, dateSummary, mergeExtras, newColumnExtras, numericSummary, type ColumnExtras,
} from './stats/column-extras.js';
import { ColumnType } from './column-type.js';
import { TOP } from './stats/frequent-values.js';

export { ColumnType } from './column-type.js';


/** Which kinds of value a column has held (bit set). */
export const Kind = { Integer: 1, Number: 2, Boolean: 4, String: 8 } as const;


export interface ColumnPartial {
  count: number;
  nulls: number;
  kinds: number;
  /** Numeric extremes: their doubles, and their exact text when a double does not say it (long values). */
  numMin: number;
  numMax: number;
  numMinText: string | null;
  numMaxText: string | null;
  /** The exact decimal sum of the numbers. */
  sum: DecimalSum;
  /** Number-shaped values beyond the doubles (1e400, 1e-400), read as strings. */
  outOfRange: number;
  sawFalse: boolean;
  sawTrue: boolean;
  /** Lexicographic (UTF-8 byte order) extremes over every non-empty value. */
  strMin: Uint8Array | null;
  strMax: Uint8Array | null;
  /** Extremes of length in code points over every non-empty value. */
  minLength: number;
  maxLength: number;
  /** Spread, quantiles, distinct count, frequent values, dates (stats/column-extras.ts). */
  extras: ColumnExtras;
}

/** Line numbers of one kind of anomaly: the first few, and how many in all. */
export interface LineSample {
  count: number;
  lines: number[];
}

export const LINE_SAMPLE_LIMIT = 10;

/** A chunk's (or a whole file's) statistics. Line numbers in a chunk's partial are offsets from its first line. */
export interface TableStats {
  rows: number;
  columns: ColumnPartial[];
  ragged: LineSample;
  invalidUtf8: LineSample;
}

export function newColumn(): ColumnPartial {
  return {
    count: 0, nulls: 0, kinds: 0, numMin: Infinity, numMax: -Infinity, numMinText: null, numMaxText: null,
    sum: newDecimalSum(), outOfRange: 0,
    sawFalse: false, sawTrue: false, strMin: null, strMax: null, minLength: Infinity, maxLength: -Infinity,
    extras: newColumnExtras(),
  };
}

export function newTableStats(width: number): TableStats {
  return {
    rows: 0,
    columns: Array.from({ length: width }, newColumn),
    ragged: { count: 0, lines: [] },
    invalidUtf8: { count: 0, lines: [] },
  };
}

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

function mergeSample(into: LineSample, from: LineSample, lineBase: number): void {
  for (const line of from.lines) if (into.lines.length < LINE_SAMPLE_LIMIT) into.lines.push(line + lineBase);
  into.count += from.count;
}

function mergeExtremes(a: ColumnPartial, b: ColumnPartial): void {
  if (beyond(-1, b.numMin, b.numMinText, a.numMin, a.numMinText)) {
    a.numMin = b.numMin;
    a.numMinText = b.numMinText;
  }
  if (beyond(1, b.numMax, b.numMaxText, a.numMax, a.numMaxText)) {
    a.numMax = b.numMax;
    a.numMaxText = b.numMaxText;
  }
}

/** Folds a later chunk's stats into the running total; `lineBase` turns its offsets into line numbers. */
export function mergeTableStats(into: TableStats, from: TableStats, lineBase: number): void {
  into.rows += from.rows;
  mergeSample(into.ragged, from.ragged, lineBase);
  mergeSample(into.invalidUtf8, from.invalidUtf8, lineBase);
  from.columns.forEach((b, index) => {
    const a = into.columns[index]!;
    a.count += b.count;
    a.nulls += b.nulls;
    a.kinds |= b.kinds;
    mergeExtremes(a, b);
    a.sum = mergedSum(a.sum, b.sum);
    a.outOfRange += b.outOfRange;
    a.sawFalse ||= b.sawFalse;
    a.sawTrue ||= b.sawTrue;
    if (b.strMin && (!a.strMin || compareBytes(b.strMin, a.strMin) < 0)) a.strMin = b.strMin;
    if (b.strMax && (!a.strMax || compareBytes(b.strMax, a.strMax) > 0)) a.strMax = b.strMax;
    if (b.minLength < a.minLength) a.minLength = b.minLength;
    if (b.maxLength > a.maxLength) a.maxLength = b.maxLength;
    mergeExtras(a.extras, b.extras);
  });
}

export function columnType(kinds: number): ColumnType {
  if (kinds === 0) return ColumnType.Empty;
  if (kinds === Kind.Integer) return ColumnType.Integer;
  if ((kinds & ~(Kind.Integer | Kind.Number)) === 0) return ColumnType.Number;
  if (kinds === Kind.Boolean) return ColumnType.Boolean;
  return ColumnType.String;
}

/** One column of the result, as `stint analyze` reports it. */
export interface ColumnSummary {
  readonly name: string;
  readonly type: ColumnType;
  readonly count: number;
  readonly nulls: number;
  /** By the column's type: numbers (the nearest double) for integer and number, booleans, strings, or null. */
  readonly min: number | string | boolean | null;
  readonly max: number | string | boolean | null;
  readonly sum?: number;
  readonly mean?: number;
  /** Integer and number columns: the exact digits of min, max and sum, always strings (a double rounds past 2^53). */
  readonly min_exact?: string;
  readonly max_exact?: string;
  readonly sum_exact?: string;
  readonly min_length?: number;
  readonly max_length?: number;
  readonly null_percentage?: number;
  readonly distinct?: number;
  readonly distinct_exact?: boolean;
  /** 0 when exact, else the estimate's relative error bound. */
  readonly distinct_relative_error?: number;
  readonly top_values?: readonly { readonly value: string; readonly count: number }[];
  readonly top_values_exact?: boolean;
  readonly top_values_error?: number;
  /** Not exact and no value counted more often than the error: none can be told from the rest. */
  readonly top_values_below_error?: boolean;
  readonly stddev?: number;
  readonly variance?: number;
  readonly q25?: number;
  readonly q50?: number;
  readonly q75?: number;
  /** 0 when the quartiles are exact, else their rank error bound as a share of the values. */
  readonly quartile_rank_error?: number;
}

const decoder = new TextDecoder();

/** A column's statistics, listing its `top` most frequent values. */
export function summarizeColumn(name: string, c: ColumnPartial, top = TOP): ColumnSummary {
  const dates = columnType(c.kinds) === ColumnType.String ? dateSummary(c.extras, c.count) : undefined;
  if (dates) {
    const type = dates.timed ? ColumnType.Timestamp : ColumnType.Date;
    const { min, max } = dates;
    return { name, type, count: c.count, nulls: c.nulls, min, max, ...commonSummary(c.extras, c.count, c.nulls, top) };
  }
  const basic = basicSummary(name, c);
  const numeric = basic.type === ColumnType.Integer || basic.type === ColumnType.Number;
  return { ...basic, ...(numeric ? numericSummary(c.extras) : {}), ...commonSummary(c.extras, c.count, c.nulls, top) };
}

function basicSummary(name: string, c: ColumnPartial): ColumnSummary {
  const type = columnType(c.kinds);
  const base = { name, type, count: c.count, nulls: c.nulls };
  switch (type) {
    case ColumnType.Integer:
    case ColumnType.Number: {
      const sum = decimalOfSum(c.sum);
      const min = exactOf(c.numMin, c.numMinText);
      const max = exactOf(c.numMax, c.numMaxText);
      return {
        ...base, min: nearestDouble(min), max: nearestDouble(max), sum: nearestDouble(sum), mean: meanOf(sum, c.count),
        min_exact: exactText(min), max_exact: exactText(max), sum_exact: exactText(sum),
      };
    }
    case ColumnType.Boolean:
      return { ...base, min: !c.sawFalse, max: c.sawTrue };
    case ColumnType.String:
      return {
        ...base,
        min: decoder.decode(c.strMin!),
        max: decoder.decode(c.strMax!),
        min_length: c.minLength,
        max_length: c.maxLength,
      };
    default:
      return { ...base, min: null, max: null };
  }
}

