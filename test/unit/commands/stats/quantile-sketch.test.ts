import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pack, unpack } from 'msgpackr';
import {
  addQuantileValue, mergeQuantiles, newQuantileSketch, quantilesOf, QUANTILE_BUFFER, QUANTILE_K, type QuantileSketch,
} from '../../../../src/commands/analyze/map/stats/quantile-sketch.js';
import { chunksOf, Distribution, numbers } from '../../../helpers/distributions.js';
import { rankError } from '../../../helpers/stats-oracle.js';

const FRACTIONS = [0.25, 0.5, 0.75];

function chunked(values: readonly number[], size: number): QuantileSketch {
  const total = newQuantileSketch();
  for (const chunk of chunksOf(values, size)) {
    const s = newQuantileSketch();
    for (const v of chunk) addQuantileValue(s, v);
    mergeQuantiles(total, s);
  }
  return total;
}

test('quartiles are within 1 % rank error on uniform, skewed and duplicate-heavy data, merged at several chunk sizes', () => {
  for (const kind of Object.values(Distribution)) {
    const values = numbers(kind, 200000, 11);
    const sorted = [...values].sort((a, b) => a - b);
    for (const size of [1000, 7919, 65536, 200000]) {
      const sketch = chunked(values, size);
      assert.equal(sketch.n, values.length);
      quantilesOf(sketch, FRACTIONS).forEach((value, i) => {
        const error = rankError(sorted, value!, FRACTIONS[i]!);
        assert.ok(error <= 0.01, `${kind}, chunks of ${size}, q${FRACTIONS[i]! * 100}: rank error ${error}`);
      });
    }
  }
});

test('a sketch stays small: its items stay within three times K and the level-0 buffer however much it sees', () => {
  const sketch = chunked(numbers(Distribution.Uniform, 300000, 5), 50000);
  const items = sketch.levels.reduce((sum, level) => sum + level.length, 0);
  assert.ok(items <= 3 * QUANTILE_K + QUANTILE_BUFFER, `${items} items`);
});

test('small inputs are exact: the quartiles are the values at those ranks', () => {
  const sketch = chunked([5, 1, 4, 2, 3, 8, 7, 6], 3);
  assert.deepEqual(quantilesOf(sketch, FRACTIONS), [2, 4, 6]);
  assert.deepEqual(quantilesOf(newQuantileSketch(), FRACTIONS), [undefined, undefined, undefined]);
});

test('a sketch that crosses msgpackr or structuredClone goes on exactly as the original', () => {
  const values = numbers(Distribution.Skewed, 30000, 2);
  const original = chunked(values.slice(0, 20000), 5000);
  const copies = [unpack(pack(original)) as QuantileSketch, structuredClone(original), original];
  const answers = copies.map((s) => {
    mergeQuantiles(s, chunked(values.slice(20000), 5000));
    return quantilesOf(s, FRACTIONS);
  });
  assert.deepEqual(answers[0], answers[2]);
  assert.deepEqual(answers[1], answers[2]);
});
