import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RangeCache } from '../../../src/engine/worker/range-cache.js';

const bytesOf = (from: number, length: number) => Uint8Array.from({ length }, (_, k) => (from + k) % 251);

test('a range is answered from the kept ranges it starts in, across ranges that run on unbroken', () => {
  const cache = new RangeCache();
  cache.keep('a', 100, bytesOf(100, 50));
  cache.keep('a', 150, bytesOf(150, 50));
  assert.deepEqual(cache.from('a', 120, 180), bytesOf(120, 60), 'across two kept ranges');
  assert.deepEqual(cache.from('a', 120, 260), bytesOf(120, 80), 'as far as kept ranges go');
  assert.equal(cache.from('a', 99, 120).length, 0, 'nothing kept where it starts');
  assert.equal(cache.from('b', 120, 130).length, 0, 'another version keeps nothing of this one');
});

test('what is answered is a copy, and the oldest ranges go first past the bound', () => {
  const cache = new RangeCache();
  const first = bytesOf(0, 16);
  cache.keep('a', 0, first);
  const answer = cache.from('a', 0, 16);
  answer[0] = 99;
  assert.equal(cache.from('a', 0, 1)[0], 0, 'the kept bytes are not the answer\'s');
  const big = 32 * 1024 * 1024;
  cache.keep('a', 1000, new Uint8Array(big));
  cache.keep('a', 1000 + big, new Uint8Array(big));
  assert.equal(cache.from('a', 0, 16).length, 0, 'the first range went when the bound was passed');
  assert.equal(cache.from('a', 1000 + big, 1001 + big).length, 1, 'the newest is kept');
});
