// Exact counts of a column's values, keyed by their 53-bit hash
// (field-hash.ts), while the column holds at most EXACT_LIMIT distinct ones:
// the distinct count and the most frequent values are then exact. A column
// past the limit hands its counts to the sketches (column-extras.ts) and
// drops its tally. The text of a value is read from the chunk's bytes when
// the chunk ends (settleTally), as the frequent values' is.

export interface ValueTally {
  size: number;
  keys: number[];
  counts: number[];
  /** The value's text; '' until settled while spans holds its bytes' range. */
  values: string[];
  /** Start and end in the chunk's bytes of each value not yet settled (-1: settled). */
  spans: number[];
  /**
   * A chunk's partial only (packTally): the keys, then the counts, in one
   * buffer to clone rather than two heap numbers per value; `keys` and
   * `counts` are then empty. A packed tally is only merged from or read.
   */
  packed?: Float64Array;
}

export function newValueTally(): ValueTally {
  return { size: 0, keys: [], counts: [], values: [], spans: [] };
}

/** Key → entry, built on first use on each side of a thread or checkpoint (not enumerable: never carried). */
function indexOf(t: ValueTally): Map<number, number> {
  const cached = (t as { index?: Map<number, number> }).index;
  if (cached) return cached;
  const index = new Map<number, number>();
  Object.defineProperty(t, 'index', { value: index, enumerable: false, writable: true });
  for (let i = 0; i < t.size; i++) index.set(t.keys[i]!, i);
  return index;
}

/** Counts one value (bytes s..e of the chunk, hash `key`). */
export function addTallied(t: ValueTally, key: number, s: number, e: number): void {
  const index = indexOf(t);
  const at = index.get(key);
  if (at !== undefined) {
    t.counts[at]!++;
    return;
  }
  index.set(key, t.size);
  t.keys.push(key);
  t.counts.push(1);
  t.values.push('');
  t.spans.push(s, e);
  t.size++;
}

/** Reads the text of the values still pointing into the chunk `b`. */
export function settleTally(t: ValueTally, b: Buffer): void {
  for (let i = 0; i < t.size; i++) {
    if (t.spans[2 * i]! < 0) continue;
    t.values[i] = b.toString('utf8', t.spans[2 * i]!, t.spans[2 * i + 1]!);
    t.spans[2 * i] = t.spans[2 * i + 1] = -1;
  }
}

/** Readies a settled chunk's tally for the trip to the main thread (see `packed`). */
export function packTally(t: ValueTally): void {
  const packed = new Float64Array(2 * t.size);
  packed.set(t.keys);
  packed.set(t.counts, t.size);
  t.packed = packed;
  t.keys = [];
  t.counts = [];
  t.spans = [];
}

/** The keys and counts, packed or not. */
export function entriesOf(t: ValueTally): { keys: ArrayLike<number>; counts: ArrayLike<number> } {
  if (!t.packed) return t;
  return { keys: t.packed.subarray(0, t.size), counts: t.packed.subarray(t.size) };
}

/** Folds a settled tally `b` into `a` (which may then hold more than EXACT_LIMIT values: the caller looks). */
export function mergeTally(a: ValueTally, b: ValueTally): void {
  const index = indexOf(a);
  const { keys, counts } = entriesOf(b);
  for (let i = 0; i < b.size; i++) {
    const at = index.get(keys[i]!);
    if (at !== undefined) {
      a.counts[at]! += counts[i]!;
      continue;
    }
    index.set(keys[i]!, a.size++);
    a.keys.push(keys[i]!);
    a.counts.push(counts[i]!);
    a.values.push(b.values[i]!);
    a.spans.push(-1, -1);
  }
}
