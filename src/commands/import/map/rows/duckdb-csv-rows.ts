// A keyed row (packed as MessagePack by the workers) appended as a line of the CSV an upsert's rows reach
// DuckDB in: its own CSV reader loads them far faster than appending them value by value from JavaScript. A nil
// stays empty, which the reader takes as NULL (a typed import has no empty text: an empty field is NULL); a
// timestamp is spelled the way DuckDB's cast reads it. Rows that are not keyed go as Parquet
// (duckdb-parquet-rows.ts).
import type { PackedOutput } from '../../../../engine/worker/packed-output.js';
import { arrayAt, NIL, stringAt } from '../../../../engine/worker/packed-items.js';
import { COMMA, LF, writeCsvField } from '../../../../engine/worker/csv-field-bytes.js';
import { duckdbTimestamp } from './duckdb-timestamp.js';

/** Writes a timestamp field b[from, to) at `o`, respelled when DuckDB would misread it; returns the end. */
function writeTimestamp(out: Uint8Array, o: number, b: Uint8Array, from: number, to: number): number {
  const text = Buffer.from(b.buffer, b.byteOffset + from, to - from).toString();
  const spelled = duckdbTimestamp(text);
  if (spelled === text) return writeCsvField(out, o, b, from, to);
  const bytes = Buffer.from(spelled);
  return writeCsvField(out, o, bytes, 0, bytes.length);
}

/**
 * Appends row `b` as one CSV line; false, with nothing appended, when it is not an array of strings and nils.
 * `timestamps` marks the timestamp columns.
 */
export function appendDuckCsvRow(output: PackedOutput, b: Uint8Array, timestamps: readonly boolean[]): boolean {
  const array = b.length > 0 ? arrayAt(b, 0) : null;
  if (!array) return false;
  // Each byte at most twice (doubled quotes), two quotes and a separator a field, the line end; a respelled
  // timestamp (under 40 bytes) is at most a few bytes longer than its field.
  const out = output.reserve(2 * b.length + 8 * array.count + 1);
  let o = output.used;
  let at = array.next;
  for (let f = 0; f < array.count; f++) {
    if (f > 0) out[o++] = COMMA;
    if (b[at] === NIL) {
      at++;
      continue;
    }
    const field = at < b.length ? stringAt(b, at) : null;
    if (!field || field.next + field.length > b.length) return false;
    const end = field.next + field.length;
    o = timestamps[f] ? writeTimestamp(out, o, b, field.next, end) : writeCsvField(out, o, b, field.next, end);
    at = end;
  }
  if (at !== b.length) return false;
  out[o++] = LF;
  output.used = o;
  return true;
}
