// A stored row (import writes each as a MessagePack array of strings: engine/worker/packed-output.ts) appended
// to the output as a CSV line straight from its bytes, with no string made per field: each field as csvField
// (export-format.ts) writes the decoded string.
import type { PackedOutput } from '../../engine/worker/packed-output.js';
import { arrayAt, stringAt } from '../../engine/worker/packed-items.js';
import { COMMA, LF, writeCsvField } from '../../engine/worker/csv-field-bytes.js';

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
    o = writeCsvField(out, o, b, field.next, field.next + field.length);
    at = field.next + field.length;
  }
  if (at !== b.length) return false;
  out[o++] = LF;
  output.used = o;
  return true;
}
