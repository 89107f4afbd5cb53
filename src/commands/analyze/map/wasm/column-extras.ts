// AssemblyScript, compiled with csv-scan.ts (which calls it per value).
//
// The added statistics of each column for one chunk, kept in the scanner's
// memory so that no value crosses into JavaScript: Welford's moments, an
// exact tally of the values (past EXACT_LIMIT of them, HyperLogLog registers
// and a Misra-Gries table of frequent values seeded from the tally), the
// range of ISO 8601 dates (engine/worker/wasm/iso-date.ts), and the quantile sketch's lowest
// levels (quantile-levels.ts). After a chunk csv-scanner.ts
// (scanner-extras.ts) turns each into its ../stats/*.ts form,
// which merges across chunks and goes into checkpoints; each update here
// mirrors its stats/*.ts twin.

import { isoInstant } from '../../../../engine/worker/wasm/iso-date';
import {
  addQuantile, levelsBytes, QUANTILE_BUFFER, resetCoin, setLevelStride, sortFirstLevel,
} from './quantile-levels';

/** As stats/value-tally.ts and distinct-count.ts: exact up to this many values, then 2^HLL_BITS registers. */
export const EXACT_LIMIT: i32 = 2048;
export const HLL_BITS: i32 = 15;
/** Misra-Gries counters per chunk: twice the merged summary's CAPACITY (stats/frequent-values.ts). */
export const FREQUENT_SLOTS: i32 = 128;

/**
 * Which statistics a chunk keeps, a bit each (as ../stats/sketch.ts's Sketch): those its answer shows. The
 * range of dates is always kept: a column's type depends on it.
 */
export const KEEP_SPREAD: i32 = 1;
export const KEEP_VALUES: i32 = 2;
let keep: i32 = KEEP_SPREAD | KEEP_VALUES;

const FULL_TABLE_SLOTS: i32 = 2 * EXACT_LIMIT; // at most half full
const INDEX_SLOTS: i32 = 4 * FREQUENT_SLOTS; // key -> 1 + entry, open-addressed: short probes
const RANK_BITS: i32 = 53 - HLL_BITS;
/**
 * A chunk whose columns get fewer values than this can neither outgrow the
 * tally nor fill a quantile level: its records are laid out smaller (see
 * layOut), which is what lets thousands of columns fit.
 */
const SMALL_BELOW: i32 = EXACT_LIMIT < QUANTILE_BUFFER ? EXACT_LIMIT : QUANTILE_BUFFER;

// One column's record.
export const X_N: i32 = 0;
export const X_MEAN: i32 = 8;
export const X_M2: i32 = 16;
export const X_FREQUENT_ERROR: i32 = 24;
export const X_DATE_MIN: i32 = 32;
export const X_DATE_MAX: i32 = 40;
export const X_DISTINCT_SIZE: i32 = 48;
/** 0: the exact set; 1: HyperLogLog registers. */
export const X_SKETCH: i32 = 52;
export const X_FREQUENT_SIZE: i32 = 56;
export const X_DATES: i32 = 64;
export const X_TIMED: i32 = 68;
export const X_DATE_MIN_PTR: i32 = 72;
export const X_DATE_MIN_LEN: i32 = 76;
export const X_DATE_MAX_PTR: i32 = 80;
export const X_DATE_MAX_LEN: i32 = 84;
// 60, 88..95: free.
const HEADER_BYTES: i32 = 96;
export const X_TABLE: i32 = HEADER_BYTES;

// The rest of the record, laid out for the chunk at hand (layOut): the tally's
// slots (its u64 keys, or the registers, 2^15 u8, in their place), beside each
// key its count (u32) and its text (pointer, length); the frequent values'
// keys, counts, texts and index; the quantile levels.
export let TALLY_SLOTS: i32 = FULL_TABLE_SLOTS;
let TABLE_BYTES: i32 = 8 * FULL_TABLE_SLOTS;
export let X_TALLY_COUNTS: i32 = 0;
export let X_TALLY_SPANS: i32 = 0;
export let X_FREQUENT_KEYS: i32 = 0;
export let X_FREQUENT_COUNTS: i32 = 0;
/** Each entry's text in the chunk's memory: (pointer, length). */
export let X_FREQUENT_SPANS: i32 = 0;
let X_FREQUENT_INDEX: i32 = 0;
export let X_QUANTILE_LEVELS: i32 = 0;
export let EXTRAS_BYTES: i32 = 0;
layOut(SMALL_BELOW, keep);

/** The tally's slots for a chunk whose columns get at most `values` values: a power of two, at most half full. */
function tallySlots(values: i32, kept: i32): i32 {
  if ((kept & KEEP_VALUES) == 0) return 0;
  if (values >= SMALL_BELOW) return FULL_TABLE_SLOTS;
  let slots = 8;
  while (slots < 2 * values) slots <<= 1;
  return slots;
}

/** Items each quantile level has room for. */
function levelStride(values: i32, kept: i32): i32 {
  if ((kept & KEEP_SPREAD) == 0) return 0;
  return values < SMALL_BELOW ? max(values, 1) : QUANTILE_BUFFER;
}

/** Counters of the frequent values (seeded when the tally outgrows EXACT_LIMIT). */
function frequentSlots(values: i32, kept: i32): i32 {
  return values < SMALL_BELOW || (kept & KEEP_VALUES) == 0 ? 0 : FREQUENT_SLOTS;
}

/** The frequent values' keys (u64), counts (u32), texts (pointer, length) and index, for `frequent` counters. */
function frequentBytes(frequent: i32): i32 {
  return frequent == 0 ? 0 : 20 * frequent + 4 * INDEX_SLOTS;
}

/** A column's record's bytes when its columns get at most `values` values in a chunk that keeps `kept`. */
export function extrasBytes(values: i32, kept: i32): i32 {
  // The tally's slots each hold a key (u64), a count (u32) and a text (pointer, length): 20 bytes, as layOut.
  const tally = 20 * tallySlots(values, kept);
  return HEADER_BYTES + tally + frequentBytes(frequentSlots(values, kept)) + levelsBytes(levelStride(values, kept));
}

/**
 * The record's layout for `values` values a column at most. A small chunk
 * never turns its tally into registers (that takes EXACT_LIMIT + 1 values),
 * so it needs no room for them nor for the frequent values seeded then.
 */
function layOut(values: i32, kept: i32): void {
  keep = kept;
  TALLY_SLOTS = tallySlots(values, kept);
  TABLE_BYTES = 8 * TALLY_SLOTS;
  X_TALLY_COUNTS = X_TABLE + TABLE_BYTES;
  X_TALLY_SPANS = X_TALLY_COUNTS + 4 * TALLY_SLOTS;
  const frequent = frequentSlots(values, kept);
  X_FREQUENT_KEYS = X_TALLY_SPANS + 8 * TALLY_SLOTS;
  X_FREQUENT_COUNTS = X_FREQUENT_KEYS + 8 * frequent;
  X_FREQUENT_SPANS = X_FREQUENT_COUNTS + 4 * frequent;
  X_FREQUENT_INDEX = X_FREQUENT_SPANS + 8 * frequent;
  X_QUANTILE_LEVELS = X_FREQUENT_KEYS + frequentBytes(frequent);
  setLevelStride(levelStride(values, kept));
  EXTRAS_BYTES = X_QUANTILE_LEVELS + levelsBytes(levelStride(values, kept));
}

let extras: usize = 0;
let extrasWidth: i32 = 0;
/** The tally's keys while they turn into registers; a purge's (or the tally's) counts. */
const SCRATCH = memory.data(8 * (EXACT_LIMIT + 1));

/** At a chunk's end, column k's quantile levels in order for JavaScript (whose compactions then sort sorted runs). */
export function sortLevels(k: i32): void {
  sortFirstLevel(extrasOf(k) + X_QUANTILE_LEVELS);
}

function extrasOf(k: i32): usize {
  return extras + <usize>k * <usize>EXTRAS_BYTES;
}

/**
 * Where the records are, for columns that get at most `values` values in the chunk, keeping `kept`: a new
 * place, width or layout is cleared whole, since it may hold old bytes.
 */
export function configureExtras(at: usize, width: i32, values: i32, kept: i32): void {
  const same = extrasBytes(values, kept) == EXTRAS_BYTES && kept == keep;
  if (at == extras && width == extrasWidth && same) return;
  layOut(values, kept);
  extras = at;
  extrasWidth = width;
  memory.fill(at, 0, <usize>width * <usize>EXTRAS_BYTES);
}

/** Empty statistics for a new chunk: only what a column used is cleared. */
export function resetExtras(): void {
  for (let k = 0; k < extrasWidth; k++) {
    const x = extrasOf(k);
    if (load<i32>(x + X_DISTINCT_SIZE) != 0 || load<i32>(x + X_SKETCH) != 0) memory.fill(x + X_TABLE, 0, TABLE_BYTES);
    if (load<i32>(x + X_FREQUENT_SIZE) != 0) memory.fill(x + X_FREQUENT_INDEX, 0, 4 * INDEX_SLOTS);
    memory.fill(x, 0, HEADER_BYTES);
    memory.fill(x + X_QUANTILE_LEVELS, 0, 16);
    store<f64>(x + X_DATE_MIN, Infinity);
    store<f64>(x + X_DATE_MAX, -Infinity);
  }
  resetCoin();
}

/** A number: Welford's update (as stats/moments.ts), and the quantile sketch's lowest levels. */
export function observeNumber(k: i32, value: f64): void {
  if ((keep & KEEP_SPREAD) == 0) return;
  const x = extrasOf(k);
  const n = load<f64>(x + X_N) + 1;
  store<f64>(x + X_N, n);
  const mean = load<f64>(x + X_MEAN);
  const delta = value - mean;
  const next = mean + delta / n;
  store<f64>(x + X_MEAN, next);
  store<f64>(x + X_M2, load<f64>(x + X_M2) + delta * (value - next));
  addQuantile(k, x + X_QUANTILE_LEVELS, value);
}

function finishHash(h: u32): u32 {
  h = (h ^ (h >>> 16)) * 0x85ebca6b;
  h = (h ^ (h >>> 13)) * 0xc2b2ae35;
  return h ^ (h >>> 16);
}

/** murmur3's mixing of one 32-bit word. */
function mixWord(w: u32): u32 {
  return rotl<u32>(w * 0xcc9e2d51, 15) * 0x1b873593;
}

/** stats/field-hash.ts's 53-bit hash, four bytes a step (never 0, as the distinct count keys it). */
export function fieldHash(s: usize, len: i32): u64 {
  let a: u32 = 0x811c9dc5;
  let c: u32 = 0x3c6ef372;
  const e = s + <usize>len;
  let i = s;
  for (; i + 4 <= e; i += 4) {
    const k = mixWord(load<u32>(i));
    a = rotl<u32>(a ^ k, 13) * 5 + 0xe6546b64;
    c = (c ^ k) * 0x5bd1e995;
  }
  // The last 0..3 bytes as a little-endian word: a whole word is read (the
  // chunk is followed by slack) and the bytes past the field masked off.
  const rest = <u32>(e - i) << 3;
  const k = mixWord(rest == 0 ? 0 : load<u32>(i) & (0xffffffff >>> (32 - rest)));
  a ^= k;
  c = (c ^ k) * 0x5bd1e995;
  const low = finishHash(a ^ <u32>len);
  const key = (<u64>(finishHash(c ^ low) & 0x1fffff) << 32) | <u64>low;
  return key == 0 ? 1 : key;
}

/** For tests: fieldHash as a double (exact: below 2^53). */
export function fieldKey(s: usize, len: i32): f64 {
  return <f64>fieldHash(s, len);
}

/**
 * A non-empty value's text, bytes s..s+len: tally (or distinct count and
 * frequent values), dates. True when a (pointer, length) to it was kept: a
 * quoted field's unescaped text must then stay in the arena.
 */
export function observeText(k: i32, s: usize, len: i32): bool {
  const x = extrasOf(k);
  let kept = false;
  if ((keep & KEEP_VALUES) != 0) {
    const key = fieldHash(s, len);
    if (load<i32>(x + X_SKETCH) == 0) kept = addTallied(x, key, s, len);
    else {
      addRegister(x + X_TABLE, key);
      kept = addFrequent(x, key, s, len);
    }
  }
  if (len >= 10 && load<u8>(s + 4) == 45 && addDate(x, s, len)) kept = true;
  return kept;
}

function addRegister(registers: usize, key: u64): void {
  const low = <u32>key;
  const index = low >>> (32 - HLL_BITS);
  const rest = low & ((1 << (32 - HLL_BITS)) - 1);
  const high = <u32>(key >>> 32);
  const rank = rest != 0 ? clz(rest) - HLL_BITS + 1 : high != 0 ? 32 - HLL_BITS + clz(high) - 10 : RANK_BITS + 1;
  const at = registers + <usize>index;
  if (<u32>rank > <u32>load<u8>(at)) store<u8>(at, <u8>rank);
}

function toSketch(x: usize): void {
  const table = x + X_TABLE;
  let n = 0;
  for (let i = 0; i < TALLY_SLOTS; i++) {
    const key = load<u64>(table + (<usize>i << 3));
    if (key == 0) continue;
    store<u64>(SCRATCH + (<usize>n << 3), key);
    n++;
  }
  memory.fill(table, 0, TABLE_BYTES);
  for (let i = 0; i < n; i++) addRegister(table, load<u64>(SCRATCH + (<usize>i << 3)));
  store<i32>(x + X_SKETCH, 1);
}

/** Counts a value in the tally; true when it is new (its text is then kept). */
function addTallied(x: usize, key: u64, s: usize, len: i32): bool {
  const table = x + X_TABLE;
  const mask = TALLY_SLOTS - 1;
  let i = <i32>key & mask;
  for (; ; i = (i + 1) & mask) {
    const slot = load<u64>(table + (<usize>i << 3));
    if (slot == key) {
      const at = x + X_TALLY_COUNTS + (<usize>i << 2);
      store<u32>(at, load<u32>(at) + 1);
      return false;
    }
    if (slot == 0) break;
  }
  store<u64>(table + (<usize>i << 3), key);
  store<u32>(x + X_TALLY_COUNTS + (<usize>i << 2), 1);
  store<i32>(x + X_TALLY_SPANS + (<usize>i << 3), <i32>s);
  store<i32>(x + X_TALLY_SPANS + (<usize>i << 3) + 4, len);
  const size = load<i32>(x + X_DISTINCT_SIZE) + 1;
  store<i32>(x + X_DISTINCT_SIZE, size);
  if (size > EXACT_LIMIT) {
    seedFrequent(x, size);
    toSketch(x);
  }
  return true;
}

/**
 * The Misra-Gries table from the tally's exact counts, as stats/frequent-values.ts's
 * cutFrequent does: the (FREQUENT_SLOTS + 1)-th largest count is subtracted
 * from every count and is the error; the counts left above 0 stay.
 */
function seedFrequent(x: usize, size: i32): void {
  const table = x + X_TABLE;
  let n = 0;
  for (let i = 0; i < TALLY_SLOTS; i++) {
    if (load<u64>(table + (<usize>i << 3)) == 0) continue;
    store<u32>(SCRATCH + (<usize>n << 2), load<u32>(x + X_TALLY_COUNTS + (<usize>i << 2)));
    n++;
  }
  const by = nthLargest(SCRATCH, size, FREQUENT_SLOTS);
  let kept = 0;
  for (let i = 0; i < TALLY_SLOTS; i++) {
    const key = load<u64>(table + (<usize>i << 3));
    const count = load<u32>(x + X_TALLY_COUNTS + (<usize>i << 2));
    if (key == 0 || count <= by) continue;
    store<u64>(x + X_FREQUENT_KEYS + (<usize>kept << 3), key);
    store<u32>(x + X_FREQUENT_COUNTS + (<usize>kept << 2), count - by);
    store<u64>(x + X_FREQUENT_SPANS + (<usize>kept << 3), load<u64>(x + X_TALLY_SPANS + (<usize>i << 3)));
    store<i32>(frequentSlot(x, key), kept + 1);
    kept++;
  }
  store<f64>(x + X_FREQUENT_ERROR, <f64>by);
  store<i32>(x + X_FREQUENT_SIZE, kept);
}

/** The slot of the frequent values' index that holds `key`, or the empty one where it would go. */
function frequentSlot(x: usize, key: u64): usize {
  const index = x + X_FREQUENT_INDEX;
  const mask = INDEX_SLOTS - 1;
  let i = <i32>key & mask;
  let at = index + (<usize>i << 2);
  let entry = load<i32>(at);
  while (entry != 0 && load<u64>(x + X_FREQUENT_KEYS + (<usize>(entry - 1) << 3)) != key) {
    i = (i + 1) & mask;
    at = index + (<usize>i << 2);
    entry = load<i32>(at);
  }
  return at;
}

/** Counts a value; true when it took a new counter (its text is then kept). */
function addFrequent(x: usize, key: u64, s: usize, len: i32): bool {
  let slot = frequentSlot(x, key);
  const entry = load<i32>(slot);
  if (entry != 0) {
    const at = x + X_FREQUENT_COUNTS + (<usize>(entry - 1) << 2);
    store<u32>(at, load<u32>(at) + 1);
    return false;
  }
  let size = load<i32>(x + X_FREQUENT_SIZE);
  if (size >= FREQUENT_SLOTS) {
    size = purge(x);
    slot = frequentSlot(x, key);
  }
  store<u64>(x + X_FREQUENT_KEYS + (<usize>size << 3), key);
  store<u32>(x + X_FREQUENT_COUNTS + (<usize>size << 2), 1);
  store<i32>(x + X_FREQUENT_SPANS + (<usize>size << 3), <i32>s);
  store<i32>(x + X_FREQUENT_SPANS + (<usize>size << 3) + 4, len);
  store<i32>(slot, size + 1);
  store<i32>(x + X_FREQUENT_SIZE, size + 1);
  return true;
}

/**
 * The full table's purge (as DataSketches' frequent items do): the median
 * count is subtracted from every counter and added to the error; those left
 * at or below 0 go. Each count stays short of the truth by at most the
 * error, and at least half the counters go: O(1) amortized per new value.
 */
function purge(x: usize): i32 {
  const counts = x + X_FREQUENT_COUNTS;
  memory.copy(SCRATCH, counts, 4 * FREQUENT_SLOTS);
  const by = nthLargest(SCRATCH, FREQUENT_SLOTS, FREQUENT_SLOTS / 2);
  let kept = 0;
  for (let i = 0; i < FREQUENT_SLOTS; i++) {
    const count = load<u32>(counts + (<usize>i << 2));
    if (count <= by) continue;
    store<u64>(x + X_FREQUENT_KEYS + (<usize>kept << 3), load<u64>(x + X_FREQUENT_KEYS + (<usize>i << 3)));
    store<u32>(counts + (<usize>kept << 2), count - by);
    store<u64>(x + X_FREQUENT_SPANS + (<usize>kept << 3), load<u64>(x + X_FREQUENT_SPANS + (<usize>i << 3)));
    kept++;
  }
  store<f64>(x + X_FREQUENT_ERROR, load<f64>(x + X_FREQUENT_ERROR) + <f64>by);
  memory.fill(x + X_FREQUENT_INDEX, 0, 4 * INDEX_SLOTS);
  for (let i = 0; i < kept; i++) {
    store<i32>(frequentSlot(x, load<u64>(x + X_FREQUENT_KEYS + (<usize>i << 3))), i + 1);
  }
  store<i32>(x + X_FREQUENT_SIZE, kept);
  return kept;
}

/** The n-th largest (0-based) of `count` u32 at `at`, reordering them (quickselect). */
function nthLargest(at: usize, count: i32, n: i32): u32 {
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const pivot = load<u32>(at + (<usize>((lo + hi) >> 1) << 2));
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (load<u32>(at + (<usize>i << 2)) > pivot) i++;
      while (load<u32>(at + (<usize>j << 2)) < pivot) j--;
      if (i <= j) {
        const t = load<u32>(at + (<usize>i << 2));
        store<u32>(at + (<usize>i << 2), load<u32>(at + (<usize>j << 2)));
        store<u32>(at + (<usize>j << 2), t);
        i++;
        j--;
      }
    }
    if (n <= j) hi = j;
    else if (n >= i) lo = i;
    else break;
  }
  return load<u32>(at + (<usize>n << 2));
}

/** Notes a date or timestamp (iso-date.ts's reading); true when it became an extreme (its text is kept). */
function addDate(x: usize, s: usize, len: i32): bool {
  const instant = isoInstant(s, s + <usize>len);
  if (isNaN(instant)) return false;
  store<i32>(x + X_DATES, load<i32>(x + X_DATES) + 1);
  if (len > 10) store<i32>(x + X_TIMED, load<i32>(x + X_TIMED) + 1);
  let kept = false;
  if (instant < load<f64>(x + X_DATE_MIN)) {
    store<f64>(x + X_DATE_MIN, instant);
    store<i32>(x + X_DATE_MIN_PTR, <i32>s);
    store<i32>(x + X_DATE_MIN_LEN, len);
    kept = true;
  }
  if (instant > load<f64>(x + X_DATE_MAX)) {
    store<f64>(x + X_DATE_MAX, instant);
    store<i32>(x + X_DATE_MAX_PTR, <i32>s);
    store<i32>(x + X_DATE_MAX_LEN, len);
    kept = true;
  }
  return kept;
}
