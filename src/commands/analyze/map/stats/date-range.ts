// Earliest and latest ISO 8601 date or timestamp of a column (engine/worker/iso-date.ts),
// and how many of its values were one: a column whose every value is a date
// is typed `date` (`timestamp` when any has a time). The extremes' text is
// read from the chunk's bytes when the chunk ends (settleDates).
import { parseIsoDate } from '../../../../engine/worker/iso-date.js';

export interface DateRange {
  /** Values that were dates or timestamps, and how many of those had a time. */
  count: number;
  timed: number;
  min: number;
  max: number;
  minText: string;
  maxText: string;
  /** Bytes of the extremes in the current chunk, until settled (start -1: none pending). */
  minStart: number;
  minEnd: number;
  maxStart: number;
  maxEnd: number;
}

export function newDateRange(): DateRange {
  return {
    count: 0, timed: 0, min: Infinity, max: -Infinity, minText: '', maxText: '', minStart: -1, minEnd: -1, maxStart: -1,
    maxEnd: -1,
  };
}

/** Notes the field s..e when it is a date; quick to refuse what is not. */
export function addDate(d: DateRange, b: Uint8Array, s: number, e: number): void {
  if (e - s < 10 || b[s + 4] !== 45) return;
  const ms = parseIsoDate(b, s, e);
  if (Number.isNaN(ms)) return;
  d.count++;
  if (e - s > 10) d.timed++;
  if (ms < d.min) {
    d.min = ms;
    d.minStart = s;
    d.minEnd = e;
  }
  if (ms > d.max) {
    d.max = ms;
    d.maxStart = s;
    d.maxEnd = e;
  }
}

export function settleDates(d: DateRange, b: Buffer): void {
  if (d.minStart >= 0) d.minText = b.toString('utf8', d.minStart, d.minEnd);
  if (d.maxStart >= 0) d.maxText = b.toString('utf8', d.maxStart, d.maxEnd);
  d.minStart = d.maxStart = -1;
}

/** Folds a settled range `b` into `a`. */
export function mergeDates(a: DateRange, b: DateRange): void {
  a.count += b.count;
  a.timed += b.timed;
  if (b.min < a.min) {
    a.min = b.min;
    a.minText = b.minText;
  }
  if (b.max > a.max) {
    a.max = b.max;
    a.maxText = b.maxText;
  }
}
