// Quantiles of a column's numbers from a KLL sketch (Karnin, Lang, Liberty
// 2016): a stack of compactors whose capacities shrink by 2/3 level by level;
// a full level is sorted and every other item (a coin picks odd or even) moves
// up with twice the weight. Merging appends level to level and compacts, so a
// merged sketch has the same error bound as one fed everything. With K = 400
// the normalized rank error stays under 1 % (about 0.7 % at 99 % confidence).
// Level 0 gathers QUANTILE_BUFFER values before the levels are swept (compacting a
// larger level at once only lowers the error).
// The coin is a xorshift generator kept in the sketch: the same chunks give
// the same answer. Plain arrays, so a sketch crosses threads and checkpoints.

export const QUANTILE_K = 400;
const SHRINK = 2 / 3;
/** Values gathered at level 0 before a sweep: one sort of many values costs far less than many sorts of few. */
export const QUANTILE_BUFFER = 2048;

export interface QuantileSketch {
  /** Values seen. */
  n: number;
  /** levels[h] holds items of weight 2^h. */
  levels: number[][];
  /** The coin's state (never 0). */
  seed: number;
  /**
   * A chunk's partial only (packQuantiles): every level's items in one
   * array, level after level, `levels` then empty. A structured clone
   * copies it as one buffer, where a number[] costs a heap number per item
   * on the receiving side. A packed sketch is only merged from or read.
   */
  packed?: { readonly items: Float64Array; readonly lengths: readonly number[] };
}

export function newQuantileSketch(): QuantileSketch {
  return { n: 0, levels: [[]], seed: 0x9e3779b9 };
}

function capacity(s: QuantileSketch, h: number): number {
  return Math.ceil(QUANTILE_K * SHRINK ** (s.levels.length - h - 1)) + 1;
}

function coin(s: QuantileSketch): number {
  let x = s.seed;
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  s.seed = x >>> 0 || 1;
  return s.seed & 1;
}

/** Where a level is sorted (natively, and without a new buffer each time). */
let scratch = new Float64Array(QUANTILE_BUFFER);

/** Sorts level h and moves every other item up a level; an odd one out stays. */
function compact(s: QuantileSketch, h: number): void {
  if (h + 1 >= s.levels.length) s.levels.push([]);
  const items = s.levels[h]!;
  if (items.length > scratch.length) scratch = new Float64Array(2 * items.length);
  const level = scratch.subarray(0, items.length);
  for (let i = 0; i < items.length; i++) level[i] = items[i]!;
  level.sort();
  const up = s.levels[h + 1]!;
  const start = level.length % 2;
  for (let i = start + coin(s); i < level.length; i += 2) up.push(level[i]!);
  s.levels[h] = start ? [level[0]!] : [];
}

/** Compacts every level over its capacity, lowest first (a compaction may fill the level above). */
function compress(s: QuantileSketch): void {
  for (let h = 0; h < s.levels.length; h++) {
    if (s.levels[h]!.length >= capacity(s, h)) compact(s, h);
  }
}

export function addQuantileValue(s: QuantileSketch, x: number): void {
  const level0 = s.levels[0]!;
  level0.push(x);
  s.n++;
  if (level0.length >= QUANTILE_BUFFER) compress(s);
}

/**
 * Items of weight 2^h at once (what the scanner's own lowest levels,
 * wasm/quantile-levels.ts, compacted up to level h); the levels are swept once they are in.
 */
export function addQuantileLevel(s: QuantileSketch, h: number, values: Float64Array): void {
  appendQuantileLevel(s, h, values);
  if (s.levels[h]!.length >= capacity(s, h)) compress(s);
}

/** As addQuantileLevel, but the levels are left for one sweep after several (sweepQuantiles). */
export function appendQuantileLevel(s: QuantileSketch, h: number, values: Float64Array): void {
  while (s.levels.length <= h) s.levels.push([]);
  const level = s.levels[h]!;
  for (let i = 0; i < values.length; i++) level.push(values[i]!);
  s.n += values.length * 2 ** h;
}

/** Compacts every level over its capacity. */
export function sweepQuantiles(s: QuantileSketch): void {
  compress(s);
}

/** Packs a partial's levels for the trip to the main thread (see `packed`). */
export function packQuantiles(s: QuantileSketch): void {
  const lengths = s.levels.map((level) => level.length);
  const items = new Float64Array(lengths.reduce((sum, length) => sum + length, 0));
  let at = 0;
  for (const level of s.levels) {
    items.set(level, at);
    at += level.length;
  }
  s.packed = { items, lengths };
  s.levels = lengths.map(() => []);
}

/** The levels' items, packed or not. */
function levelsOf(s: QuantileSketch): ArrayLike<number>[] {
  if (!s.packed) return s.levels;
  let at = 0;
  return s.packed.lengths.map((length) => s.packed!.items.subarray(at, (at += length)));
}

export function mergeQuantiles(a: QuantileSketch, b: QuantileSketch): void {
  if (b.n === 0) return;
  const levels = levelsOf(b);
  while (a.levels.length < levels.length) a.levels.push([]);
  levels.forEach((level, h) => {
    const into = a.levels[h]!;
    for (let i = 0; i < level.length; i++) into.push(level[i]!);
  });
  a.n += b.n;
  compress(a);
}

/** The values at the given fractions of the way through (each the least value with at least that share of weight). */
export function quantilesOf(s: QuantileSketch, fractions: readonly number[]): (number | undefined)[] {
  const items: [number, number][] = [];
  levelsOf(s).forEach((level, h) => {
    for (let i = 0; i < level.length; i++) items.push([level[i]!, 2 ** h]);
  });
  items.sort((x, y) => x[0] - y[0]);
  const total = items.reduce((sum, item) => sum + item[1], 0);
  return fractions.map((q) => {
    if (total === 0) return undefined;
    let seen = 0;
    for (const [x, weight] of items) {
      seen += weight;
      if (seen >= q * total) return x;
    }
    return items[items.length - 1]![0];
  });
}
