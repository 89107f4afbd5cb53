import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pack, unpack } from 'msgpackr';
import {
  addDate, mergeDates, newDateRange, settleDates, type DateRange,
} from '../../../../src/commands/analyze/map/stats/date-range.js';
import { parseIsoDate } from '../../../../src/engine/worker/iso-date.js';

const parse = (text: string) => parseIsoDate(Buffer.from(text), 0, Buffer.byteLength(text));

test('ISO 8601 dates and timestamps are read to the instant they name; anything else is not a date', () => {
  assert.equal(parse('2024-02-29'), Date.UTC(2024, 1, 29));
  assert.equal(parse('2024-03-01T10:20:30Z'), Date.UTC(2024, 2, 1, 10, 20, 30));
  assert.equal(parse('2024-03-01 10:20'), Date.UTC(2024, 2, 1, 10, 20));
  assert.equal(parse('2024-03-01T10:20:30.25+02:00'), Date.UTC(2024, 2, 1, 8, 20, 30, 250));
  assert.equal(parse('2024-03-01T10:20:30-0130'), Date.UTC(2024, 2, 1, 11, 50, 30));
  assert.equal(parse('0001-01-01'), new Date('0001-01-01T00:00:00Z').getTime());
  for (const bad of ['2023-02-29', '2024-13-01', '2024-1-01', '2024-01-01T25:00', '2024-01-01X', '2024-01-01T10:00+2',
    '20240101', 'abcd-ef-gh', '2024-01-01T10:00:00.', '2024-01-01T10']) {
    assert.ok(Number.isNaN(parse(bad)), bad);
  }
});

function rangeOf(values: readonly string[]): DateRange {
  const bytes = Buffer.from(values.join(','));
  const d = newDateRange();
  let at = 0;
  for (const v of values) {
    addDate(d, bytes, at, at + v.length);
    at += v.length + 1;
  }
  settleDates(d, bytes);
  return d;
}

test('the extremes are by instant, keep their text, and merge in any order; a range survives msgpackr', () => {
  const a = rangeOf(['2024-05-01T00:30:00+02:00', 'not a date', '2024-04-30T23:00:00Z']);
  const b = rangeOf(['2024-04-30', '2024-05-02']);
  const merged = unpack(pack(newDateRange())) as DateRange;
  mergeDates(merged, b);
  mergeDates(merged, unpack(pack(a)) as DateRange);
  assert.equal(merged.count, 4);
  assert.equal(merged.timed, 2);
  assert.equal(merged.minText, '2024-04-30');
  assert.equal(merged.maxText, '2024-05-02');
  assert.equal(a.minText, '2024-05-01T00:30:00+02:00'); // 22:30 UTC, before 23:00
});
