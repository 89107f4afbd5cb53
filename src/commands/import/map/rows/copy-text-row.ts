// A typed row appended as a line of PostgreSQL's COPY text format straight from its bytes: tab between fields,
// \N for NULL, and the format's own characters (backslash, tab, LF, CR) escaped. No string is made per field.
// A worker writes a record so (appendCopyRecord); the main thread a keyed row the workers packed as
// MessagePack, nil for an empty field (appendCopyRow).
import type { PackedOutput } from '../../../../engine/worker/packed-output.js';
import type { PackedRecord } from '../../../../engine/worker/csv-records.js';
import { arrayAt, NIL, stringAt } from '../../../../engine/worker/packed-items.js';

const BACKSLASH = 0x5c;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const N = 0x4e;
/** What follows the backslash of each escaped byte (0: not escaped). */
const ESCAPED = new Uint8Array(256);
ESCAPED[BACKSLASH] = BACKSLASH;
ESCAPED[TAB] = 0x74;
ESCAPED[LF] = 0x6e;
ESCAPED[CR] = 0x72;

/** Writes the field b[from, to) escaped at `o` (room for twice its length); returns the end. */
function writeField(out: Uint8Array, o: number, b: Uint8Array, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const c = b[i]!;
    const escaped = ESCAPED[c]!;
    if (escaped !== 0) {
      out[o++] = BACKSLASH;
      out[o++] = escaped;
    } else out[o++] = c;
  }
  return o;
}

function writeNull(out: Uint8Array, o: number): number {
  out[o] = BACKSLASH;
  out[o + 1] = N;
  return o + 2;
}

/** Appends row `b`; false, with nothing appended, when it is not an array of strings and nils. */
export function appendCopyRow(output: PackedOutput, b: Uint8Array): boolean {
  const array = b.length > 0 ? arrayAt(b, 0) : null;
  if (!array) return false;
  // Each byte at most twice, \N and a separator a field, the line end.
  const out = output.reserve(2 * b.length + 3 * array.count + 1);
  let o = output.used;
  let at = array.next;
  for (let f = 0; f < array.count; f++) {
    if (f > 0) out[o++] = TAB;
    if (b[at] === NIL) {
      o = writeNull(out, o);
      at++;
      continue;
    }
    const field = at < b.length ? stringAt(b, at) : null;
    if (!field || field.next + field.length > b.length) return false;
    o = writeField(out, o, b, field.next, field.next + field.length);
    at = field.next + field.length;
  }
  if (at !== b.length) return false;
  out[o++] = LF;
  output.used = o;
  return true;
}

/** Appends a record (packed in another output) as a line: an empty field is NULL, as a typed table holds it. */
export function appendCopyRecord(output: PackedOutput, record: PackedRecord): void {
  const out = output.reserve(2 * (record.end - record.start) + 3 * record.count + 1);
  let o = output.used;
  for (let f = 0; f < record.count; f++) {
    if (f > 0) out[o++] = TAB;
    const from = record.fieldStarts[f]!;
    const to = record.fieldEnds[f]!;
    o = from === to ? writeNull(out, o) : writeField(out, o, record.bytes, from, to);
  }
  out[o++] = LF;
  output.used = o;
}
