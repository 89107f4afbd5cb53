// How many distinct values a column holds once it holds more than
// EXACT_LIMIT (until then value-tally.ts counts them exactly): a HyperLogLog
// sketch of 2^15 registers read with Ertl's improved estimator (2017: no bias tables,
// unbiased over the whole range): standard error 1.04/√2^15 ≈ 0.57 %, so the
// 2 % bound is 3.5 standard errors. Merging takes the registers' maxima: the
// same sketch as one fed everything. 32 KiB per column, only past the limit.
// The 2 % (RELATIVE_ERROR, stated in the output) holds with that confidence,
// not always: the caller also holds the estimate between what it knows.
// Values count as distinct by their text ("1" and "1.0" are two).

/** Register index bits (the scanner's wasm/column-extras.ts keeps the same). */
export const HLL_BITS = 15;
const P = HLL_BITS;
const M = 1 << P;
/** Rank bits beyond the register index: the hash has 53 bits. */
const Q = 53 - P;
export const EXACT_LIMIT = 2048;
/** The bound the output states for an estimate. */
export const RELATIVE_ERROR = 0.02;

/** The registers: one byte each, 32 KiB. */
export function newRegisters(): Uint8Array {
  return new Uint8Array(M);
}

export function addRegister(registers: Uint8Array, hash: number): void {
  const low = hash >>> 0;
  const index = low >>> (32 - P);
  const rest = low & ((1 << (32 - P)) - 1);
  const high = Math.floor(hash / 0x100000000);
  const rank = rest !== 0 ? Math.clz32(rest) - P + 1 : high !== 0 ? 32 - P + Math.clz32(high) - 10 : Q + 1;
  if (rank > registers[index]!) registers[index] = rank;
}

/** Takes the registers' maxima: `a` becomes the sketch of both sides' values. */
export function mergeRegisters(a: Uint8Array, b: Uint8Array): void {
  for (let i = 0; i < M; i++) if (b[i]! > a[i]!) a[i] = b[i]!;
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

/** Ertl's estimate, rounded (the caller bounds it by what it knows: see column-extras.ts). */
export function estimateDistinct(registers: Uint8Array): number {
  const histogram = new Array<number>(Q + 2).fill(0);
  for (const r of registers) histogram[r]!++;
  let z = M * tau(1 - histogram[Q + 1]! / M);
  for (let k = Q; k >= 1; k--) z = 0.5 * (z + histogram[k]!);
  z += M * sigma(histogram[0]! / M);
  return Math.round((M * M) / (2 * Math.LN2) / z);
}
