// An independent, sequential computation of `stint analyze`'s statistics:
// csv-parse reads the file, regular expressions classify values, and sums
// are exact through BigInt. It shares no code with the scanner.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const BOOLEAN = /^(true|false)$/i;

/** A double as an exact multiple of 2^-1074. */
function toUnits(value: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  const sign = bits >> 63n ? -1n : 1n;
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & 0xfffffffffffffn;
  const mantissa = exponent === 0 ? fraction : fraction | (1n << 52n);
  const shift = exponent === 0 ? 0 : exponent - 1;
  return sign * (mantissa << BigInt(shift));
}

function fromUnits(units: bigint): number {
  // Number(bigint) rounds correctly but overflows past 2^1024: shift first,
  // keeping a sticky bit for what was shifted out, then scale by a power of two.
  const negative = units < 0n;
  let magnitude = negative ? -units : units;
  const shift = Math.max(0, magnitude.toString(2).length - 1000);
  if (shift > 0) {
    const sticky = magnitude & ((1n << BigInt(shift)) - 1n) ? 1n : 0n;
    magnitude = (magnitude >> BigInt(shift)) | sticky;
  }
  const value = Number(magnitude) * 2 ** (shift - 1074);
  return negative ? -value : value;
}

export interface OracleColumn {
  name: string;
  type: string;
  count: number;
  nulls: number;
  min: unknown;
  max: unknown;
  sum?: number;
  mean?: number;
  min_length?: number;
  max_length?: number;
}

export interface OracleFile {
  rows: number;
  columns: OracleColumn[];
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
  return { rows, columns, raggedLines, raggedCount };
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
  const numeric = values.every((v) => NUMBER.test(v) && Number.isFinite(Number(v)));
  if (numeric) {
    const numbers = values.map(Number);
    const type = values.every((v) => INTEGER.test(v)) ? 'integer' : 'number';
    const sum = fromUnits(numbers.reduce((acc, v) => acc + toUnits(v), 0n));
    return { ...base, type, min: numbers.reduce((a, b) => Math.min(a, b)), max: numbers.reduce((a, b) => Math.max(a, b)), sum, mean: sum / values.length };
  }
  if (values.every((v) => BOOLEAN.test(v))) {
    const lower = values.map((v) => v.toLowerCase());
    return { ...base, type: 'boolean', min: !lower.includes('false'), max: lower.includes('true') };
  }
  const sorted = [...values].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const lengths = values.map((v) => [...v].length);
  return { ...base, type: 'string', min: sorted[0], max: sorted.at(-1), min_length: lengths.reduce((a, b) => Math.min(a, b)), max_length: lengths.reduce((a, b) => Math.max(a, b)) };
}
