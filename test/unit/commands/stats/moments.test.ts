import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pack, unpack } from 'msgpackr';
import {
  addMoment, mergeMoments, newMoments, sampleVariance,
} from '../../../../src/commands/analyze/map/stats/moments.js';
import { chunksOf, Distribution, numbers } from '../../../helpers/distributions.js';
import { exactVariance } from '../../../helpers/stats-oracle.js';

const close = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) <= 1e-9 * Math.abs(b), `${what}: ${a} vs ${b}`);

test('variance merged from chunks equals one pass and the two-pass answer, at several chunk sizes', () => {
  for (const kind of Object.values(Distribution)) {
    const values = numbers(kind, 20000, 3);
    const exact = exactVariance(values);
    for (const size of [1, 7, 1000, 20000]) {
      const total = newMoments();
      for (const chunk of chunksOf(values, size)) {
        const m = newMoments();
        for (const v of chunk) addMoment(m, v);
        mergeMoments(total, m);
      }
      assert.equal(total.n, values.length);
      close(sampleVariance(total)!, exact, `${kind} at ${size}`);
    }
  }
});

test('variance stays accurate around a large offset (no cancelling sum of squares)', () => {
  const values = Array.from({ length: 1000 }, (_, i) => 1e9 + (i % 10));
  const m = newMoments();
  for (const v of values) addMoment(m, v);
  const exact = exactVariance(values.map((v) => v - 1e9));
  assert.ok(Math.abs(sampleVariance(m)! - exact) <= 1e-6 * exact, `${sampleVariance(m)} vs ${exact}`);
  // The textbook formula (sum of squares less n·mean²) loses it entirely here.
  const sum = values.reduce((a, b) => a + b, 0);
  const naive = (values.reduce((a, b) => a + b * b, 0) - (sum * sum) / values.length) / (values.length - 1);
  assert.ok(Math.abs(naive - exact) > 0.01 * exact, `naive ${naive}`);
});

test('a single value has no variance; moments survive msgpackr and structuredClone', () => {
  const m = newMoments();
  addMoment(m, 5);
  assert.equal(sampleVariance(m), undefined);
  addMoment(m, 7);
  for (const copy of [unpack(pack(m)), structuredClone(m)]) {
    addMoment(copy, 9);
    assert.equal(sampleVariance(copy), 4);
  }
});

test('values too far apart for a double give an infinite variance, never a false 0, in one pass or merged', () => {
  const apart = [1e308, -1e308];
  const one = newMoments();
  for (const v of apart) addMoment(one, v);
  const merged = newMoments();
  for (const v of apart) {
    const m = newMoments();
    addMoment(m, v);
    mergeMoments(merged, m);
  }
  for (const m of [one, merged]) assert.equal(sampleVariance(m), Number.POSITIVE_INFINITY);
  const near = newMoments();
  for (const v of [1e300, 1e300]) addMoment(near, v);
  assert.equal(sampleVariance(near), 0, 'equal huge values still have a variance of 0');
});
