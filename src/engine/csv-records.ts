// Worker-side CSV record reader for handlers that need the values (an
// import), not just statistics: fields as strings, bad records as data.
import { isUtf8 } from 'node:buffer';

const COMMA = 44;
const QUOTE = 34;
const LF = 10;
const CR = 13;
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

/** The fields of one record as byte ranges: in `bytes`, or in `scratch` where `escaped` (doubled quotes undone). */
export interface FieldRanges {
  count: number;
  starts: Int32Array;
  ends: Int32Array;
  /** 1 where the field's bytes are in `scratch` (its doubled quotes were undone), else 0. */
  escaped: Uint8Array;
  bytes: Buffer;
  scratch: Buffer;
}

export interface RecordSink {
  /**
   * A whole record, valid only during the call; `line` is its first line's
   * offset from the chunk's first line. Field bytes are valid UTF-8.
   */
  record(fields: FieldRanges, line: number): void;
  bad(line: number, reason: BadRecord): void;
}

/** A field's text (for the few fields a handler needs as strings). */
export function fieldText(fields: FieldRanges, k: number): string {
  const source = fields.escaped[k] ? fields.scratch : fields.bytes;
  return source.toString('utf8', fields.starts[k], fields.ends[k]);
}

const ranges: FieldRanges = {
  count: 0,
  starts: new Int32Array(256),
  ends: new Int32Array(256),
  escaped: new Uint8Array(256),
  bytes: Buffer.alloc(0),
  scratch: Buffer.allocUnsafe(1 << 16),
};

function push(start: number, end: number, escaped: number): void {
  const k = ranges.count++;
  if (k === ranges.starts.length) {
    const s = new Int32Array(k * 2); s.set(ranges.starts); ranges.starts = s;
    const e = new Int32Array(k * 2); e.set(ranges.ends); ranges.ends = e;
    const x = new Uint8Array(k * 2); x.set(ranges.escaped); ranges.escaped = x;
  }
  ranges.starts[k] = start;
  ranges.ends[k] = end;
  ranges.escaped[k] = escaped;
}

/** Copies a quoted field's inner bytes into the scratch buffer with each doubled quote made single. */
function unescapeField(b: Buffer, start: number, end: number, at: number): number {
  if (ranges.scratch.length < at + (end - start)) {
    const bigger = Buffer.allocUnsafe(Math.max(ranges.scratch.length * 2, at + (end - start)));
    ranges.scratch.copy(bigger, 0, 0, at);
    ranges.scratch = bigger;
  }
  let n = at;
  for (let i = start; i < end; i++) {
    ranges.scratch[n++] = b[i]!;
    if (b[i] === QUOTE) i++;
  }
  return n;
}

/**
 * Reads the records of a chunk that start before `limit` (all of them by
 * default), as csv-parse does with skip_empty_lines and a comma delimiter,
 * without making a string per field. A malformed record is reported and
 * skipped up to the end of its line, and reading goes on. Returns where the
 * records ended and the newlines passed, or undefined when the last record
 * runs past the bytes and the file goes on (the caller reads further and
 * calls again from the start).
 */
export function readCsvRecords(bytes: Uint8Array, sink: RecordSink, limit = bytes.length, atEof = true): { consumed: number; newlines: number } | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  ranges.bytes = b;
  const checkUtf8 = !isUtf8(b);
  const n = b.length;
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
    ranges.count = 0;
    let scratchUsed = 0;
    let bad: BadRecord | undefined;
    for (;;) {
      if (i < n && b[i] === QUOTE) {
        let j = i + 1;
        let doubled = false;
        for (;;) {
          if (j >= n) {
            if (!atEof) return undefined;
            bad = BadRecord.UnterminatedQuote;
            break;
          }
          const d = b[j]!;
          if (d === QUOTE) {
            if (j + 1 >= n && !atEof) return undefined;
            if (b[j + 1] === QUOTE) { doubled = true; j += 2; continue; }
            break;
          }
          if (d === LF) line++;
          j++;
        }
        if (bad) { i = n; break; }
        if (doubled) {
          const end = unescapeField(b, i + 1, j, scratchUsed);
          push(scratchUsed, end, 1);
          scratchUsed = end;
        } else {
          push(i + 1, j, 0);
        }
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
      const start = i;
      while (i < n && SPECIAL[b[i]!] === 0) i++;
      if (i >= n && !atEof) return undefined;
      const c = i < n ? b[i]! : -1;
      if (c === QUOTE) { bad = BadRecord.QuoteInUnquotedField; break; }
      push(start, c === LF && i > start && b[i - 1] === CR ? i - 1 : i, 0);
      if (i >= n) break;
      i++;
      if (c === COMMA) continue;
      line++;
      break;
    }
    if (bad) {
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
      sink.bad(recordLine, BadRecord.InvalidUtf8);
      continue;
    }
    sink.record(ranges, recordLine);
  }
  return { consumed: i, newlines: line };
}
