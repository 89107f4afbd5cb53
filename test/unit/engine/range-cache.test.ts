import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RangeCache } from '../../../src/engine/worker/range-cache.js';

const bytesOf = (from: number, length: number) => Uint8Array.from({ length }, (_, k) => (from + k) % 251);

/** What the cache holds for `version` over [from, to): the bytes it copied, as many as it answered. */
function held(cache: RangeCache, version: string, from: number, to: number): Uint8Array {
  const into = new Uint8Array(to - from);
  return into.subarray(0, cache.read(version, from, into));
}

test('a range is answered from the kept ranges it starts in, across ranges that run on unbroken', () => {
  const cache = new RangeCache();
  cache.keep('a', 100, bytesOf(100, 50));
  cache.keep('a', 150, bytesOf(150, 50));
  assert.deepEqual(held(cache, 'a', 120, 180), bytesOf(120, 60), 'across two kept ranges');
  assert.deepEqual(held(cache, 'a', 120, 260), bytesOf(120, 80), 'as far as kept ranges go');
  assert.equal(held(cache, 'a', 99, 120).length, 0, 'nothing kept where it starts');
  assert.equal(held(cache, 'b', 120, 130).length, 0, 'another version keeps nothing of this one');
});

test('what is answered is a copy, and the oldest ranges go first past the bound', () => {
  const cache = new RangeCache();
  cache.keep('a', 0, bytesOf(0, 16));
  const answer = held(cache, 'a', 0, 16);
  answer[0] = 99;
  assert.equal(held(cache, 'a', 0, 1)[0], 0, 'the kept bytes are not the answer\'s');
  const big = 32 * 1024 * 1024;
  cache.keep('a', 1000, new Uint8Array(big));
  cache.keep('a', 1000 + big, new Uint8Array(big));
  assert.equal(held(cache, 'a', 0, 16).length, 0, 'the first range went when the bound was passed');
  assert.equal(held(cache, 'a', 1000 + big, 1001 + big).length, 1, 'the newest is kept');
});

test('memory of a range that went is used again for a range of about its length, never while kept', () => {
  const cache = new RangeCache();
  const chunk = 4 * 1024 * 1024;
  const first = cache.buffer(0, chunk);
  first.set(bytesOf(0, chunk));
  cache.keep('a', 0, first);
  const whileKept = cache.buffer(0, chunk);
  assert.notEqual(whileKept.buffer, first.buffer, 'kept memory is not lent out');
  let at = chunk;
  // Past the bound the first range goes, and its memory is free again.
  for (let k = 0; k < 16; k++, at += chunk) cache.keep('a', at, cache.buffer(at, chunk));
  assert.equal(held(cache, 'a', 0, 1).length, 0, 'the first range went');
  const again = cache.buffer(at, chunk - 1000);
  assert.equal(again.buffer, first.buffer, 'its memory serves the next range');
  assert.equal(again.length, chunk - 1000, 'as long as asked');
  assert.notEqual(cache.buffer(at, chunk).buffer, first.buffer, 'lent out once');
});

test('memory the cache did not make is never lent out again', () => {
  const cache = new RangeCache();
  const foreign = new Uint8Array(40 * 1024 * 1024);
  cache.keep('a', 0, foreign);
  cache.keep('a', foreign.length, new Uint8Array(40 * 1024 * 1024));
  assert.equal(held(cache, 'a', 0, 1).length, 0, 'the first range went');
  assert.notEqual(cache.buffer(0, 40 * 1024 * 1024).buffer, foreign.buffer, 'a store\'s answer is not reused');
});

test('a range\'s bytes sit at their word offset: byte p at an offset with the remainder of p (mod 8)', () => {
  const cache = new RangeCache();
  for (const from of [0, 1, 7, 8, 4096 + 3, 12_345_677]) {
    const bytes = cache.buffer(from, 1000);
    assert.equal(bytes.byteOffset % 8, from % 8, `from ${from}`);
    assert.equal(bytes.length, 1000);
  }
  // Memory used again keeps the rule, whatever offset its last range had.
  const chunk = 4 * 1024 * 1024;
  let at = 3;
  for (let k = 0; k < 20; k++, at += chunk) cache.keep('a', at, cache.buffer(at, chunk));
  const again = cache.buffer(at + 5, chunk);
  assert.equal(again.byteOffset % 8, (at + 5) % 8);
  assert.ok(again.byteOffset + again.length <= again.buffer.byteLength, 'within its memory');
});

test('memory made stays bounded by what is kept and in use, whatever the ranges\' lengths', () => {
  const cache = new RangeCache();
  const made = new Set<ArrayBufferLike>();
  const lengths = [16 * 1024 * 1024 + 4097, 4096, 16 * 1024 * 1024 - 1000, 70_000];
  let at = 0;
  for (let k = 0; k < 400; k++) {
    const bytes = cache.buffer(at, lengths[k % lengths.length]!);
    made.add(bytes.buffer);
    cache.keep('a', at, bytes);
    at += bytes.length;
  }
  const total = [...made].reduce((sum, memory) => sum + memory.byteLength, 0);
  // 64 MiB kept at most, plus the range that pushed the oldest out and the one being filled.
  assert.ok(total <= (64 + 2 * 17) * 1024 * 1024, `${(total / 2 ** 20).toFixed(1)} MiB made`);
});
