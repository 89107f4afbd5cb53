import { closeSync, openSync, readSync } from 'node:fs';
import { ErrorCode } from '../contract/error-code.js';
import { StintCode } from './stint-codes.js';
import { StintError } from '../contract/stint-error.js';
import { findRecordStart, type ScanState } from '../engine/framing.js';

/** The header record of a CSV file and where its data begins. */
export interface CsvHeader {
  readonly names: readonly string[];
  /** Byte offset of the first data record. */
  readonly dataStart: number;
  /** 1-based line number at dataStart. */
  readonly dataLine: number;
}

const BOM = [0xef, 0xbb, 0xbf];
const SAMPLE = 64 * 1024;

/** Splits one record's text into fields, as csv-parse does; undefined when its quoting is malformed. */
export function splitRecord(text: string): string[] | undefined {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (text[i] === '"') {
      let value = '';
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) return undefined;
        value += text.slice(j, q);
        if (text[q + 1] === '"') { value += '"'; j = q + 2; continue; }
        i = q + 1;
        break;
      }
      fields.push(value);
      if (i >= text.length) return fields;
      if (text[i] !== ',') return undefined;
      i++;
      continue;
    }
    const comma = text.indexOf(',', i);
    const value = text.slice(i, comma < 0 ? text.length : comma);
    if (value.includes('"')) return undefined;
    fields.push(value);
    if (comma < 0) return fields;
    i = comma + 1;
  }
}

/** Reads the header on the main thread, so every worker knows the record width before the first chunk. */
export function readCsvHeader(path: string, size: number, maxRecordBytes: number, label = path): CsvHeader {
  if (size === 0) {
    throw new StintError(StintCode.EmptyInput, `${label} is empty: there is no header`, { context: { path: label } });
  }
  const fd = openSync(path, 'r');
  try {
    let buffer = Buffer.allocUnsafe(Math.min(size, SAMPLE));
    let filled = readSync(fd, buffer, 0, buffer.length, 0);
    if (buffer.subarray(0, filled).includes(0)) {
      const message = `${label} holds NUL bytes: it is binary, not CSV`;
      throw new StintError(StintCode.NotCsv, message, { context: { path: label } });
    }
    let start = BOM.every((byte, k) => buffer[k] === byte) ? 3 : 0;
    let line = 1;
    for (;;) {
      const state: ScanState = { inQuote: false, newlines: 0 };
      let end = findRecordStart(buffer, start, filled, state, true);
      while (end < 0 && filled < size) {
        if (filled - start > maxRecordBytes) {
          const message = `the header of ${label} runs on for more than ${maxRecordBytes} bytes`
            + ' (an unterminated quote?)';
          throw new StintError(ErrorCode.RecordTooLong, message, { context: { path: label, line } });
        }
        const bigger = Buffer.allocUnsafe(Math.min(size, buffer.length * 2));
        buffer.copy(bigger, 0, 0, filled);
        buffer = bigger;
        filled += readSync(fd, buffer, filled, buffer.length - filled, filled);
        Object.assign(state, { inQuote: false, newlines: 0 });
        end = findRecordStart(buffer, start, filled, state, true);
      }
      if (end < 0) end = filled;
      let text = buffer.toString('utf8', start, end);
      text = text.endsWith('\r\n') ? text.slice(0, -2) : text.endsWith('\n') ? text.slice(0, -1) : text;
      const dataLine = line + state.newlines;
      if (text === '' && end < size) {
        // csv-parse skips empty lines, even before the header.
        start = end;
        line = dataLine;
        continue;
      }
      if (text === '') {
        const message = `${label} has no header: it holds only empty lines`;
        throw new StintError(StintCode.EmptyInput, message, { context: { path: label } });
      }
      const names = splitRecord(text);
      if (!names) {
        const message = `the header of ${label} is not valid CSV (line ${line})`;
        throw new StintError(StintCode.MalformedCsv, message, { context: { path: label, line } });
      }
      return { names, dataStart: end, dataLine };
    }
  } finally {
    closeSync(fd);
  }
}
