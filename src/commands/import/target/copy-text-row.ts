// A typed row as the workers pack it (a MessagePack array of strings, nil for an empty field) appended as a
// line of PostgreSQL's COPY text format straight from its bytes: tab between fields, \N for NULL, and the
// format's own characters (backslash, tab, LF, CR) escaped. No string is made per field.
import type { PackedOutput } from '../../../engine/worker/packed-output.js';
import { arrayAt, NIL, stringAt } from '../../../engine/worker/packed-items.js';

const BACKSLASH = 0x5c;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
/** What follows the backslash of each escaped byte (0: not escaped). */
const ESCAPED = new Uint8Array(256);
ESCAPED[BACKSLASH] = BACKSLASH;
ESCAPED[TAB] = 0x74;
ESCAPED[LF] = 0x6e;
ESCAPED[CR] = 0x72;

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
      out[o++] = BACKSLASH;
      out[o++] = 0x4e;
      at++;
      continue;
    }
    const field = at < b.length ? stringAt(b, at) : null;
    if (!field || field.next + field.length > b.length) return false;
    for (let i = field.next; i < field.next + field.length; i++) {
      const c = b[i]!;
      const escaped = ESCAPED[c]!;
      if (escaped !== 0) {
        out[o++] = BACKSLASH;
        out[o++] = escaped;
      } else out[o++] = c;
    }
    at = field.next + field.length;
  }
  if (at !== b.length) return false;
  out[o++] = LF;
  output.used = o;
  return true;
}
