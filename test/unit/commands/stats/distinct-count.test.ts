import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pack, unpack } from 'msgpackr';
import {
  addDistinct, distinctOf, EXACT_LIMIT, mergeDistinct, newDistinctCount, type DistinctCount,
} from '../../../../src/commands/analyze/stats/distinct-count.js';
import { fieldHash } from '../../../../src/commands/analyze/stats/field-hash.js';
import { chunksOf, Distribution, numbers } from '../../../helpers/distributions.js';

const hashOf = (text: string) => {
  const b = Buffer.from(text);
  return fieldHash(b, 0, b.length);
};

function chunked(values: readonly string[], size: number): DistinctCount {
  const total = newDistinctCount();
  for (const chunk of chunksOf(values, size)) {
    const d = newDistinctCount();
    for (const v of chunk) addDistinct(d, hashOf(v));
    mergeDistinct(total, d);
  }
  return total;
}

test('distinct counts are within 2 % on uniform, skewed and duplicate-heavy data, at several chunk sizes', () => {
  for (const kind of Object.values(Distribution)) {
    for (const n of [3000, 50000, 400000]) {
      const values = numbers(kind, n, 17).map(String);
      const exact = new Set(values).size;
      for (const size of [997, 40000, n]) {
        const { count } = distinctOf(chunked(values, size));
        const error = Math.abs(count - exact) / exact;
        assert.ok(error <= 0.02, `${kind}, n ${n}, chunks of ${size}: ${count} vs ${exact} (${error})`);
      }
    }
  }
});

test('exact while small: up to EXACT_LIMIT values the count is exact and says so', () => {
  const values = Array.from({ length: EXACT_LIMIT * 3 }, (_, i) => `v${i % EXACT_LIMIT}`);
  assert.deepEqual(distinctOf(chunked(values, 1000)), { count: EXACT_LIMIT, exact: true });
  const more = chunked([...values, 'one more'], 1000);
  assert.equal(distinctOf(more).exact, false);
});

test('merging sketches gives the very sketch one pass gives; it survives msgpackr and structuredClone', () => {
  const values = Array.from({ length: 60000 }, (_, i) => `id-${i}`);
  const merged = chunked(values, 7000);
  const single = chunked(values, values.length);
  assert.deepEqual(merged.registers, single.registers);
  for (const copy of [unpack(pack(merged)) as DistinctCount, structuredClone(merged)]) {
    mergeDistinct(copy, chunked(['another'], 1));
    const original = structuredClone(merged);
    mergeDistinct(original, chunked(['another'], 1));
    assert.deepEqual(distinctOf(copy), distinctOf(original));
  }
});
