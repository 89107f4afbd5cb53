// Earliest and latest ISO 8601 date or timestamp of a column (iso-date.ts),
// and how many of its values were one: a column whose every value is a date
// is typed `date` (`timestamp` when any has a time). The extremes' text is
// read from the chunk's bytes when the chunk ends (settleDates).
import { parseIsoDate } from './iso-date.js';

export interface DateRange {
  /** Values that were dates or timestamps, and how many of those had a time. */
  count: number;
  timed: number;
  min: number;
  max: number;
  minText: string;
  maxText: string;
  /** Bytes of the extremes in the current chunk, until settled (-1: none pending). */
  minSpan: [number, number];
  maxSpan: [number, number];
}

export function newDateRange(): DateRange {
  return {
    count: 0, timed: 0, min: Infinity, max: -Infinity, minText: '', maxText: '', minSpan: [-1, -1], maxSpan: [-1, -1],
  };
}

/** Notes the field s..e when it is a date; quick to refuse what is not. */
export function addDate(d: DateRange, b: Uint8Array, s: number, e: number): void {
  if (e - s < 10 || b[s + 4] !== 45) return;
  const date = parseIsoDate(b, s, e);
  if (!date) return;
  d.count++;
  if (date.timed) d.timed++;
  if (date.ms < d.min) {
    d.min = date.ms;
    d.minSpan = [s, e];
  }
  if (date.ms > d.max) {
    d.max = date.ms;
    d.maxSpan = [s, e];
  }
}

export function settleDates(d: DateRange, b: Buffer): void {
  if (d.minSpan[0] >= 0) d.minText = b.toString('utf8', d.minSpan[0], d.minSpan[1]);
  if (d.maxSpan[0] >= 0) d.maxText = b.toString('utf8', d.maxSpan[0], d.maxSpan[1]);
  d.minSpan = [-1, -1];
  d.maxSpan = [-1, -1];
}

/** Folds a settled range `b` into `a`. */
export function mergeDates(a: DateRange, b: DateRange): void {
  a.count += b.count;
  a.timed += b.timed;
  if (b.min < a.min) {
    a.min = b.min;
    a.minText = b.minText;
    a.minSpan = b.minSpan;
  }
  if (b.max > a.max) {
    a.max = b.max;
    a.maxText = b.maxText;
    a.maxSpan = b.maxSpan;
  }
}
