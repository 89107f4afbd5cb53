import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pack, unpack } from 'msgpackr';
import {
  addRegister, estimateDistinct, mergeRegisters, newRegisters,
} from '../../../../src/commands/analyze/map/stats/distinct-count.js';
import { fieldHash } from '../../../../src/commands/analyze/map/stats/field-hash.js';
import { chunksOf, Distribution, numbers } from '../../../helpers/distributions.js';

const hashOf = (text: string) => {
  const b = Buffer.from(text);
  return fieldHash(b, 0, b.length);
};

function chunked(values: readonly string[], size: number): Uint8Array {
  const total = newRegisters();
  for (const chunk of chunksOf(values, size)) {
    const d = newRegisters();
    for (const v of chunk) addRegister(d, hashOf(v));
    mergeRegisters(total, d);
  }
  return total;
}

test('distinct counts are within 2 % on uniform, skewed and duplicate-heavy data, at several chunk sizes', () => {
  for (const kind of Object.values(Distribution)) {
    for (const n of [3000, 50000, 400000]) {
      const values = numbers(kind, n, 17).map(String);
      const exact = new Set(values).size;
      for (const size of [997, 40000, n]) {
        const count = estimateDistinct(chunked(values, size));
        const error = Math.abs(count - exact) / exact;
        assert.ok(error <= 0.02, `${kind}, n ${n}, chunks of ${size}: ${count} vs ${exact} (${error})`);
      }
    }
  }
});

test('merging sketches gives the very sketch one pass gives; it survives msgpackr and structuredClone', () => {
  const values = Array.from({ length: 60000 }, (_, i) => `id-${i}`);
  const merged = chunked(values, 7000);
  const single = chunked(values, values.length);
  assert.deepEqual(merged, single);
  for (const copy of [unpack(pack(merged)) as Uint8Array, structuredClone(merged)]) {
    mergeRegisters(copy, chunked(['another'], 1));
    const original = structuredClone(merged);
    mergeRegisters(original, chunked(['another'], 1));
    assert.equal(estimateDistinct(copy), estimateDistinct(original));
  }
});
