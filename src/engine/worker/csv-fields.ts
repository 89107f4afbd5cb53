// Worker-side CSV reader for handlers that write each field in a form of
// their own (an import into a database): a WebAssembly scanner (wasm/
// csv-fields.ts, built by `npm run build`) notes where each field's text lies
// in a copy of the chunk, and copies no field, where csv-records.ts packs
// every field as it reads. Records, bad records and framing follow
// csv-records.ts's rules; its tests hold the two readers to one answer.
import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { ErrorCode } from '../../contract/error-code.js';
import { StintError } from '../../contract/stint-error.js';
import { BadRecord, growFields, reusedRecord, type RecordSink } from './csv-records.js';

const WASM_URL = new URL('./wasm/csv-fields.wasm', import.meta.url);
const PAGE = 64 * 1024;
/** The scanner stores offsets as i32: its memory stays below 2 GiB. */
export const MEMORY_LIMIT = 2 ** 31 - PAGE;
/** A memory grown past this for one long record is let go after its chunk: a fresh instance starts small. */
const KEEP_MEMORY = 256 * 1024 * 1024;
/** The entry table's bytes: records are handed over a tableful at a time. */
export const TABLE_BYTES = 1 << 20;

interface ScannerExports {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  scan(
    at: number, length: number, from: number, line: number, limit: number, atEof: number,
    table: number, capacity: number, width: number,
  ): number;
  entries(): number;
  newlines(): number;
  resumeAt(): number;
}

const CONSTANT_NAMES = [
  'NEED_MORE', 'PAUSED', 'UNCLOSED_QUOTE', 'TEXT_AFTER_QUOTE', 'QUOTE_IN_FIELD',
  'ENTRY_LINE', 'ENTRY_COUNT', 'ENTRY_START', 'ENTRY_END', 'ENTRY_FIELDS',
] as const;
type Constants = Record<(typeof CONSTANT_NAMES)[number], number>;

/**
 * An instance of a module built with the field scanner (this folder's, or one that adds to it, as the import's
 * Parquet writer does): its exports, its constants, and why a record is bad by its entry's negated count.
 */
export interface FieldScanner {
  readonly url: string;
  readonly x: ScannerExports;
  readonly exports: Readonly<Record<string, unknown>>;
  readonly k: Constants;
  readonly reasons: BadRecord[];
}

const compiled = new Map<string, WebAssembly.Module>();
const scanners = new Map<string, FieldScanner>();

/** This thread's instance of the module at `url` (made on first use), given the functions it imports. */
export function fieldScanner(url: URL, imports: Record<string, unknown> = {}): FieldScanner {
  const known = scanners.get(url.href);
  if (known) return known;
  let module = compiled.get(url.href);
  if (!module) compiled.set(url.href, module = new WebAssembly.Module(readFileSync(url)));
  const exports = new WebAssembly.Instance(module, {
    env: { abort: () => { throw new Error('the CSV field scanner aborted'); }, ...imports },
  }).exports;
  const k = Object.fromEntries(
    CONSTANT_NAMES.map((name) => [name, (exports[name] as WebAssembly.Global).value as number]),
  ) as Constants;
  const reasons: BadRecord[] = [];
  reasons[k.UNCLOSED_QUOTE] = BadRecord.UnterminatedQuote;
  reasons[k.TEXT_AFTER_QUOTE] = BadRecord.TextAfterQuote;
  reasons[k.QUOTE_IN_FIELD] = BadRecord.QuoteInUnquotedField;
  const scanner = { url: url.href, x: exports as unknown as ScannerExports, exports, k, reasons };
  scanners.set(url.href, scanner);
  return scanner;
}

/** Where a scan laid the entry table and the chunk's copy out, and how many entries the table holds now. */
export interface FieldTable {
  readonly tableAt: number;
  readonly chunkAt: number;
  readonly entries: number;
}

const current = reusedRecord();

/** Copies the chunk in after the table; answers where it is. */
function place(x: ScannerExports, bytes: Uint8Array, tableAt: number): number {
  const chunkAt = tableAt + TABLE_BYTES;
  const needed = chunkAt + bytes.length;
  if (needed > MEMORY_LIMIT) {
    const message = `a window of ${bytes.length} bytes is more than the CSV field scanner can hold`;
    throw new StintError(ErrorCode.RecordTooLong, message, { context: { line_offset: 0 } });
  }
  growMemory(x.memory, needed);
  new Uint8Array(x.memory.buffer, chunkAt, bytes.length).set(bytes);
  return chunkAt;
}

/** Grows the memory to at least `bytes` (views of it made before are then detached). */
export function growMemory(memory: WebAssembly.Memory, bytes: number): void {
  const have = memory.buffer.byteLength;
  if (bytes > have) memory.grow(Math.ceil((bytes - have) / PAGE));
}

/**
 * Scans the records of a chunk that start before `limit` with the scanner's module, handing each tableful of
 * entries to `onTable` (which may grow the memory). Returns where the records ended and the newlines passed, or
 * undefined when the last record runs past the bytes and the file goes on.
 */
export function scanFields(
  scanner: FieldScanner, bytes: Uint8Array, width: number, limit: number, atEof: boolean,
  onTable: (table: FieldTable) => void,
): { consumed: number; newlines: number } | undefined {
  const { x, k } = scanner;
  const tableAt = (x.heapBase() + 15) & ~15;
  const capacity = Math.max(1, Math.floor(TABLE_BYTES / (k.ENTRY_FIELDS + 8 * width)));
  const chunkAt = place(x, bytes, tableAt);
  let from = 0;
  let line = 0;
  try {
    for (;;) {
      const status = x.scan(chunkAt, bytes.length, from, line, limit, atEof ? 1 : 0, tableAt, capacity, width);
      if (status === k.NEED_MORE) return undefined;
      onTable({ tableAt, chunkAt, entries: x.entries() });
      if (status !== k.PAUSED) return { consumed: status, newlines: x.newlines() };
      from = x.resumeAt();
      line = x.newlines();
    }
  } finally {
    if (x.memory.buffer.byteLength > KEEP_MEMORY) scanners.delete(scanner.url);
  }
}

/**
 * Reads the records of a chunk that start before `limit` (all of them by default), as readCsvRecords does,
 * handing each to the sink with its fields where they lie in a copy of the chunk (a record of more fields than
 * `width` has only its first `width` noted: its count says how many it has). Returns where the records ended and
 * the newlines passed, or undefined when the last record runs past the bytes and the file goes on.
 */
export function readCsvFields(
  bytes: Uint8Array, width: number, sink: RecordSink, limit = bytes.length, atEof = true,
): { consumed: number; newlines: number } | undefined {
  const scanner = fieldScanner(WASM_URL);
  const checkUtf8 = !isUtf8(bytes);
  while (width > current.fieldStarts.length) growFields(current);
  return scanFields(scanner, bytes, width, limit, atEof, ({ tableAt, chunkAt, entries }) => {
    const { buffer } = scanner.x.memory;
    current.bytes = Buffer.from(buffer, chunkAt, bytes.length);
    const table = new Int32Array(buffer, tableAt, TABLE_BYTES >> 2);
    handOver(scanner, table, entries, width, checkUtf8 ? bytes : undefined, sink);
  });
}

/** Hands the table's entries to the sink; `original`, when given, is the chunk to check each record's UTF-8 in. */
function handOver(
  { k, reasons }: FieldScanner, table: Int32Array, entries: number, width: number,
  original: Uint8Array | undefined, sink: RecordSink,
): void {
  const stride = (k.ENTRY_FIELDS >> 2) + 2 * width;
  const { fieldStarts, fieldEnds } = current;
  for (let e = 0, at = 0; e < entries; e++, at += stride) {
    const line = table[at + (k.ENTRY_LINE >> 2)]!;
    const count = table[at + (k.ENTRY_COUNT >> 2)]!;
    if (count < 0) {
      sink.bad(line, reasons[-count]!);
      continue;
    }
    current.start = table[at + (k.ENTRY_START >> 2)]!;
    current.end = table[at + (k.ENTRY_END >> 2)]!;
    if (original && !isUtf8(original.subarray(current.start, current.end))) {
      sink.bad(line, BadRecord.InvalidUtf8);
      continue;
    }
    current.count = count;
    const noted = Math.min(count, width);
    for (let f = 0, o = at + (k.ENTRY_FIELDS >> 2); f < noted; f++, o += 2) {
      fieldStarts[f] = table[o]!;
      fieldEnds[f] = table[o + 1]!;
    }
    sink.record(current, line);
  }
}
