// Worker-side CSV record reader for handlers that need the values (an
// import), not just statistics: fields as strings, bad records as data.
import { isAscii, isUtf8 } from 'node:buffer';
import { ErrorCode } from '../contract/error-code.js';

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

export interface RecordSink {
  /** A whole record; `line` is its first line's offset from the chunk's first line. */
  record(fields: string[], line: number): void;
  bad(line: number, reason: BadRecord): void;
}

export const MALFORMED_CSV = ErrorCode.MalformedCsv;

/**
 * Reads every record of a chunk of whole records, as csv-parse does with
 * skip_empty_lines and a comma delimiter. A malformed record is reported
 * and skipped up to the end of its line, and reading goes on.
 */
export function readCsvRecords(bytes: Uint8Array, sink: RecordSink): void {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const checkUtf8 = !isUtf8(b);
  const encoding = !checkUtf8 && isAscii(b) ? 'latin1' : 'utf8';
  const n = b.length;
  let i = 0;
  let line = 0;
  const fields: string[] = [];
  while (i < n) {
    const recordStart = i;
    const recordLine = line;
    if (b[i] === LF) { i++; line++; continue; }
    if (b[i] === CR && b[i + 1] === LF) { i += 2; line++; continue; }
    fields.length = 0;
    let bad: BadRecord | undefined;
    for (;;) {
      if (i < n && b[i] === QUOTE) {
        let j = i + 1;
        let doubled = false;
        for (;;) {
          if (j >= n) { bad = BadRecord.UnterminatedQuote; break; }
          const d = b[j]!;
          if (d === QUOTE) {
            if (b[j + 1] === QUOTE) { doubled = true; j += 2; continue; }
            break;
          }
          if (d === LF) line++;
          j++;
        }
        if (bad) { i = n; break; }
        const raw = b.toString(encoding, i + 1, j);
        fields.push(doubled ? raw.replaceAll('""', '"') : raw);
        i = j + 1;
        if (i >= n) break;
        const c = b[i]!;
        if (c === COMMA) { i++; continue; }
        if (c === LF) { i++; line++; break; }
        if (c === CR && b[i + 1] === LF) { i += 2; line++; break; }
        bad = BadRecord.TextAfterQuote;
        break;
      }
      const start = i;
      while (i < n && SPECIAL[b[i]!] === 0) i++;
      const c = i < n ? b[i]! : -1;
      if (c === QUOTE) { bad = BadRecord.QuoteInUnquotedField; break; }
      const end = c === LF && i > start && b[i - 1] === CR ? i - 1 : i;
      fields.push(b.toString(encoding, start, end));
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
    sink.record(fields, recordLine);
  }
}
