// The statistics beyond count/min/max/sum of one column, each mergeable
// (stats/*.ts): moments, quantiles, distinct count, frequent values, dates.
// Fields reach them from the scanner (csv-scanner.ts) or the JavaScript path
// (field-stats.ts): every non-empty value's text, and every number's value.
// A column's values are tallied exactly while it holds at most EXACT_LIMIT
// distinct ones; past that, a HyperLogLog counts them and a Misra-Gries
// summary keeps the frequent ones, each seeded from the tally it replaces.
import { addDate, mergeDates, newDateRange, settleDates, type DateRange } from './date-range.js';
import {
  addRegister, EXACT_LIMIT, estimateDistinct, mergeRegisters, newRegisters, RELATIVE_ERROR,
} from './distinct-count.js';
import { fieldHash } from './field-hash.js';
import { EVERY_SKETCH, Sketch } from './sketch.js';
import {
  addFrequent, cutFrequent, mergeFrequent, newFrequentValues, settleFrequent, rankedValues, TOP, type FrequentValues,
} from './frequent-values.js';
import { addMoment, mergeMoments, newMoments, sampleVariance, type Moments } from './moments.js';
import {
  addQuantileValue, mergeQuantiles, newQuantileSketch, packQuantiles, quantilesOf, type QuantileSketch,
} from './quantile-sketch.js';
import {
  addTallied, entriesOf, mergeTally, newValueTally, packTally, settleTally, type ValueTally,
} from './value-tally.js';

/** What this thread's chunks keep now: set for each chunk (keepSketches), as the scanner is configured for it. */
let kept: number = EVERY_SKETCH;

export function keepSketches(which: number): void {
  kept = which;
}

/** The quartiles' rank error bound, as a share of the values (quantile-sketch.ts), once the sketch has compacted. */
export const QUARTILE_RANK_ERROR = 0.01;

export interface ColumnExtras {
  moments: Moments;
  quantiles: QuantileSketch;
  /** Exact counts while the column has at most EXACT_LIMIT distinct values; null after. */
  tally: ValueTally | null;
  /** HyperLogLog registers once the tally is gone; null before. */
  registers: Uint8Array | null;
  /** The Misra-Gries summary once the tally is gone (empty before). */
  frequent: FrequentValues;
  dates: DateRange;
}

export function newColumnExtras(): ColumnExtras {
  return {
    moments: newMoments(),
    quantiles: newQuantileSketch(),
    tally: newValueTally(),
    registers: null,
    frequent: newFrequentValues(),
    dates: newDateRange(),
  };
}

/**
 * A tally's values added to registers, and their summary as the frequent values hold one. Adding each value to
 * the registers gives what merging the registers of the tally alone would, without 32 KiB made and merged per
 * chunk and column (a wide table's chunks each bring a small tally to columns long past the exact range).
 */
function sketchInto(registers: Uint8Array, t: ValueTally): FrequentValues {
  const { keys, counts } = entriesOf(t);
  for (let i = 0; i < t.size; i++) addRegister(registers, keys[i]!);
  return cutFrequent(t.size, keys, counts, t.values, t.spans);
}

/** Past the exact range: the tally's values go to the sketches. */
function overflow(x: ColumnExtras): void {
  x.registers = newRegisters();
  x.frequent = sketchInto(x.registers, x.tally!);
  x.tally = null;
}

/** A non-empty value's text, bytes s..e of `b`, with its hash (fieldHash) when the caller has it. */
export function observeText(x: ColumnExtras, b: Uint8Array, s: number, e: number, hash?: number): void {
  addDate(x.dates, b, s, e);
  if ((kept & Sketch.Values) === 0) return;
  hash ??= fieldHash(b, s, e);
  if (x.tally) {
    addTallied(x.tally, hash, s, e);
    if (x.tally.size > EXACT_LIMIT) overflow(x);
  } else {
    addRegister(x.registers!, hash);
    addFrequent(x.frequent, hash, s, e);
  }
}

/** A value that is a number. */
export function observeNumber(x: ColumnExtras, value: number): void {
  if ((kept & Sketch.Spread) === 0) return;
  addMoment(x.moments, value);
  addQuantileValue(x.quantiles, value);
}

/** Reads what still points into the chunk's bytes `b`: call before the chunk's memory is reused. */
export function settleExtras(x: ColumnExtras, b: Buffer): void {
  if (x.tally) settleTally(x.tally, b);
  settleFrequent(x.frequent, b);
  settleDates(x.dates, b);
}

/** Readies a chunk's partial for the trip to the main thread: one buffer, not a number per item, to clone. */
export function packExtras(x: ColumnExtras): void {
  packQuantiles(x.quantiles);
  if (x.tally) packTally(x.tally);
}

/** Folds a settled chunk's values `b` into `a`: tallies while both have one and the union fits. */
function mergeCounts(a: ColumnExtras, b: ColumnExtras): void {
  if (a.tally && b.tally) {
    mergeTally(a.tally, b.tally);
    if (a.tally.size > EXACT_LIMIT) overflow(a);
    return;
  }
  if (a.tally) overflow(a);
  if (b.tally) {
    mergeFrequent(a.frequent, sketchInto(a.registers!, b.tally));
    return;
  }
  mergeRegisters(a.registers!, b.registers!);
  mergeFrequent(a.frequent, b.frequent);
}

export function mergeExtras(a: ColumnExtras, b: ColumnExtras): void {
  mergeMoments(a.moments, b.moments);
  mergeQuantiles(a.quantiles, b.quantiles);
  mergeCounts(a, b);
  mergeDates(a.dates, b.dates);
}

/** The distinct count: exact from the tally, else the estimate held between what is known for sure. */
function distinctSummary(x: ColumnExtras, count: number) {
  if (x.tally) return { distinct: x.tally.size, distinct_exact: true, distinct_relative_error: 0 };
  // Past the tally more than EXACT_LIMIT values were seen, and no column has more distinct values than values.
  const estimate = Math.min(count, Math.max(EXACT_LIMIT + 1, estimateDistinct(x.registers!)));
  return { distinct: estimate, distinct_exact: false, distinct_relative_error: RELATIVE_ERROR };
}

/**
 * The most frequent, each seen more than once: a value seen once is no more
 * frequent than any other, and listing the first few of a column of unique
 * values would be noise. Exact from the tally; from the summary, only values
 * counted more often than its error (the others cannot be told from values
 * the summary dropped), the first `top` of them. `top_values_below_error`: none was, though values exist.
 */
function topSummary(x: ColumnExtras, count: number, top: number) {
  if (x.tally) {
    const { counts } = entriesOf(x.tally);
    const listed = rankedValues(x.tally.size, counts, x.tally.values).filter(repeated).slice(0, top);
    return { top_values: listed, top_values_exact: true, top_values_error: 0, top_values_below_error: false };
  }
  const f = x.frequent;
  const qualified = rankedValues(f.size, f.counts, f.values).filter((t) => repeated(t) && t.count > f.error);
  return {
    top_values: qualified.slice(0, top), top_values_exact: false, top_values_error: f.error,
    top_values_below_error: qualified.length === 0 && count > 0,
  };
}

const repeated = (t: { count: number }): boolean => t.count > 1;

/** The statistics for every column: null share, distinct values, the `top` most frequent. */
export function commonSummary(x: ColumnExtras, count: number, nulls: number, top = TOP) {
  return {
    null_percentage: count + nulls === 0 ? 0 : (100 * nulls) / (count + nulls),
    ...distinctSummary(x, count),
    ...topSummary(x, count, top),
  };
}

/** True while the sketch holds every value at weight 1 (it never compacted): its quartiles are exact. */
function quantilesExact(s: QuantileSketch): boolean {
  const lengths = s.packed ? s.packed.lengths : s.levels.map((level) => level.length);
  return lengths.every((length, h) => h === 0 || length === 0);
}

/** The statistics of a numeric column: spread and quartiles. */
export function numericSummary(x: ColumnExtras) {
  const variance = sampleVariance(x.moments);
  const [q25, q50, q75] = quantilesOf(x.quantiles, [0.25, 0.5, 0.75]);
  const quartile_rank_error = quantilesExact(x.quantiles) ? 0 : QUARTILE_RANK_ERROR;
  return {
    ...(variance === undefined ? {} : { stddev: Math.sqrt(variance), variance }),
    ...(q25 === undefined ? {} : { q25, q50, q75, quartile_rank_error }),
  };
}

/** When every value of the column was a date or timestamp (`timed`: any had a time): the extremes' text. */
export function dateSummary(x: ColumnExtras, count: number) {
  const d = x.dates;
  if (count === 0 || d.count !== count) return undefined;
  return { timed: d.timed > 0, min: d.minText, max: d.maxText };
}
