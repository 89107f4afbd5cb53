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

const MIB = 1024 * 1024;

test('what is answered is a copy, and the oldest ranges go first past 64 MiB', () => {
  const cache = new RangeCache();
  cache.keep('a', 0, bytesOf(0, 16));
  const answer = held(cache, 'a', 0, 16);
  answer[0] = 99;
  assert.equal(held(cache, 'a', 0, 1)[0], 0, 'the kept bytes are not the answer\'s');
  const length = 8 * MIB;
  for (let k = 0; k < 8; k++) cache.keep('a', 1000 + k * length, new Uint8Array(length));
  assert.equal(held(cache, 'a', 0, 16).length, 0, 'the first range went when 64 MiB were passed');
  assert.equal(held(cache, 'a', 1000, 1001).length, 1, 'the next is kept: 64 MiB are');
  assert.equal(held(cache, 'a', 1000 + 7 * length, 1001 + 7 * length).length, 1, 'the newest is kept');
});

test('eight ranges of the longest length are kept, even past 64 MiB (analyze\'s chunks are 16 MiB)', () => {
  const cache = new RangeCache();
  const length = 16 * MIB;
  for (let k = 0; k < 8; k++) cache.keep('a', k * length, new Uint8Array(length));
  assert.equal(held(cache, 'a', 0, 1).length, 1, 'the first of eight is kept');
  cache.keep('a', 8 * length, new Uint8Array(length));
  assert.equal(held(cache, 'a', 0, 1).length, 0, 'the ninth pushes the first out');
  assert.equal(held(cache, 'a', length, length + 1).length, 1, 'and only it');
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

test('longer ranges are kept up to 136 MiB, and a range longer than that is not kept', () => {
  const cache = new RangeCache();
  const length = 40 * MIB;
  for (let k = 0; k < 3; k++) cache.keep('a', k * length, new Uint8Array(length));
  assert.equal(held(cache, 'a', 0, 1).length, 1, 'three of 40 MiB are kept');
  cache.keep('a', 3 * length, new Uint8Array(length));
  assert.equal(held(cache, 'a', 0, 1).length, 0, 'a fourth pushes the first out');
  cache.keep('a', 4 * length, new Uint8Array(137 * MIB));
  assert.equal(held(cache, 'a', 4 * length, 4 * length + 1).length, 0, 'a range of 137 MiB is not kept');
  assert.equal(held(cache, 'a', 3 * length, 3 * length + 1).length, 1, 'and pushes nothing out');
});

test('memory the cache did not make is never lent out again', () => {
  const cache = new RangeCache();
  const foreign = new Uint8Array(8 * MIB);
  cache.keep('a', 0, foreign);
  for (let k = 1; k <= 8; k++) cache.keep('a', k * foreign.length, new Uint8Array(8 * MIB));
  assert.equal(held(cache, 'a', 0, 1).length, 0, 'the first range went');
  assert.notEqual(cache.buffer(0, 8 * MIB).buffer, foreign.buffer, 'a store\'s answer is not reused');
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
  // Eight of the longest range kept at most, plus the range that pushed the oldest out and the one being filled.
  const bound = 8 * lengths[0]! + 2 * 17 * MIB;
  assert.ok(total <= bound, `${(total / MIB).toFixed(1)} MiB made`);
});
