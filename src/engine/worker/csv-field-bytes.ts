// A CSV field written straight from its bytes, with no string made: quoted only when it must be. In UTF-8 the
// bytes of `"`, `,`, CR and LF occur only as those characters, so quoting byte by byte writes what quoting the
// decoded string would.

export const QUOTE = 0x22;
export const COMMA = 0x2c;
export const LF = 0x0a;
export const CR = 0x0d;
/** Fields this short are copied byte by byte: cheaper than a view and a copy call. */
const SHORT = 32;

function needsQuotes(b: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = b[i]!;
    if (c === QUOTE || c === COMMA || c === LF || c === CR) return true;
  }
  return false;
}

/** Writes field bytes b[from, to) at `o` in `out` (room for twice their length and two quotes); returns the end. */
export function writeCsvField(out: Uint8Array, o: number, b: Uint8Array, from: number, to: number): number {
  if (!needsQuotes(b, from, to)) {
    if (to - from >= SHORT) {
      out.set(b.subarray(from, to), o);
      return o + to - from;
    }
    for (let i = from; i < to; i++) out[o++] = b[i]!;
    return o;
  }
  out[o++] = QUOTE;
  for (let i = from; i < to; i++) {
    const c = b[i]!;
    out[o++] = c;
    if (c === QUOTE) out[o++] = QUOTE;
  }
  out[o++] = QUOTE;
  return o;
}
