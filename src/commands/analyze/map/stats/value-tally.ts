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

/**
 * Key → 1 + entry, open-addressed in a power of two of slots at most half full (grown by doubling), built on
 * first use on each side of a thread or checkpoint: a property that is not enumerable, so neither structured
 * clone nor msgpackr carries it. Typed, not a Map: a wide table's fold holds millions of keys, and a Map of
 * 53-bit numbers keeps each as an object the collector walks.
 */
function indexOf(t: ValueTally): Int32Array {
  const cached = (t as { index?: Int32Array }).index;
  if (cached && 2 * t.size < cached.length) return cached;
  let slots = 16;
  while (slots <= 2 * t.size) slots *= 2;
  const index = new Int32Array(slots);
  Object.defineProperty(t, 'index', { value: index, enumerable: false, writable: true });
  const { keys } = entriesOf(t);
  for (let i = 0; i < t.size; i++) index[slotOf(keys, index, keys[i]!)] = i + 1;
  return index;
}

/** The slot that holds `key`, or the empty slot where it would go. */
function slotOf(keys: ArrayLike<number>, index: Int32Array, key: number): number {
  const mask = index.length - 1;
  let slot = key & mask;
  for (let at = index[slot]!; at !== 0 && keys[at - 1] !== key; at = index[slot]!) slot = (slot + 1) & mask;
  return slot;
}

/** Indexes the entry just appended at the empty `slot`; past half full the index is built anew, larger, with it. */
function indexLast(t: ValueTally, index: Int32Array, slot: number): void {
  if (2 * t.size < index.length) index[slot] = t.size;
  else indexOf(t);
}

/** Counts one value (bytes s..e of the chunk, hash `key`). */
export function addTallied(t: ValueTally, key: number, s: number, e: number): void {
  const index = indexOf(t);
  const slot = slotOf(t.keys, index, key);
  const at = index[slot]!;
  if (at !== 0) {
    t.counts[at - 1]!++;
    return;
  }
  t.keys.push(key);
  t.counts.push(1);
  t.values.push('');
  t.spans.push(s, e);
  t.size++;
  indexLast(t, index, slot);
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
  const { keys, counts } = entriesOf(b);
  for (let i = 0; i < b.size; i++) {
    const index = indexOf(a);
    const slot = slotOf(a.keys, index, keys[i]!);
    const at = index[slot]!;
    if (at !== 0) {
      a.counts[at - 1]! += counts[i]!;
      continue;
    }
    a.keys.push(keys[i]!);
    a.counts.push(counts[i]!);
    a.values.push(b.values[i]!);
    a.spans.push(-1, -1);
    a.size++;
    indexLast(a, index, slot);
  }
}
