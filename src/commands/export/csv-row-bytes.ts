// A stored row (import writes each as a MessagePack array of strings: engine/worker/packed-output.ts) appended
// to the output as a CSV line straight from its bytes, with no string made per field. In UTF-8 the bytes of
// `"`, `,`, CR and LF occur only as those characters, so quoting byte by byte writes what csvField
// (export-format.ts) writes for the decoded string.
import type { PackedOutput } from '../../engine/worker/packed-output.js';
import { arrayAt, stringAt } from '../../engine/worker/packed-items.js';

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
/** Fields this short are copied byte by byte: cheaper than a view and a copy call. */
const SHORT = 32;

function needsQuotes(b: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = b[i]!;
    if (c === QUOTE || c === COMMA || c === LF || c === CR) return true;
  }
  return false;
}

/** Writes field bytes b[from, to) at `o` in `out`, quoted when they must be; returns the end. */
function writeField(out: Uint8Array, o: number, b: Uint8Array, from: number, to: number): number {
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

/**
 * Appends the row `b` to `output` as one CSV line. False, with nothing appended, when the bytes are not an array
 * of strings alone (another writer's row): the caller decodes that one.
 */
export function appendCsvRow(output: PackedOutput, b: Uint8Array): boolean {
  const array = b.length > 0 ? arrayAt(b, 0) : null;
  if (!array) return false;
  // Each byte at most twice (doubled quotes), two quotes and a separator a field, the line end.
  const out = output.reserve(2 * b.length + 3 * array.count + 1);
  let o = output.used;
  let at = array.next;
  for (let f = 0; f < array.count; f++) {
    const field = at < b.length ? stringAt(b, at) : null;
    if (!field || field.next + field.length > b.length) return false;
    if (f > 0) out[o++] = COMMA;
    o = writeField(out, o, b, field.next, field.next + field.length);
    at = field.next + field.length;
  }
  if (at !== b.length) return false;
  out[o++] = LF;
  output.used = o;
  return true;
}
