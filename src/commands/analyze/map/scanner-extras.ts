// The added statistics the WebAssembly scanner kept in its memory for one
// chunk (wasm/column-extras.ts), turned into their mergeable stats/*.ts forms
// once per chunk and column: per value nothing of them crosses into JavaScript.
import type { ColumnExtras } from './stats/column-extras.js';
import { HLL_BITS } from './stats/distinct-count.js';
import { mergeFrequent, newFrequentValues, type FrequentValues } from './stats/frequent-values.js';
import { appendQuantileLevel, sweepQuantiles } from './stats/quantile-sketch.js';
import { newValueTally, type ValueTally } from './stats/value-tally.js';

/** The scanner's per-column layout of them (exported by name from wasm/column-extras.ts). */
export const EXTRAS_CONSTANT_NAMES = [
  'EXACT_LIMIT', 'HLL_BITS', 'FREQUENT_SLOTS', 'EXTRAS_BYTES', 'X_N', 'X_MEAN', 'X_M2',
  'X_FREQUENT_ERROR', 'X_DATE_MIN', 'X_DATE_MAX', 'X_DISTINCT_SIZE', 'X_SKETCH', 'X_FREQUENT_SIZE',
  'X_DATES', 'X_TIMED', 'X_DATE_MIN_PTR', 'X_DATE_MIN_LEN', 'X_DATE_MAX_PTR', 'X_DATE_MAX_LEN', 'X_TABLE',
  'X_TALLY_COUNTS', 'X_TALLY_SPANS',
  'X_FREQUENT_KEYS', 'X_FREQUENT_COUNTS', 'X_FREQUENT_SPANS', 'X_QUANTILE_LEVELS', 'QUANTILE_BUFFER',
  'QUANTILE_LEVELS', 'LEVEL_ITEMS', 'TALLY_SLOTS', 'LEVEL_STRIDE',
] as const;
export type ExtrasConstants = Record<(typeof EXTRAS_CONSTANT_NAMES)[number], number>;
/** Those the scanner sets anew for each chunk's size (its configure): read again after it. */
export const EXTRAS_LAYOUT_NAMES = [
  'EXTRAS_BYTES', 'TALLY_SLOTS', 'X_TALLY_COUNTS', 'X_TALLY_SPANS', 'X_FREQUENT_KEYS', 'X_FREQUENT_COUNTS',
  'X_FREQUENT_SPANS', 'X_QUANTILE_LEVELS', 'LEVEL_STRIDE',
] as const;

/** A u64 below 2^53 (the hashes) at `at`. */
const u53 = (memory: Buffer, at: number) => memory.readUInt32LE(at + 4) * 0x100000000 + memory.readUInt32LE(at);

/** The tally: its slots in the scanner's order (the hash's), each value's text read once. */
function tallyAt(k: ExtrasConstants, memory: Buffer, x: number): ValueTally {
  const t = newValueTally();
  const size = memory.readInt32LE(x + k.X_DISTINCT_SIZE);
  for (let i = 0; i < k.TALLY_SLOTS && t.size < size; i++) {
    const key = u53(memory, x + k.X_TABLE + 8 * i);
    if (key === 0) continue;
    const ptr = memory.readInt32LE(x + k.X_TALLY_SPANS + 8 * i);
    t.keys.push(key);
    t.counts.push(memory.readUInt32LE(x + k.X_TALLY_COUNTS + 4 * i));
    t.values.push(memory.toString('utf8', ptr, ptr + memory.readInt32LE(x + k.X_TALLY_SPANS + 8 * i + 4)));
    t.spans.push(-1, -1);
    t.size++;
  }
  return t;
}

/** The chunk's counters with their text, cut to the merged summary's CAPACITY as a merge cuts. */
function frequentAt(k: ExtrasConstants, memory: Buffer, x: number): FrequentValues {
  const size = memory.readInt32LE(x + k.X_FREQUENT_SIZE);
  const raw: FrequentValues = {
    size, keys: [], counts: [], values: [], spans: new Array<number>(2 * size).fill(-1),
    error: memory.readDoubleLE(x + k.X_FREQUENT_ERROR),
  };
  for (let i = 0; i < size; i++) {
    raw.keys.push(u53(memory, x + k.X_FREQUENT_KEYS + 8 * i));
    raw.counts.push(memory.readUInt32LE(x + k.X_FREQUENT_COUNTS + 4 * i));
    const ptr = memory.readInt32LE(x + k.X_FREQUENT_SPANS + 8 * i);
    raw.values.push(memory.toString('utf8', ptr, ptr + memory.readInt32LE(x + k.X_FREQUENT_SPANS + 8 * i + 4)));
  }
  const cut = newFrequentValues();
  mergeFrequent(cut, raw);
  return cut;
}

function textAt(memory: Buffer, x: number, ptrAt: number, lenAt: number): string {
  const len = memory.readInt32LE(x + lenAt);
  const ptr = memory.readInt32LE(x + ptrAt);
  return len > 0 ? memory.toString('utf8', ptr, ptr + len) : '';
}

/** A column's statistics (record at `x`) into `into` (a new column's extras). */
export function extrasInMemory(k: ExtrasConstants, memory: Buffer, x: number, into: ColumnExtras): void {
  const float = (offset: number) => memory.readDoubleLE(x + offset);
  const int = (offset: number) => memory.readInt32LE(x + offset);
  into.moments = { n: float(k.X_N), mean: float(k.X_MEAN), m2: float(k.X_M2) };
  if (int(k.X_SKETCH) === 0) into.tally = tallyAt(k, memory, x);
  else {
    const table = x + k.X_TABLE;
    into.tally = null;
    into.registers = new Uint8Array(memory.subarray(table, table + (1 << HLL_BITS)));
    into.frequent = frequentAt(k, memory, x);
  }
  into.dates = {
    count: int(k.X_DATES), timed: int(k.X_TIMED), min: float(k.X_DATE_MIN), max: float(k.X_DATE_MAX),
    minText: textAt(memory, x, k.X_DATE_MIN_PTR, k.X_DATE_MIN_LEN),
    maxText: textAt(memory, x, k.X_DATE_MAX_PTR, k.X_DATE_MAX_LEN),
    minStart: -1, minEnd: -1, maxStart: -1, maxEnd: -1,
  };
  const levels = x + k.X_QUANTILE_LEVELS;
  for (let h = 0; h < k.QUANTILE_LEVELS; h++) {
    const items = memory.byteOffset + levels + k.LEVEL_ITEMS + 8 * h * k.LEVEL_STRIDE;
    appendQuantileLevel(into.quantiles, h, new Float64Array(memory.buffer, items, int(k.X_QUANTILE_LEVELS + 4 * h)));
  }
  sweepQuantiles(into.quantiles);
}
