// Worker side of `stint import`: read a chunk's records, packed as
// MessagePack arrays of strings as they are scanned (what msgpackr's unpack
// reads back as string[]), and check each, so the main thread only writes.
import { fieldText, readCsvRecords } from '../../engine/csv-records.js';
import { PackedOutput } from '../../engine/packed-output.js';
import type { ChunkInfo, WindowInfo, WindowResult } from '../../engine/worker-protocol.js';
import { BadRow } from './bad-row.js';
import { spanDigest } from './import-ledger.js';

export interface ImportMapOptions {
  readonly width: number;
  /** Index of the --key column, when upserting. */
  readonly keyIndex?: number;
}

/** A chunk's rows, packed back to back; line numbers are offsets from the chunk's first line. */
export interface ImportChunk {
  readonly rows: number;
  readonly packed: Uint8Array;
  /** End offset of each row in `packed`. */
  readonly ends: Uint32Array;
  readonly lines: Uint32Array;
  readonly keys: string[] | null;
  readonly bad: { readonly line: number; readonly reason: BadRow; readonly before: number }[];
  /** The digest of the chunk's bytes, for the import's ledger. */
  readonly digest: Uint8Array;
}

/** This thread's output, reused across chunks (each reply's structured clone copies it whole). */
const output = new PackedOutput(1 << 20);
let ends = new Uint32Array(1 << 16);
let lines = new Uint32Array(1 << 16);

function growRows(): void {
  const e = new Uint32Array(ends.length * 2); e.set(ends); ends = e;
  const l = new Uint32Array(lines.length * 2); l.set(lines); lines = l;
}

/** The self-framing map the pool calls: the chunk ends where its records do (see readCsvRecords). */
export function mapWindow(bytes: Uint8Array, info: WindowInfo): WindowResult<ImportChunk> {
  return read(bytes, info, info.limit, info.atEof);
}

/** One chunk of whole records. */
export function map(bytes: Uint8Array, info: ChunkInfo): ImportChunk {
  return read(bytes, info, bytes.length, true)!.partial;
}

function read(bytes: Uint8Array, info: ChunkInfo, limit: number, atEof: boolean): WindowResult<ImportChunk> {
  const { width, keyIndex } = info.options as ImportMapOptions;
  output.used = 0;
  let rows = 0;
  const keys: string[] | null = keyIndex === undefined ? null : [];
  const bad: ImportChunk['bad'][number][] = [];
  const framed = readCsvRecords(bytes, output, {
    record(record, line) {
      if (record.count !== width) {
        bad.push({ line, reason: BadRow.FieldCount, before: rows });
        return false;
      }
      if (keys && record.fieldEnds[keyIndex!] === record.fieldStarts[keyIndex!]) {
        bad.push({ line, reason: BadRow.MissingKey, before: rows });
        return false;
      }
      if (rows === ends.length) growRows();
      ends[rows] = record.end;
      lines[rows] = line;
      keys?.push(fieldText(record, keyIndex!));
      rows++;
      return true;
    },
    bad(line, reason) {
      bad.push({ line, reason, before: rows });
    },
  }, limit, atEof);
  if (!framed) return undefined;
  // The row tables are copied to the chunk's size. `packed` stays a view: the reply's clone copies
  // its whole reused buffer (at most 1.5x the bytes used), which costs less than copying it first.
  const digest = spanDigest(bytes.subarray(0, framed.consumed));
  const packed = output.bytes.subarray(0, output.used);
  const partial = { rows, packed, ends: ends.slice(0, rows), lines: lines.slice(0, rows), keys, bad, digest };
  return { partial, ...framed };
}
