// The 53-bit hash of a field's bytes that the distinct count and the most
// frequent values key on. The WebAssembly scanner computes the same function
// (wasm/column-extras.ts, fieldHash; a unit test compares them): four bytes a
// step mixed as murmur3 mixes them, folded into two 32-bit lanes, each ended
// by murmur3's finalizer. 0 is read as 1 (the distinct count's empty slot).

function finish(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Two 32-bit lanes joined: 21 high bits, 32 low bits. */
export function joinHash(high: number, low: number): number {
  return (high & 0x1fffff) * 0x100000000 + (low >>> 0);
}

const rotl = (x: number, r: number) => (x << r) | (x >>> (32 - r));
const mixWord = (w: number) => Math.imul(rotl(Math.imul(w, 0xcc9e2d51), 15), 0x1b873593);

export function fieldHash(b: Uint8Array, s: number, e: number): number {
  let a = 0x811c9dc5;
  let c = 0x3c6ef372;
  let i = s;
  for (; i + 4 <= e; i += 4) {
    const k = mixWord(b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24));
    a = (Math.imul(rotl(a ^ k, 13), 5) + 0xe6546b64) | 0;
    c = Math.imul(c ^ k, 0x5bd1e995);
  }
  let w = 0;
  for (let shift = 0; i < e; i++, shift += 8) w |= b[i]! << shift;
  const k = mixWord(w);
  a ^= k;
  c = Math.imul(c ^ k, 0x5bd1e995);
  const low = finish(a ^ (e - s));
  return joinHash(finish(c ^ low), low) || 1;
}
