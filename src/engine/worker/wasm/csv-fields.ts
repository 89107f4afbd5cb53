// AssemblyScript, compiled to WebAssembly by `npm run build` (asc).
//
// The import's CSV reader: one pass over a chunk's bytes that splits its
// records as ../csv-records.ts does (comma-separated, RFC 4180 quoting, a
// bad record skipped to the end of its line) and notes where each field's
// text lies, sixteen bytes at a time (csv-search.ts). The chunk here is a copy: a quoted
// field's doubled quotes are undone in place.
//
// The caller (../csv-fields.ts) lays memory out from heapBase(): the entry
// table, then the chunk's bytes.

import {
  afterQuote, CR, fieldEndFrom, lineEndFrom, LF, newlinesPassed, NEXT_FIELD, NEXT_LINE, NEXT_TEXT, NEXT_UNKNOWN,
  nextAt, QUOTE, QUOTE_IN_FIELD, quoteFrom, TEXT_AFTER_QUOTE, UNCLOSED_QUOTE,
} from './csv-search';
/** Why a record is bad: its entry's count, negated. */
export { QUOTE_IN_FIELD, TEXT_AFTER_QUOTE, UNCLOSED_QUOTE } from './csv-search';

const COMMA: u32 = 44;

/** Status codes returned by scan(). */
export const NEED_MORE: i32 = -1;
export const PAUSED: i32 = -2;

/**
 * A record's entry in the table, in bytes: its first line, its field count, where it starts and ends in the
 * chunk, then the start and end of each of its first `width` fields (the others are counted, not noted).
 */
export const ENTRY_LINE: i32 = 0;
export const ENTRY_COUNT: i32 = 4;
export const ENTRY_START: i32 = 8;
export const ENTRY_END: i32 = 12;
export const ENTRY_FIELDS: i32 = 16;

/** What the last scan() left: the entries written, and the newlines passed up to where it stopped. */
let written: i32 = 0;
let lines: i32 = 0;
let stoppedAt: i32 = 0;

export function entries(): i32 {
  return written;
}

export function newlines(): i32 {
  return lines;
}

/** Where a PAUSED scan stopped: the next record's start, to scan on from. */
export function resumeAt(): i32 {
  return stoppedAt;
}

export function heapBase(): usize {
  return __heap_base;
}

/** Undoes a quoted field's doubled quotes in place: b[s, e) keeps one quote of each pair; returns its new end. */
function unescape(s: usize, e: usize): usize {
  let out = s;
  for (let i = s; i < e; i++) {
    const c = load<u8>(i);
    store<u8>(out++, c);
    if (c == QUOTE) i++;
  }
  return out;
}

/**
 * Reads the records of b[from, n) that start before `limit`, an entry each into `table` (room for `capacity`).
 * Returns the offset where they ended (newlines(): the newlines passed since the chunk's start), NEED_MORE when
 * the last record runs past n and the file goes on, or PAUSED when the table is full (resumeAt(), newlines()).
 */
export function scan(
  b: usize, n: i32, from: i32, line0: i32, limit: i32, atEof: bool, table: usize, capacity: i32, width: i32,
): i32 {
  const end = b + <usize>n;
  const stop = b + <usize>limit;
  const stride = <usize>(ENTRY_FIELDS + (width << 3));
  let i = b + <usize>from;
  let line = line0;
  let entry = table;
  written = 0;
  while (i < stop) {
    if (written == capacity) {
      stoppedAt = <i32>(i - b);
      lines = line;
      return PAUSED;
    }
    const recordStart = i;
    const recordLine = line;
    let c = <u32>load<u8>(i);
    if (c == LF) {
      i++;
      line++;
      continue;
    }
    if (c == CR) {
      if (i + 1 >= end && !atEof) return NEED_MORE;
      if (i + 1 < end && load<u8>(i + 1) == LF) {
        i += 2;
        line++;
        continue;
      }
    }
    let count = 0;
    let bad = 0;
    while (true) {
      if (i < end && load<u8>(i) == QUOTE) {
        let j = i + 1;
        let doubled = false;
        while (true) {
          j = quoteFrom(j, end);
          line += newlinesPassed;
          if (j >= end) {
            if (!atEof) return NEED_MORE;
            bad = UNCLOSED_QUOTE;
            break;
          }
          if (j + 1 >= end && !atEof) return NEED_MORE;
          if (j + 1 >= end || load<u8>(j + 1) != QUOTE) break;
          doubled = true;
          j += 2;
        }
        if (bad) {
          i = end;
          break;
        }
        if (count < width) {
          const slot = entry + ENTRY_FIELDS + (<usize>count << 3);
          store<i32>(slot, <i32>(i + 1 - b));
          store<i32>(slot + 4, <i32>((doubled ? unescape(i + 1, j) : j) - b));
        }
        count++;
        const next = afterQuote(j + 1, end, COMMA, atEof);
        if (next == NEXT_UNKNOWN) return NEED_MORE;
        i = nextAt;
        if (next == NEXT_FIELD) continue;
        if (next == NEXT_LINE) line++;
        if (next == NEXT_TEXT) bad = TEXT_AFTER_QUOTE;
        break;
      }
      const start = i;
      i = fieldEndFrom(i, end, COMMA);
      if (i >= end && !atEof) return NEED_MORE;
      c = i < end ? <u32>load<u8>(i) : 0xffffffff;
      if (c == QUOTE) {
        bad = QUOTE_IN_FIELD;
        break;
      }
      if (count < width) {
        const slot = entry + ENTRY_FIELDS + (<usize>count << 3);
        store<i32>(slot, <i32>(start - b));
        // A CR before the LF ends the line, not the field.
        store<i32>(slot + 4, <i32>((c == LF && i > start && load<u8>(i - 1) == CR ? i - 1 : i) - b));
      }
      count++;
      if (i >= end) break;
      i++;
      if (c == COMMA) continue;
      line++;
      break;
    }
    if (bad) {
      if (i < end) {
        // Skip the rest of the physical line and read on from the next.
        const next = lineEndFrom(i, end);
        if (next >= end && !atEof) return NEED_MORE;
        i = next < end ? next + 1 : end;
        if (next < end) line++;
      }
      count = -bad;
    }
    store<i32>(entry + ENTRY_LINE, recordLine);
    store<i32>(entry + ENTRY_COUNT, count);
    store<i32>(entry + ENTRY_START, <i32>(recordStart - b));
    store<i32>(entry + ENTRY_END, <i32>(i - b));
    entry += stride;
    written++;
  }
  lines = line;
  return <i32>(i - b);
}
