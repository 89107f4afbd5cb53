// The distinct count and the most frequent values as a column's summary
// states them (stats/column-extras.ts): exact from the tally while the column
// holds at most EXACT_LIMIT distinct values, whatever the chunks; past it,
// nothing listed that the summary's error could account for, and a distinct
// count that is never more than the values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pack, unpack } from 'msgpackr';
import {
  commonSummary, mergeExtras, newColumnExtras, observeText, packExtras, settleExtras, type ColumnExtras,
} from '../../../../src/commands/analyze/map/stats/column-extras.js';
import { EXACT_LIMIT } from '../../../../src/commands/analyze/map/stats/distinct-count.js';
import { TOP } from '../../../../src/commands/analyze/map/stats/frequent-values.js';
import { random } from '../../../helpers/csv-generator.js';
import { chunksOf } from '../../../helpers/distributions.js';
import { frequencies, topValues } from '../../../helpers/stats-oracle.js';

/** One chunk's statistics, read from its bytes and packed as a worker sends them. */
function chunkOf(values: readonly string[]): ColumnExtras {
  const bytes = Buffer.from(values.join('\n'));
  const x = newColumnExtras();
  let at = 0;
  for (const v of values) {
    const end = at + Buffer.byteLength(v);
    observeText(x, bytes, at, end);
    at = end + 1;
  }
  settleExtras(x, bytes);
  packExtras(x);
  return x;
}

function chunked(values: readonly string[], size: number): ReturnType<typeof commonSummary> {
  const total = newColumnExtras();
  for (const chunk of chunksOf(values, size)) mergeExtras(total, structuredClone(chunkOf(chunk)));
  return commonSummary(total, values.length, 0);
}

/** Dates over five years with uneven counts (the seen case: 1,826 distinct values among 1.5 M rows). */
function dates(n: number): string[] {
  const rnd = random(31);
  const day = (i: number) => new Date(Date.UTC(2018, 0, 1 + i)).toISOString().slice(0, 10);
  return Array.from({ length: n }, () => day(Math.floor(1826 * rnd() ** 1.3)));
}

test('up to EXACT_LIMIT distinct values the top values and the distinct count are exact, at every chunk size', () => {
  const values = dates(200_000);
  const exact = frequencies(values);
  assert.ok(exact.length > 1500 && exact.length <= EXACT_LIMIT, `${exact.length} distinct`);
  for (const size of [1000, 7777, 65_536, values.length]) {
    const summary = chunked(values, size);
    assert.deepEqual(summary.top_values, topValues(values, TOP), `chunks of ${size}`);
    assert.equal(summary.top_values_exact, true);
    assert.equal(summary.top_values_error, 0);
    assert.equal(summary.top_values_below_error, false);
    assert.equal(summary.distinct, exact.length);
    assert.equal(summary.distinct_exact, true);
    assert.equal(summary.distinct_relative_error, 0);
  }
});

test('exactly EXACT_LIMIT distinct values stay exact; one more is an estimate, never below the limit', () => {
  const values = Array.from({ length: 3 * EXACT_LIMIT }, (_, i) => `v${i % EXACT_LIMIT}`);
  assert.equal(chunked(values, 1000).distinct_exact, true);
  assert.equal(chunked(values, 1000).distinct, EXACT_LIMIT);
  const more = chunked([...values, 'one more'], 1000);
  assert.equal(more.distinct_exact, false);
  assert.equal(more.top_values_exact, false);
  assert.ok(more.distinct > EXACT_LIMIT && more.distinct <= values.length + 1, `${more.distinct}`);
  assert.equal(more.distinct_relative_error, 0.02);
});

test('a unique column lists no value, says none is above the error, has no more distinct values than values', () => {
  for (const n of [EXACT_LIMIT + 1, 2100, 2500, 20_000, 150_000]) {
    const values = Array.from({ length: n }, (_, i) => `id-${i}`);
    for (const size of [997, n]) {
      const summary = chunked(values, size);
      assert.deepEqual(summary.top_values, [], `${n} in chunks of ${size}`);
      assert.equal(summary.top_values_below_error, true);
      assert.ok(summary.top_values_error >= 1);
      assert.ok(summary.distinct <= n && summary.distinct > EXACT_LIMIT, `${summary.distinct} of ${n}`);
    }
  }
});

test('past the exact range every listed value is counted above the error, and within it of the truth', () => {
  const rnd = random(41);
  const values = Array.from({ length: 200_000 }, () => {
    const u = rnd();
    return u < 0.05 ? 'common' : u < 0.08 ? 'usual' : `rare-${Math.floor(rnd() * 50_000)}`;
  });
  const exact = new Map(frequencies(values).map((f) => [f.value, f.count]));
  for (const size of [1000, 30_000, values.length]) {
    const summary = chunked(values, size);
    assert.equal(summary.top_values_exact, false);
    assert.deepEqual(summary.top_values.slice(0, 2).map((t) => t.value), ['common', 'usual'], `chunks of ${size}`);
    for (const { value, count } of summary.top_values) {
      const truth = exact.get(value)!;
      assert.ok(count > summary.top_values_error, `${value}: ${count} not above ${summary.top_values_error}`);
      assert.ok(count <= truth && truth - count <= summary.top_values_error, `${value}: ${count} of ${truth}`);
    }
  }
});

test('a column\'s statistics that cross msgpackr or structuredClone merge on exactly as the original', () => {
  for (const values of [dates(20_000), Array.from({ length: 9000 }, (_, i) => `v${i % 3000}`)]) {
    const original = newColumnExtras();
    for (const chunk of chunksOf(values.slice(0, 15_000), 2000)) mergeExtras(original, chunkOf(chunk));
    const answers = [unpack(pack(original)) as ColumnExtras, structuredClone(original), original].map((x) => {
      mergeExtras(x, chunkOf(values.slice(15_000)));
      return commonSummary(x, values.length, 0);
    });
    assert.deepEqual(answers[0], answers[2]);
    assert.deepEqual(answers[1], answers[2]);
  }
});

test('small tallies merged one by one into a column past the exact range give one pass\'s distinct estimate', () => {
  const rnd = random(47);
  const values = Array.from({ length: 30_000 }, () => `v${Math.floor(rnd() * 12_000)}`);
  const whole = chunked(values, values.length);
  assert.equal(whole.distinct_exact, false);
  for (const size of [100, 999, 5000]) {
    assert.equal(chunked(values, size).distinct, whole.distinct, `chunks of ${size}`);
  }
});
