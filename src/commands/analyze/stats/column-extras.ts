// The statistics beyond count/min/max/sum of one column, each mergeable
// (stats/*.ts): moments, quantiles, distinct count, frequent values, dates.
// Fields reach them from the scanner (csv-scanner.ts) or the JavaScript path
// (field-stats.ts): every non-empty value's text, and every number's value.
import { addDate, mergeDates, newDateRange, settleDates, type DateRange } from './date-range.js';
import {
  addDistinct, distinctOf, mergeDistinct, newDistinctCount, packDistinct, type DistinctCount,
} from './distinct-count.js';
import { fieldHash } from './field-hash.js';
import {
  addFrequent, mergeFrequent, newFrequentValues, settleFrequent, topValues, type FrequentValues,
} from './frequent-values.js';
import { addMoment, mergeMoments, newMoments, sampleVariance, type Moments } from './moments.js';
import {
  addQuantileValue, mergeQuantiles, newQuantileSketch, packQuantiles, quantilesOf, type QuantileSketch,
} from './quantile-sketch.js';

export interface ColumnExtras {
  moments: Moments;
  quantiles: QuantileSketch;
  distinct: DistinctCount;
  frequent: FrequentValues;
  dates: DateRange;
}

export function newColumnExtras(): ColumnExtras {
  return {
    moments: newMoments(),
    quantiles: newQuantileSketch(),
    distinct: newDistinctCount(),
    frequent: newFrequentValues(),
    dates: newDateRange(),
  };
}

/** A non-empty value's text, bytes s..e of `b`, with its hash (fieldHash) when the caller has it. */
export function observeText(x: ColumnExtras, b: Uint8Array, s: number, e: number, hash = fieldHash(b, s, e)): void {
  addDistinct(x.distinct, hash);
  addFrequent(x.frequent, hash, s, e);
  addDate(x.dates, b, s, e);
}

/** A value that is a number. */
export function observeNumber(x: ColumnExtras, value: number): void {
  addMoment(x.moments, value);
  addQuantileValue(x.quantiles, value);
}

/** Reads what still points into the chunk's bytes `b`: call before the chunk's memory is reused. */
export function settleExtras(x: ColumnExtras, b: Buffer): void {
  settleFrequent(x.frequent, b);
  settleDates(x.dates, b);
}

/** Readies a chunk's partial for the trip to the main thread: one buffer, not a number per item, to clone. */
export function packExtras(x: ColumnExtras): void {
  packQuantiles(x.quantiles);
  packDistinct(x.distinct);
}

export function mergeExtras(a: ColumnExtras, b: ColumnExtras): void {
  mergeMoments(a.moments, b.moments);
  mergeQuantiles(a.quantiles, b.quantiles);
  mergeDistinct(a.distinct, b.distinct);
  mergeFrequent(a.frequent, b.frequent);
  mergeDates(a.dates, b.dates);
}

/** The statistics for every column: null share, distinct values, the most frequent. */
export function commonSummary(x: ColumnExtras, count: number, nulls: number) {
  const distinct = distinctOf(x.distinct);
  return {
    null_percentage: count + nulls === 0 ? 0 : (100 * nulls) / (count + nulls),
    distinct: distinct.count,
    distinct_exact: distinct.exact,
    top_values: topValues(x.frequent),
    top_values_error: x.frequent.error,
  };
}

/** The statistics of a numeric column: spread and quartiles. */
export function numericSummary(x: ColumnExtras) {
  const variance = sampleVariance(x.moments);
  const [q25, q50, q75] = quantilesOf(x.quantiles, [0.25, 0.5, 0.75]);
  return {
    ...(variance === undefined ? {} : { stddev: Math.sqrt(variance), variance }),
    ...(q25 === undefined ? {} : { q25, q50, q75 }),
  };
}

/** When every value of the column was a date or timestamp (`timed`: any had a time): the extremes' text. */
export function dateSummary(x: ColumnExtras, count: number) {
  const d = x.dates;
  if (count === 0 || d.count !== count) return undefined;
  return { timed: d.timed > 0, min: d.minText, max: d.maxText };
}
