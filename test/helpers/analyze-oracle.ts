// An independent, sequential computation of `stint analyze`'s statistics:
// csv-parse reads the file, regular expressions classify values, and sums,
// extremes and means are exact fractions of BigInts. It shares no code with
// the scanner.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { topValues } from './stats-oracle.js';

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const BOOLEAN = /^(true|false)$/i;

/** An exact rational: numerator and positive denominator, both BigInt. */
export type Fraction = readonly [bigint, bigint];

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b));

function reduce([n, d]: Fraction): Fraction {
  const g = gcd(n, d) || 1n;
  return [n / g, d / g];
}

export const addFractions = (a: Fraction, b: Fraction): Fraction => reduce([a[0] * b[1] + b[0] * a[1], a[1] * b[1]]);
export const compareFractions = (a: Fraction, b: Fraction): number => {
  const d = a[0] * b[1] - b[0] * a[1];
  return d < 0n ? -1 : d > 0n ? 1 : 0;
};

/** A number's text as an exact fraction, read with a regular expression. */
export function fractionOf(text: string): Fraction {
  const [, sign, whole, part, exp] = /^([+-]?)(\d*)\.?(\d*)(?:[eE]([+-]?\d+))?$/.exec(text)!;
  let n = BigInt(`${whole}${part}` || '0') * (sign === '-' ? -1n : 1n);
  let d = 10n ** BigInt(part!.length);
  const e = Number(exp ?? 0);
  if (e >= 0) n *= 10n ** BigInt(e);
  else d *= 10n ** BigInt(-e);
  return reduce([n, d]);
}

/** The double nearest n/d: the quotient in units of 2^-1100 with a sticky bit, then one rounding by Number(). */
export function nearestDouble([n, d]: Fraction): number {
  const negative = n < 0n;
  const scaled = (negative ? -n : n) << 1100n;
  let q = scaled / d;
  if (q * d !== scaled) q |= 1n;
  const shift = Math.max(0, q.toString(2).length - 1000);
  if (shift > 0) q = (q >> BigInt(shift)) | (q & ((1n << BigInt(shift)) - 1n) ? 1n : 0n);
  const value = Number(q) * 2 ** -550 * 2 ** (shift - 550);
  return negative ? -value : value;
}

/** The fraction (a finite decimal) written as JS writes numbers (plain from 1e-7 to 1e21); an integer plain. */
export function decimalOf([n, d]: Fraction): string {
  if (d === 1n) return n.toString(); // an integer keeps all its digits
  let k = 0;
  while ((10n ** BigInt(k)) % d !== 0n) k++;
  const digits = ((n < 0n ? -n : n) * (10n ** BigInt(k)) / d).toString();
  const mantissa = digits.replace(/0+$/, '');
  const exponent = digits.length - 1 - k; // of the first digit
  const sign = n < 0n ? '-' : '';
  if (exponent >= 21 || exponent < -6) {
    const rest = mantissa.length > 1 ? `.${mantissa.slice(1)}` : '';
    return `${sign}${mantissa[0]}${rest}e${exponent < 0 ? '-' : '+'}${Math.abs(exponent)}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${mantissa}`;
  const padded = mantissa.padEnd(exponent + 1, '0');
  const fraction = padded.length > exponent + 1 ? `.${padded.slice(exponent + 1)}` : '';
  return `${sign}${padded.slice(0, exponent + 1)}${fraction}`;
}

/** In range for a double: finite, and not a nonzero value that rounds to 0. */
export const inDoubleRange = (text: string): boolean =>
  Number.isFinite(Number(text)) && (Number(text) !== 0 || fractionOf(text)[0] === 0n);

export interface OracleColumn {
  name: string;
  type: string;
  count: number;
  nulls: number;
  min: unknown;
  max: unknown;
  sum?: number;
  mean?: number;
  min_exact?: string;
  max_exact?: string;
  sum_exact?: string;
  min_length?: number;
  max_length?: number;
}

/** A column's values counted exactly: what analyze says while it has at most 2048 distinct ones. */
export interface OracleCounts {
  distinct: number;
  top_values: { value: string; count: number }[];
}

export interface OracleFile {
  rows: number;
  columns: OracleColumn[];
  counts: OracleCounts[];
  raggedLines: number[];
  raggedCount: number;
}

export function analyzeWithCsvParse(path: string): OracleFile {
  const text = readFileSync(path).toString('utf8');
  const records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true, info: true }) as unknown as { record: string[]; info: { lines: number } }[];
  const header = records[0]!.record;
  const width = header.length;
  const cols = header.map(() => ({ values: [] as string[], nulls: 0 }));
  let rows = 0;
  const raggedLines: number[] = [];
  let raggedCount = 0;
  const starts = recordStartLines(text);
  records.slice(1).forEach(({ record }, index) => {
    if (record.length !== width) {
      raggedCount++;
      if (raggedLines.length < 10) raggedLines.push(starts[index + 1]!);
      return;
    }
    rows++;
    record.forEach((value, k) => (value === '' ? cols[k]!.nulls++ : cols[k]!.values.push(value)));
  });
  const columns = header.map((name, k) => summarize(name, cols[k]!.values, cols[k]!.nulls));
  const counts = cols.map(({ values }) => ({
    distinct: new Set(values).size,
    top_values: topValues(values),
  }));
  return { rows, columns, counts, raggedLines, raggedCount };
}

/** The line each non-empty record starts on, read character by character. */
function recordStartLines(text: string): number[] {
  const starts: number[] = [];
  let line = 1;
  let inQuote = false;
  let atStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (atStart && !inQuote && (c === '\n' || (c === '\r' && text[i + 1] === '\n'))) {
      if (c === '\n') line++;
      continue;
    }
    if (atStart) {
      starts.push(line);
      atStart = false;
    }
    if (c === '"') inQuote = !inQuote;
    else if (c === '\n') {
      line++;
      if (!inQuote) atStart = true;
    }
  }
  return starts;
}

function summarize(name: string, values: string[], nulls: number): OracleColumn {
  const base = { name, count: values.length, nulls };
  if (values.length === 0) return { ...base, type: 'empty', min: null, max: null };
  const numeric = values.every((v) => NUMBER.test(v) && inDoubleRange(v));
  if (numeric) {
    const fractions = values.map(fractionOf);
    const type = values.every((v) => INTEGER.test(v)) ? 'integer' : 'number';
    const sum = fractions.reduce(addFractions, [0n, 1n] as Fraction);
    const min = fractions.reduce((a, b) => (compareFractions(b, a) < 0 ? b : a));
    const max = fractions.reduce((a, b) => (compareFractions(b, a) > 0 ? b : a));
    const mean = nearestDouble(reduce([sum[0], sum[1] * BigInt(values.length)]));
    const exact = { min_exact: decimalOf(min), max_exact: decimalOf(max), sum_exact: decimalOf(sum) };
    return { ...base, type, min: nearestDouble(min), max: nearestDouble(max), sum: nearestDouble(sum), mean, ...exact };
  }
  if (values.every((v) => BOOLEAN.test(v))) {
    const lower = values.map((v) => v.toLowerCase());
    return { ...base, type: 'boolean', min: !lower.includes('false'), max: lower.includes('true') };
  }
  const sorted = [...values].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const lengths = values.map((v) => [...v].length);
  return { ...base, type: 'string', min: sorted[0], max: sorted.at(-1), min_length: lengths.reduce((a, b) => Math.min(a, b)), max_length: lengths.reduce((a, b) => Math.max(a, b)) };
}
