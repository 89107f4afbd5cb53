// Worker-side CSV record reader for handlers that need the values (an
// import), not just statistics: each record is packed as a MessagePack array
// of strings while it is scanned, and bad records come back as data.
import { isUtf8 } from 'node:buffer';
import { COMMA, CR, LF, QUOTE } from './csv-field-bytes.js';
import { arrayHeaderSize, closeArray, closeString, MARGIN, type PackedOutput } from './packed-output.js';

const SPECIAL = new Uint8Array(256);
SPECIAL[COMMA] = SPECIAL[LF] = SPECIAL[QUOTE] = 1;


/** Why a record was not read: the reasons a bad row is reported with. */
export const BadRecord = {
  UnterminatedQuote: 'unterminated_quote',
  TextAfterQuote: 'text_after_closing_quote',
  QuoteInUnquotedField: 'quote_in_unquoted_field',
  InvalidUtf8: 'invalid_utf8',
} as const;
export type BadRecord = (typeof BadRecord)[keyof typeof BadRecord];

export const BAD_RECORD_MESSAGE: Readonly<Record<BadRecord, string>> = {
  [BadRecord.UnterminatedQuote]: 'a quoted field is not closed',
  [BadRecord.TextAfterQuote]: 'characters follow a closing quote',
  [BadRecord.QuoteInUnquotedField]: 'a quote inside an unquoted field',
  [BadRecord.InvalidUtf8]: 'the row is not valid UTF-8',
};

/** One record as a reader hands it over, valid only during the sink's call. */
export interface PackedRecord {
  /** The buffer the record is in: the output it was packed into (PackedOutput.bytes), or the chunk (csv-fields.ts). */
  bytes: Buffer;
  /** The record in `bytes`, its fields within: [start, end), its MessagePack array or its CSV text. */
  start: number;
  end: number;
  count: number;
  /** Each field's UTF-8 bytes in `bytes` (header excluded, doubled quotes undone), for the fields a handler reads. */
  fieldStarts: Int32Array;
  fieldEnds: Int32Array;
}

export interface RecordSink {
  /**
   * A whole record, packed at the end of the output; `line` is its first
   * line's offset from the chunk's first line. Field bytes are valid UTF-8.
   * Returns false to drop it (the output forgets its bytes).
   */
  record(record: PackedRecord, line: number): boolean;
  bad(line: number, reason: BadRecord): void;
}

/** A field's text (for the few fields a handler needs as strings). */
export function fieldText(record: PackedRecord, k: number): string {
  return record.bytes.toString('utf8', record.fieldStarts[k], record.fieldEnds[k]);
}

/** A record a reader fills in and hands to its sink, record after record. */
export function reusedRecord(): PackedRecord {
  const fields = () => new Int32Array(256);
  return { bytes: Buffer.alloc(0), start: 0, end: 0, count: 0, fieldStarts: fields(), fieldEnds: fields() };
}

/** Doubles the fields a record can note. */
export function growFields(record: PackedRecord): void {
  const k = record.fieldStarts.length;
  const s = new Int32Array(k * 2); s.set(record.fieldStarts); record.fieldStarts = s;
  const e = new Int32Array(k * 2); e.set(record.fieldEnds); record.fieldEnds = e;
}

const current = reusedRecord();

/**
 * Closes field `index`'s string (its header at `header`, its bytes up to `end`) and notes where its bytes are;
 * returns the new end.
 */
function endField(output: PackedOutput, header: number, end: number, index: number): number {
  const length = end - header - 1;
  const closed = closeString(output, header, end);
  current.fieldStarts[index] = closed - length;
  current.fieldEnds[index] = closed;
  return closed;
}

/**
 * Reads the records of a chunk that start before `limit` (all of them by
 * default), as csv-parse does with skip_empty_lines and a comma delimiter,
 * and packs each into `output` as a MessagePack array of strings in the same
 * pass: field bytes are copied once, as they are scanned, with no string
 * made. A malformed record is reported and skipped up to the end of its
 * line, and reading goes on. Returns where the records ended and the
 * newlines passed, or undefined when the last record runs past the bytes
 * and the file goes on (the caller reads further, resets the output and
 * calls again from the start).
 */
export function readCsvRecords(
  bytes: Uint8Array, output: PackedOutput, sink: RecordSink, limit = bytes.length, atEof = true,
): { consumed: number; newlines: number } | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const checkUtf8 = !isUtf8(b);
  const n = b.length;
  let out = output.reserve(MARGIN);
  let o = output.used;
  // Bytes kept for the array header: as many as the previous record needed (all records have the same width, mostly).
  let arrayHeader = 1;
  let i = 0;
  let line = 0;
  while (i < limit) {
    const recordStart = i;
    const recordLine = line;
    if (b[i] === LF) { i++; line++; continue; }
    if (b[i] === CR) {
      if (i + 1 >= n && !atEof) return undefined;
      if (b[i + 1] === LF) { i += 2; line++; continue; }
    }
    const recordOut = o;
    let count = 0;
    let bad: BadRecord | undefined;
    o += arrayHeader;
    for (;;) {
      if (out.length - o < 2 * MARGIN) { output.used = o; out = output.reserve(2 * MARGIN); }
      if (count === current.fieldStarts.length) growFields(current);
      // One byte for the string's header, fixed once its length is known.
      const header = o++;
      if (i < n && b[i] === QUOTE) {
        let j = i + 1;
        for (;;) {
          // Every byte read writes at most one: bounding the read by the room left bounds the writes.
          const stop = Math.min(n, j + out.length - o - MARGIN);
          while (j < stop) {
            const d = b[j]!;
            if (d === QUOTE) break;
            if (d === LF) line++;
            out[o++] = d;
            j++;
          }
          if (j < stop) {
            if (j + 1 >= n && !atEof) return undefined;
            if (b[j + 1] === QUOTE) { out[o++] = QUOTE; j += 2; continue; }
            break;
          }
          if (j >= n) {
            if (!atEof) return undefined;
            bad = BadRecord.UnterminatedQuote;
            break;
          }
          output.used = o;
          out = output.reserve(out.length);
        }
        if (bad) { i = n; break; }
        o = endField(output, header, o, count++);
        out = output.bytes;
        i = j + 1;
        if (i >= n) {
          if (!atEof) return undefined;
          break;
        }
        const c = b[i]!;
        if (c === COMMA) { i++; continue; }
        if (c === LF) { i++; line++; break; }
        if (c === CR) {
          if (i + 1 >= n && !atEof) return undefined;
          if (b[i + 1] === LF) { i += 2; line++; break; }
        }
        bad = BadRecord.TextAfterQuote;
        break;
      }
      for (;;) {
        const stop = Math.min(n, i + out.length - o - MARGIN);
        while (i < stop) {
          const c = b[i]!;
          if (SPECIAL[c] !== 0) break;
          out[o++] = c;
          i++;
        }
        if (i < stop || stop === n) break;
        output.used = o;
        out = output.reserve(out.length);
      }
      if (i >= n && !atEof) return undefined;
      const c = i < n ? b[i]! : -1;
      if (c === QUOTE) { bad = BadRecord.QuoteInUnquotedField; break; }
      // A CR before the LF ends the line, not the field.
      if (c === LF && o > header + 1 && out[o - 1] === CR) o--;
      o = endField(output, header, o, count++);
      out = output.bytes;
      if (i >= n) break;
      i++;
      if (c === COMMA) continue;
      line++;
      break;
    }
    if (bad) {
      o = recordOut;
      if (i < n) {
        // Skip the rest of the physical line and read on from the next.
        const next = b.indexOf(LF, i);
        if (next < 0 && !atEof) return undefined;
        i = next < 0 ? n : next + 1;
        if (next >= 0) line++;
      }
      sink.bad(recordLine, bad);
      continue;
    }
    if (checkUtf8 && !isUtf8(b.subarray(recordStart, i))) {
      o = recordOut;
      sink.bad(recordLine, BadRecord.InvalidUtf8);
      continue;
    }
    const shift = arrayHeaderSize(count) - arrayHeader;
    o = closeArray(output, recordOut, arrayHeader, count, o);
    // Only when the field count changed: the record's strings moved with the header.
    if (shift !== 0) {
      for (let k = 0; k < count; k++) {
        current.fieldStarts[k]! += shift;
        current.fieldEnds[k]! += shift;
      }
    }
    out = output.bytes;
    arrayHeader = arrayHeaderSize(count);
    output.used = o;
    current.bytes = out;
    current.start = recordOut;
    current.end = o;
    current.count = count;
    if (!sink.record(current, recordLine)) o = recordOut;
  }
  output.used = o;
  return { consumed: i, newlines: line };
}
