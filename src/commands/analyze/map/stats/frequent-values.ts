// The most frequent values of a column: a Misra-Gries summary of CAPACITY
// counters (Misra & Gries 1982; merged as Agarwal et al. 2012 do). Every
// count is a lower bound, short of the true count by at most `error`; the
// summary tracks that bound itself (the sum of its decrements), and it never
// exceeds n / (CAPACITY + 1). A value seen more than `error` times more than
// the sixth is surely among the top five, in order. Values are keyed by
// their 53-bit hash (field-hash.ts); the text of a value is read from the
// chunk's bytes only when the chunk ends (settleFrequent), for those kept.

export const CAPACITY = 64;
/** How many most frequent values a column lists unless `--top` says otherwise. */
export const TOP = 5;

export interface FrequentValues {
  /** Entries in use: the arrays may run longer (they never shrink while a chunk is read, so nothing is reallocated). */
  size: number;
  keys: number[];
  counts: number[];
  /** The value's text; '' until settled while spans holds its bytes' range. */
  values: string[];
  /** Start and end in the chunk's bytes of each value not yet settled (-1: settled). */
  spans: number[];
  /** How much any count may fall short of the truth. */
  error: number;
}

export function newFrequentValues(): FrequentValues {
  return { size: 0, keys: [], counts: [], values: [], spans: [], error: 0 };
}

/** Slots of the key index: a power of two, four per counter (two while a merge holds both sides'): short probes. */
const SLOTS = 4 * CAPACITY;

/**
 * Key → 1 + entry, open-addressed, built on first use on each side of a
 * thread or checkpoint: a property that is not enumerable, so neither
 * structured clone nor msgpackr carries it.
 */
function indexOf(f: FrequentValues): Int32Array {
  const cached = (f as { index?: Int32Array }).index;
  if (cached) return cached;
  const index = new Int32Array(SLOTS);
  Object.defineProperty(f, 'index', { value: index, enumerable: false, writable: true });
  for (let i = 0; i < f.size; i++) index[slotOf(f, index, f.keys[i]!)] = i + 1;
  return index;
}

/** The slot that holds `key`, or the empty slot where it would go. */
function slotOf(f: FrequentValues, index: Int32Array, key: number): number {
  let slot = key & (SLOTS - 1);
  for (let at = index[slot]!; at !== 0 && f.keys[at - 1] !== key; at = index[slot]!) slot = (slot + 1) & (SLOTS - 1);
  return slot;
}

/** Keeps the entries whose count stays above `by` after subtracting it. */
function subtract(f: FrequentValues, by: number): void {
  let kept = 0;
  for (let i = 0; i < f.size; i++) {
    if (f.counts[i]! <= by) continue;
    f.keys[kept] = f.keys[i]!;
    f.counts[kept] = f.counts[i]! - by;
    f.values[kept] = f.values[i]!;
    f.spans[2 * kept] = f.spans[2 * i]!;
    f.spans[2 * kept + 1] = f.spans[2 * i + 1]!;
    kept++;
  }
  f.size = kept;
  f.error += by;
  const index = indexOf(f);
  index.fill(0);
  for (let i = 0; i < kept; i++) index[slotOf(f, index, f.keys[i]!)] = i + 1;
}

/** Adds an entry at the end (assignments: the arrays keep their room). */
function append(f: FrequentValues, key: number, count: number, value: string, s: number, e: number): number {
  const at = f.size++;
  f.keys[at] = key;
  f.counts[at] = count;
  f.values[at] = value;
  f.spans[2 * at] = s;
  f.spans[2 * at + 1] = e;
  return f.size;
}

/** Counts one value (bytes s..e of the chunk, hash `key`). */
export function addFrequent(f: FrequentValues, key: number, s: number, e: number): void {
  const index = indexOf(f);
  const slot = slotOf(f, index, key);
  const at = index[slot]!;
  if (at !== 0) {
    f.counts[at - 1]!++;
    return;
  }
  if (f.size >= CAPACITY) {
    subtract(f, 1); // this value and every counter drop by one together
    return;
  }
  index[slot] = append(f, key, 1, '', s, e);
}

/** Reads the text of the values still pointing into the chunk `b`, and trims the arrays to the entries. */
export function settleFrequent(f: FrequentValues, b: Buffer): void {
  for (let i = 0; i < f.size; i++) {
    if (f.spans[2 * i]! < 0) continue;
    f.values[i] = b.toString('utf8', f.spans[2 * i]!, f.spans[2 * i + 1]!);
    f.spans[2 * i] = f.spans[2 * i + 1] = -1;
  }
  f.keys.length = f.counts.length = f.values.length = f.size;
  f.spans.length = 2 * f.size;
}

/** Folds a settled summary `b` into `a`, then cuts back to CAPACITY counters. */
export function mergeFrequent(a: FrequentValues, b: FrequentValues): void {
  const index = indexOf(a);
  for (let i = 0; i < b.size; i++) {
    const slot = slotOf(a, index, b.keys[i]!);
    const at = index[slot]!;
    if (at !== 0) a.counts[at - 1]! += b.counts[i]!;
    else index[slot] = append(a, b.keys[i]!, b.counts[i]!, b.values[i]!, b.spans[2 * i]!, b.spans[2 * i + 1]!);
  }
  a.error += b.error;
  if (a.size > CAPACITY) subtract(a, a.counts.slice(0, a.size).sort((x, y) => y - x)[CAPACITY]!);
}

/** Exact counts as a summary (a tally past its limit): cut to CAPACITY counters as a merge cuts. */
export function cutFrequent(
  size: number, keys: ArrayLike<number>, counts: ArrayLike<number>, values: readonly string[],
  spans: readonly number[],
): FrequentValues {
  const f = newFrequentValues();
  const by = size > CAPACITY ? Array.from(counts).slice(0, size).sort((x, y) => y - x)[CAPACITY]! : 0;
  for (let i = 0; i < size; i++) {
    if (counts[i]! > by) append(f, keys[i]!, counts[i]! - by, values[i]!, spans[2 * i] ?? -1, spans[2 * i + 1] ?? -1);
  }
  f.error = by;
  return f;
}

/** The `size` counted values with their counts, most first (ties by text). */
export function rankedValues(
  size: number, counts: ArrayLike<number>, values: readonly string[],
): { value: string; count: number }[] {
  return Array.from({ length: size }, (_, i) => ({ value: values[i]!, count: counts[i]! }))
    .sort((x, y) => y.count - x.count || (x.value < y.value ? -1 : x.value > y.value ? 1 : 0));
}
