import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pack, unpack } from 'msgpackr';
import {
  addFrequent, CAPACITY, mergeFrequent, newFrequentValues, settleFrequent, rankedValues, TOP, type FrequentValues,
} from '../../../../src/commands/analyze/map/stats/frequent-values.js';
import { fieldHash } from '../../../../src/commands/analyze/map/stats/field-hash.js';
import { random } from '../../../helpers/csv-generator.js';
import { chunksOf } from '../../../helpers/distributions.js';
import { frequencies } from '../../../helpers/stats-oracle.js';

/** One chunk's summary, its values read from the chunk's bytes as the scanner's would be. */
function summaryOf(chunk: readonly string[]): FrequentValues {
  const bytes = Buffer.from(chunk.join('\n'));
  const f = newFrequentValues();
  let at = 0;
  for (const v of chunk) {
    const end = at + Buffer.byteLength(v);
    addFrequent(f, fieldHash(bytes, at, end), at, end);
    at = end + 1;
  }
  settleFrequent(f, bytes);
  return f;
}

const topOf = (f: FrequentValues) => rankedValues(f.size, f.counts, f.values).slice(0, TOP);

function chunked(values: readonly string[], size: number): FrequentValues {
  const total = newFrequentValues();
  for (const chunk of chunksOf(values, size)) mergeFrequent(total, summaryOf(chunk));
  return total;
}

/** A clear top five (10 %, 8 %, 6 %, 5 %, 4 % of values) among many rare values. */
function clearTop(n: number): string[] {
  const rnd = random(23);
  const shares = [0.1, 0.08, 0.06, 0.05, 0.04];
  return Array.from({ length: n }, () => {
    let u = rnd();
    for (const [i, share] of shares.entries()) {
      if (u < share) return `top-${i}-é`;
      u -= share;
    }
    return `rare-${Math.floor(rnd() * 100000)}`;
  });
}

test('the top five of data with a clear top are exact in order, at several chunk sizes; counts within the stated error', () => {
  const values = clearTop(200000);
  const exact = frequencies(values);
  for (const size of [1000, 8192, 200000]) {
    const f = chunked(values, size);
    const top = topOf(f);
    assert.deepEqual(top.map((t) => t.value), exact.slice(0, TOP).map((t) => t.value), `chunks of ${size}`);
    assert.ok(f.error <= values.length / (CAPACITY + 1), `error ${f.error}`);
    for (const t of top) {
      const truth = exact.find((e) => e.value === t.value)!.count;
      assert.ok(t.count <= truth && truth - t.count <= f.error, `${t.value}: ${t.count} vs ${truth}, error ${f.error}`);
    }
  }
});

test('with few distinct values the counts are exact and the error is 0', () => {
  const values = Array.from({ length: 5000 }, (_, i) => `v${(i * 7) % 11}`);
  const f = chunked(values, 333);
  assert.equal(f.error, 0);
  assert.deepEqual(topOf(f), frequencies(values).slice(0, TOP));
});

test('a summary that crosses msgpackr or structuredClone merges on exactly as the original', () => {
  const values = clearTop(20000);
  const original = chunked(values.slice(0, 15000), 2000);
  const rest = summaryOf(values.slice(15000));
  const answers = [unpack(pack(original)) as FrequentValues, structuredClone(original), original].map((f) => {
    mergeFrequent(f, rest);
    return { top: topOf(f), error: f.error };
  });
  assert.deepEqual(answers[0], answers[2]);
  assert.deepEqual(answers[1], answers[2]);
});
