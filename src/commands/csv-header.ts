import { isUtf8 } from 'node:buffer';
import { ErrorCode } from '../contract/error-code.js';
import { StintCode } from './stint-codes.js';
import { StintError } from '../contract/stint-error.js';
import { findRecordStart, type ScanState } from '../engine/worker/framing.js';
import { COMMA, detectDelimiter } from './csv-delimiter.js';
import { convertHint, otherFormatOf } from './other-format.js';
import { sampleOf, withPrefix, type Prefix } from './csv-prefix.js';

/** The header record of a CSV file and where its data begins. */
export interface CsvHeader {
  readonly names: readonly string[];
  /** Byte offset of the first data record (of the decompressed bytes, for a gzip file). */
  readonly dataStart: number;
  /** 1-based line number at dataStart. */
  readonly dataLine: number;
  /** 1-based line number of the header (after any empty lines). */
  readonly line: number;
  /** The byte between fields. */
  readonly delimiter: number;
  /** Lines end in a lone CR (old Mac files): the records are read with each CR as a LF. */
  readonly crLineEnds: boolean;
  /** The header's bytes are not valid UTF-8 (its bad bytes were read as U+FFFD). */
  readonly invalidUtf8: boolean;
}

/** How to read a header: the delimiter (forced, or detected when undefined and `detect`), and a gzip input. */
export interface HeaderOptions {
  readonly delimiter?: number;
  /** Detect the delimiter and lone-CR line ends (analyze); without it a header is comma-separated, LF-ended. */
  readonly detect?: boolean;
  readonly gzip?: boolean;
}

const BOM = [0xef, 0xbb, 0xbf];
const SAMPLE = 64 * 1024;
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/** Why one record's text is not CSV, or its fields, read as csv-parse reads them. */
export function parseRecord(text: string, delimiter = ','): { fields: string[] } | { reason: string } {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (text[i] === '"') {
      let value = '';
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) return { reason: 'a quoted field is not closed' };
        value += text.slice(j, q);
        if (text[q + 1] === '"') { value += '"'; j = q + 2; continue; }
        i = q + 1;
        break;
      }
      fields.push(value);
      if (i >= text.length) return { fields };
      if (text[i] !== delimiter) return { reason: 'characters follow a closing quote' };
      i++;
      continue;
    }
    const at = text.indexOf(delimiter, i);
    const value = text.slice(i, at < 0 ? text.length : at);
    if (value.includes('"')) return { reason: 'a quote inside an unquoted field' };
    fields.push(value);
    if (at < 0) return { fields };
    i = at + 1;
  }
}

/** Whether the first line end outside quotes from `start` is a lone CR (a CR-only file); `eof`: bytes are all. */
function endsInLoneCr(bytes: Uint8Array, start: number, eof: boolean): boolean {
  let inQuote = false;
  for (let i = start; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === QUOTE) inQuote = !inQuote;
    else if (!inQuote && c === LF) return false;
    else if (!inQuote && c === CR) return i + 1 < bytes.length ? bytes[i + 1] !== LF : eof;
  }
  return false;
}

/** Reads the header on the main thread, so every worker knows the record width before the first chunk. */
export function readCsvHeader(
  path: string, size: number, maxRecordBytes: number, label = path, options: HeaderOptions = {},
): CsvHeader {
  if (size === 0) {
    throw new StintError(StintCode.EmptyInput, `${label} is empty: there is no header`, { context: { path: label } });
  }
  const header = (prefix: Prefix) => headerOf(prefix, maxRecordBytes, label, options);
  return withPrefix(path, size, label, options.gzip === true, header);
}

/** NOT_CSV for an input that is another format (named, with what to do) or binary. */
function refuseOtherFormats(bytes: Buffer, label: string): void {
  const other = otherFormatOf(bytes, label);
  if (other) {
    throw new StintError(StintCode.NotCsv, `${label} is ${other.name}, not CSV`, {
      context: { path: label, format: other.format }, fix_required: convertHint(other, label),
    });
  }
  if (bytes.includes(0)) {
    const message = `${label} holds NUL bytes: it is binary, not CSV`;
    throw new StintError(StintCode.NotCsv, message, { context: { path: label } });
  }
}

function headerOf(prefix: Prefix, maxRecordBytes: number, label: string, options: HeaderOptions): CsvHeader {
  let wanted = SAMPLE;
  let { bytes, eof } = prefix(wanted);
  if (bytes.length === 0) {
    throw new StintError(StintCode.EmptyInput, `${label} is empty: there is no header`, { context: { path: label } });
  }
  let start = BOM.every((byte, k) => bytes[k] === byte) ? 3 : 0;
  refuseOtherFormats(bytes.subarray(start), label);
  const crLineEnds = options.detect === true && endsInLoneCr(bytes, start, eof);
  if (crLineEnds) ({ bytes, eof } = sampleOf(prefix, wanted, true));
  let line = 1;
  for (;;) {
    const state: ScanState = { inQuote: false, newlines: 0 };
    let end = findRecordStart(bytes, start, bytes.length, state, true);
    while (end < 0 && !eof) {
      if (bytes.length - start > maxRecordBytes) {
        const message = `the header of ${label} runs on for more than ${maxRecordBytes} bytes`
          + ' (an unterminated quote?)';
        throw new StintError(ErrorCode.RecordTooLong, message, { context: { path: label, line } });
      }
      wanted *= 2;
      ({ bytes, eof } = sampleOf(prefix, wanted, crLineEnds));
      Object.assign(state, { inQuote: false, newlines: 0 });
      end = findRecordStart(bytes, start, bytes.length, state, true);
    }
    if (end < 0) end = bytes.length;
    const raw = bytes.subarray(start, end);
    let text = raw.toString('utf8');
    text = text.endsWith('\r\n') ? text.slice(0, -2) : text.endsWith('\n') ? text.slice(0, -1) : text;
    const dataLine = line + state.newlines;
    if (text === '' && !(eof && end >= bytes.length)) {
      // csv-parse skips empty lines, even before the header.
      start = end;
      line = dataLine;
      continue;
    }
    if (text === '') {
      const message = `${label} has no header: it holds only empty lines`;
      throw new StintError(StintCode.EmptyInput, message, { context: { path: label } });
    }
    const delimiter = options.delimiter ?? (options.detect ? detectDelimiter(bytes.subarray(start)) : COMMA);
    const parsed = parseRecord(text, String.fromCharCode(delimiter));
    if ('reason' in parsed) {
      const message = `the header of ${label} is not valid CSV: ${parsed.reason} (line ${line})`;
      throw new StintError(StintCode.MalformedCsv, message, { context: { path: label, line, reason: parsed.reason } });
    }
    const invalidUtf8 = !isUtf8(raw);
    return { names: parsed.fields, dataStart: end, dataLine, line, delimiter, crLineEnds, invalidUtf8 };
  }
}
