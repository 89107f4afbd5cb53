// How many distinct values a column holds: exact (a set of 53-bit hashes)
// while there are at most EXACT_LIMIT of them, then a HyperLogLog sketch of
// 2^15 registers read with Ertl's improved estimator (2017: no bias tables,
// unbiased over the whole range): standard error 1.04/√2^15 ≈ 0.57 %, so the
// 2 % bound is 3.5 standard errors. Merging takes the registers' maxima: the
// same sketch as one fed everything. 32 KiB per column, only past the limit.
// Values count as distinct by their text ("1" and "1.0" are two).

/** Register index bits (the scanner's wasm/column-extras.ts keeps the same). */
export const HLL_BITS = 15;
const P = HLL_BITS;
const M = 1 << P;
/** Rank bits beyond the register index: the hash has 53 bits. */
const Q = 53 - P;
export const EXACT_LIMIT = 2048;

export interface DistinctCount {
  /** Open-addressed hashes (0 = empty slot) while exact; null once a sketch. */
  table: number[] | null;
  /** Values in the table. */
  size: number;
  /** HyperLogLog registers once past EXACT_LIMIT. */
  registers: Uint8Array | null;
  /**
   * A chunk's partial only (packDistinct): the exact set's values one after
   * the other, `table` then empty; one buffer to clone rather than a heap
   * number per value. A packed count is only merged from or read.
   */
  packed?: Float64Array;
}

export function newDistinctCount(): DistinctCount {
  return { table: new Array<number>(16).fill(0), size: 0, registers: null };
}

function addRegister(registers: Uint8Array, hash: number): void {
  const low = hash >>> 0;
  const index = low >>> (32 - P);
  const rest = low & ((1 << (32 - P)) - 1);
  const high = Math.floor(hash / 0x100000000);
  const rank = rest !== 0 ? Math.clz32(rest) - P + 1 : high !== 0 ? 32 - P + Math.clz32(high) - 10 : Q + 1;
  if (rank > registers[index]!) registers[index] = rank;
}

/** Inserts into an open-addressed table; true when the value is new. */
function insert(table: number[], key: number): boolean {
  const mask = table.length - 1;
  for (let i = key & mask; ; i = (i + 1) & mask) {
    const slot = table[i]!;
    if (slot === key) return false;
    if (slot === 0) {
      table[i] = key;
      return true;
    }
  }
}

function toSketch(d: DistinctCount): void {
  d.registers = new Uint8Array(M);
  for (const key of d.table!) if (key !== 0) addRegister(d.registers, key);
  d.table = null;
}

export function addDistinct(d: DistinctCount, hash: number): void {
  const key = hash || 1;
  if (d.table === null) {
    addRegister(d.registers!, key);
    return;
  }
  if (!insert(d.table, key)) return;
  if (++d.size * 2 <= d.table.length) return;
  if (d.size > EXACT_LIMIT) {
    toSketch(d);
    return;
  }
  const old = d.table;
  d.table = new Array<number>(old.length * 2).fill(0);
  for (const k of old) if (k !== 0) insert(d.table, k);
}

/** Packs a partial's exact set for the trip to the main thread (see `packed`). */
export function packDistinct(d: DistinctCount): void {
  if (d.table === null) return;
  d.packed = Float64Array.from(d.table.filter((key) => key !== 0));
  d.table = [];
}

export function mergeDistinct(a: DistinctCount, b: DistinctCount): void {
  if (b.table !== null) {
    for (const key of b.packed ?? b.table) if (key !== 0) addDistinct(a, key);
    return;
  }
  if (a.table !== null) toSketch(a);
  const r = a.registers!;
  const s = b.registers!;
  for (let i = 0; i < M; i++) if (s[i]! > r[i]!) r[i] = s[i]!;
}

function sigma(x: number): number {
  if (x === 1) return Infinity;
  let y = 1;
  let z = x;
  for (;;) {
    x *= x;
    const before = z;
    z += x * y;
    y += y;
    if (z === before) return z;
  }
}

function tau(x: number): number {
  if (x === 0 || x === 1) return 0;
  let y = 1;
  let z = 1 - x;
  for (;;) {
    x = Math.sqrt(x);
    const before = z;
    y *= 0.5;
    z -= (1 - x) ** 2 * y;
    if (z === before) return z / 3;
  }
}

/** The count: exact while the table holds, else Ertl's estimate rounded. */
export function distinctOf(d: DistinctCount): { count: number; exact: boolean } {
  if (d.table !== null) return { count: d.size, exact: true };
  const histogram = new Array<number>(Q + 2).fill(0);
  for (const r of d.registers!) histogram[r]!++;
  let z = M * tau(1 - histogram[Q + 1]! / M);
  for (let k = Q; k >= 1; k--) z = 0.5 * (z + histogram[k]!);
  z += M * sigma(histogram[0]! / M);
  return { count: Math.round((M * M) / (2 * Math.LN2) / z), exact: false };
}
