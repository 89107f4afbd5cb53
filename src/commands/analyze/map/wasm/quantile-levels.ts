// AssemblyScript, compiled with csv-scan.ts (column-extras.ts calls it per number).
//
// The lowest QUANTILE_LEVELS levels of a column's KLL sketch for one chunk
// (../stats/quantile-sketch.ts holds the rest): each gathers QUANTILE_BUFFER
// items, is put in order (level 0 by a radix sort of the doubles' bits; a
// level above holds two sorted runs, merged) and compacted as the sketch
// compacts (every other item, a coin picks odd or even, moves up with twice
// the weight); from the top one those items go to JavaScript in one call
// (quantileBatch), 1 per 2^QUANTILE_LEVELS numbers. A level as large as
// QUANTILE_BUFFER only lowers the error against the sketch's own capacities.
// A chunk too short to fill level 0 gets levels only as long as its rows
// (setLevelStride): nothing is compacted there, so the answer is the same.

@external("env", "quantileBatch")
declare function quantileBatch(k: i32, level: i32, at: usize, count: i32): void;

export const QUANTILE_BUFFER: i32 = 2048;
export const QUANTILE_LEVELS: i32 = 3;
/** A region: the levels' counts (i32), then their items (f64). */
export const LEVEL_ITEMS: i32 = 16;
/** Items each level has room for: QUANTILE_BUFFER, or fewer when a chunk's values cannot fill level 0. */
export let LEVEL_STRIDE: i32 = QUANTILE_BUFFER;

/** A column's levels' bytes when each level has room for `stride` items. */
export function levelsBytes(stride: i32): i32 {
  return LEVEL_ITEMS + 8 * stride * QUANTILE_LEVELS;
}

export function setLevelStride(stride: i32): void {
  LEVEL_STRIDE = stride;
}

const SCRATCH = memory.data(8 * QUANTILE_BUFFER);
const HISTOGRAM = memory.data(4 * 256);
/** The coin (xorshift, never 0), set again for every chunk: the same chunk gives the same answer. */
let seed: u32 = 0x9e3779b9;

export function resetCoin(): void {
  seed = 0x9e3779b9;
}

function coin(): u32 {
  let x = seed;
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  seed = x;
  return x & 1;
}

/** A double's bits as an unsigned key in the doubles' order. */
function sortable(bits: u64): u64 {
  return (bits >>> 63) != 0 ? ~bits : bits | 0x8000000000000000;
}

function unsortable(key: u64): u64 {
  return (key >>> 63) != 0 ? key & 0x7fffffffffffffff : ~key;
}

/** One pass of the radix sort: src's keys into dst, stably, by the byte at `shift`. */
function radixPass(src: usize, dst: usize, n: i32, shift: u64): void {
  memory.fill(HISTOGRAM, 0, 4 * 256);
  for (let i = 0; i < n; i++) {
    const h = HISTOGRAM + (<usize>((load<u64>(src + (<usize>i << 3)) >>> shift) & 255) << 2);
    store<u32>(h, load<u32>(h) + 1);
  }
  let sum: u32 = 0;
  for (let b = 0; b < 256; b++) {
    const count = load<u32>(HISTOGRAM + (<usize>b << 2));
    store<u32>(HISTOGRAM + (<usize>b << 2), sum);
    sum += count;
  }
  for (let i = 0; i < n; i++) {
    const key = load<u64>(src + (<usize>i << 3));
    const h = HISTOGRAM + (<usize>((key >>> shift) & 255) << 2);
    const position = load<u32>(h);
    store<u32>(h, position + 1);
    store<u64>(dst + (<usize>position << 3), key);
  }
}

/** Sorts n doubles at `at` (LSD radix over the bytes of their keys that differ among them). */
function sortNumbers(at: usize, n: i32): void {
  if (n < 2) return;
  let any: u64 = 0;
  let all: u64 = ~0;
  for (let i = 0; i < n; i++) {
    const item = at + (<usize>i << 3);
    const key = sortable(load<u64>(item));
    store<u64>(item, key);
    any |= key;
    all &= key;
  }
  const differ = any ^ all;
  let src = at;
  let dst = SCRATCH;
  for (let shift: u64 = 0; shift < 64; shift += 8) {
    if (((differ >>> shift) & 255) == 0) continue;
    radixPass(src, dst, n, shift);
    const t = src;
    src = dst;
    dst = t;
  }
  for (let i = 0; i < n; i++) store<u64>(at + (<usize>i << 3), unsortable(load<u64>(src + (<usize>i << 3))));
}

function itemsOf(levels: usize, h: i32): usize {
  return levels + LEVEL_ITEMS + <usize>h * <usize>(8 * LEVEL_STRIDE);
}

/**
 * Merges the two sorted halves of a full level above 0 (each came from one
 * compaction below) into SCRATCH: no sort is needed there.
 */
function mergeHalves(items: usize): void {
  const half = <usize>(QUANTILE_BUFFER / 2) << 3;
  let p = items;
  let q = items + half;
  const pEnd = q;
  const qEnd = q + half;
  let out = SCRATCH;
  while (p < pEnd && q < qEnd) {
    const a = load<f64>(p);
    const b = load<f64>(q);
    if (b < a) {
      store<f64>(out, b);
      q += 8;
    } else {
      store<f64>(out, a);
      p += 8;
    }
    out += 8;
  }
  if (p < pEnd) memory.copy(out, p, pEnd - p);
  if (q < qEnd) memory.copy(out, q, qEnd - q);
}

/** Level h is full: in order, every other item moves up (to JavaScript from the top level). */
function compact(k: i32, levels: usize, h: i32): void {
  const items = itemsOf(levels, h);
  let sorted = items;
  if (h == 0) sortNumbers(items, QUANTILE_BUFFER);
  else {
    mergeHalves(items);
    sorted = SCRATCH;
  }
  store<i32>(levels + (<usize>h << 2), 0);
  const start = <i32>coin();
  if (h + 1 == QUANTILE_LEVELS) {
    let n = 0;
    for (let i = start; i < QUANTILE_BUFFER; i += 2) {
      store<f64>(items + (<usize>n << 3), load<f64>(sorted + (<usize>i << 3)));
      n++;
    }
    quantileBatch(k, h + 1, items, n);
    return;
  }
  for (let i = start; i < QUANTILE_BUFFER; i += 2) addAt(k, levels, h + 1, load<f64>(sorted + (<usize>i << 3)));
}

function addAt(k: i32, levels: usize, h: i32, value: f64): void {
  const count = load<i32>(levels + (<usize>h << 2));
  store<f64>(itemsOf(levels, h) + (<usize>count << 3), value);
  store<i32>(levels + (<usize>h << 2), count + 1);
  if (count + 1 == QUANTILE_BUFFER) compact(k, levels, h);
}

/** At a chunk's end: level 0's items put in order (those above already are: one sorted run or none). */
export function sortFirstLevel(levels: usize): void {
  sortNumbers(itemsOf(levels, 0), load<i32>(levels));
}

/** A number of column k, whose levels are at `levels`. */
export function addQuantile(k: i32, levels: usize, value: f64): void {
  addAt(k, levels, 0, value);
}
