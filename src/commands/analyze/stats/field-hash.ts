// The 53-bit hash of a field's bytes that the distinct count and the most
// frequent values key on. The WebAssembly scanner computes the same function
// (wasm/csv-scan.ts, fieldHash): FNV-1a in two lanes, then murmur3's finalizer.

function finish(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Two 32-bit lanes joined: 21 high bits, 32 low bits. */
export function joinHash(high: number, low: number): number {
  return (high & 0x1fffff) * 0x100000000 + (low >>> 0);
}

export function fieldHash(b: Uint8Array, s: number, e: number): number {
  let a = 0x811c9dc5;
  let c = 0x3c6ef372;
  for (let i = s; i < e; i++) {
    a = Math.imul(a ^ b[i]!, 0x01000193);
    c = Math.imul(c ^ b[i]!, 0x5bd1e995);
  }
  const low = finish(a ^ (e - s));
  return joinHash(finish(c ^ low), low);
}
