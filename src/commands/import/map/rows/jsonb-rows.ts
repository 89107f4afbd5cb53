// A chunk's typed rows as one value of SQLite's JSONB (its binary JSON, https://sqlite.org/jsonb.html): an
// array of rows, each an array of its fields (then, for a keyed row, its rowid). One INSERT … SELECT over
// jsonb_each() spreads it into the table inside SQLite, where binding each row's values from JavaScript cost
// most of an import. A field's bytes are copied as they are (raw text needs no escaping in JSONB); no string is
// made per field. A worker writes a record so, without its id (appendJsonbRecord: rows that follow each other
// take ids that do too); the main thread a keyed row packed as MessagePack, with its id (appendJsonbRow).
import type { PackedOutput } from '../../../../engine/worker/packed-output.js';
import type { PackedRecord } from '../../../../engine/worker/csv-records.js';
import { arrayAt, NIL, stringAt } from '../../../../engine/worker/packed-items.js';

/** The element types stint writes, in the low four bits of an element's first byte. */
const JsonbType = { Null: 0, True: 1, False: 2, Int: 3, TextRaw: 10, Array: 11 } as const;
type JsonbType = (typeof JsonbType)[keyof typeof JsonbType];

/** The high four bits: a payload under 12 bytes says its size there, a longer one in the next 1, 2 or 4 bytes. */
const SIZE_IN_1 = 12;
const SIZE_IN_2 = 13;
const SIZE_IN_4 = 14;
/** An array's header is written once its size is known: always 4 size bytes, which SQLite reads like any other. */
const ARRAY_HEADER = 5;

/** Writes the header of an element of `type` with a payload of `size` bytes at `o`; answers where it ends. */
function header(out: Uint8Array, o: number, type: JsonbType, size: number): number {
  if (size < SIZE_IN_1) {
    out[o] = (size << 4) | type;
    return o + 1;
  }
  if (size < 0x100) {
    out[o] = (SIZE_IN_1 << 4) | type;
    out[o + 1] = size;
    return o + 2;
  }
  if (size < 0x10000) {
    out[o] = (SIZE_IN_2 << 4) | type;
    out[o + 1] = size >>> 8;
    out[o + 2] = size & 0xff;
    return o + 3;
  }
  out[o] = (SIZE_IN_4 << 4) | type;
  writeSize4(out, o + 1, size);
  return o + 5;
}

function writeSize4(out: Uint8Array, at: number, size: number): void {
  out[at] = size >>> 24;
  out[at + 1] = (size >>> 16) & 0xff;
  out[at + 2] = (size >>> 8) & 0xff;
  out[at + 3] = size & 0xff;
}

/** Reserves an array's header; `closeArray` with the answer fills it in. */
export function openArray(output: PackedOutput): number {
  const at = output.used;
  output.reserve(ARRAY_HEADER);
  output.used += ARRAY_HEADER;
  return at;
}

export function closeArray(output: PackedOutput, at: number): void {
  output.bytes[at] = (SIZE_IN_4 << 4) | JsonbType.Array;
  writeSize4(output.bytes, at + 1, output.used - at - ARRAY_HEADER);
}

/** The row's id, last in its array: a JSON integer's digits. */
function appendId(output: PackedOutput, id: number): void {
  const digits = String(id);
  const o = header(output.bytes, output.used, JsonbType.Int, digits.length);
  output.used = o + output.bytes.write(digits, o, 'latin1');
}

/** A boolean column's field (`true` or `false` in any case, as the workers checked it) as JSONB's own. */
const booleanType = (firstByte: number): JsonbType => ((firstByte | 32) === 0x74 ? JsonbType.True : JsonbType.False);

/** Writes the field b[from, to) at `o` (room for its length and 5) as text, true or false, or null when empty. */
function writeField(out: Uint8Array, o: number, b: Uint8Array, from: number, to: number, boolean: boolean): number {
  if (from === to) {
    out[o] = JsonbType.Null;
    return o + 1;
  }
  if (boolean) {
    out[o] = booleanType(b[from]!);
    return o + 1;
  }
  o = header(out, o, JsonbType.TextRaw, to - from);
  for (let i = from; i < to; i++) out[o++] = b[i]!;
  return o;
}

/** Appends a record (packed in another output) as one row's array of fields; `booleans` marks boolean columns. */
export function appendJsonbRecord(output: PackedOutput, record: PackedRecord, booleans: readonly boolean[]): void {
  const row = output.used;
  const out = output.reserve(ARRAY_HEADER + 5 * record.count + record.end - record.start);
  let o = row + ARRAY_HEADER;
  for (let f = 0; f < record.count; f++) {
    o = writeField(out, o, record.bytes, record.fieldStarts[f]!, record.fieldEnds[f]!, booleans[f] === true);
  }
  output.used = o;
  closeArray(output, row);
}

/**
 * Appends row `b` as the workers pack it (a MessagePack array of strings, nil for an empty field: both empty
 * strings and nils become NULL) with its id;
 * false, with nothing appended, when it is not an array of strings and nils. `booleans` marks boolean columns.
 */
export function appendJsonbRow(output: PackedOutput, b: Uint8Array, id: number, booleans: readonly boolean[]): boolean {
  const array = b.length > 0 ? arrayAt(b, 0) : null;
  if (!array) return false;
  const row = output.used;
  // Each field's header at most one byte longer than MessagePack's, the id under 24 bytes.
  const out = output.reserve(ARRAY_HEADER + b.length + array.count + 24);
  let o = row + ARRAY_HEADER;
  let at = array.next;
  for (let f = 0; f < array.count; f++) {
    if (b[at] === NIL) {
      out[o++] = JsonbType.Null;
      at++;
      continue;
    }
    const field = at < b.length ? stringAt(b, at) : null;
    if (!field || field.next + field.length > b.length) return false;
    o = writeField(out, o, b, field.next, field.next + field.length, booleans[f] === true);
    at = field.next + field.length;
  }
  if (at !== b.length) return false;
  output.used = o;
  appendId(output, id);
  closeArray(output, row);
  return true;
}

/** Appends a row given as its fields' text (null: an empty field) with its id: for rows of another shape. */
export function appendJsonbFields(
  output: PackedOutput, fields: readonly (string | null)[], id: number, booleans: readonly boolean[],
): void {
  const row = openArray(output);
  const element = (type: JsonbType) => {
    output.reserve(1);
    output.bytes[output.used++] = type;
  };
  fields.forEach((text, f) => {
    if (text === null || text === '') element(JsonbType.Null);
    else if (booleans[f]) element(booleanType(text.charCodeAt(0)));
    else {
      const size = Buffer.byteLength(text);
      const out = output.reserve(size + ARRAY_HEADER);
      const o = header(out, output.used, JsonbType.TextRaw, size);
      output.used = o + out.write(text, o);
    }
  });
  output.reserve(24);
  appendId(output, id);
  closeArray(output, row);
}
