// Worker side of `stint import`: read a chunk's records, check each, and
// pack the good ones with msgpackr, so the main thread only writes.
import { fieldText, readCsvRecords, type FieldRanges } from '../../engine/csv-records.js';
import type { ChunkInfo, WindowInfo, WindowResult } from '../../engine/worker-protocol.js';
import { BadRow } from './bad-row.js';

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
}

let out = Buffer.allocUnsafe(1 << 20);
let used = 0;

function reserve(bytes: number): void {
  if (used + bytes <= out.length) return;
  const bigger = Buffer.allocUnsafe(Math.max(out.length * 2, used + bytes));
  out.copy(bigger, 0, 0, used);
  out = bigger;
}

/**
 * Writes the record as a MessagePack array of strings straight from its
 * UTF-8 bytes: what msgpackr's unpack reads back as string[], with no
 * string made on the way.
 */
function packRecord(fields: FieldRanges): void {
  let size = 5;
  for (let k = 0; k < fields.count; k++) size += 5 + fields.ends[k]! - fields.starts[k]!;
  reserve(size);
  const n = fields.count;
  if (n < 16) out[used++] = 0x90 | n;
  else { out[used++] = 0xdc; out.writeUInt16BE(n, used); used += 2; }
  for (let k = 0; k < n; k++) {
    const source = fields.escaped[k] ? fields.scratch : fields.bytes;
    const start = fields.starts[k]!;
    const length = fields.ends[k]! - start;
    if (length < 32) out[used++] = 0xa0 | length;
    else if (length < 0x100) { out[used++] = 0xd9; out[used++] = length; }
    else if (length < 0x10000) { out[used++] = 0xda; out.writeUInt16BE(length, used); used += 2; }
    else { out[used++] = 0xdb; out.writeUInt32BE(length, used); used += 4; }
    // A byte loop beats Buffer.copy's call for the short fields CSV is made of.
    if (length < 64) for (let i = 0; i < length; i++) out[used + i] = source[start + i]!;
    else source.copy(out, used, start, start + length);
    used += length;
  }
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
  used = 0;
  let rows = 0;
  let ends = new Uint32Array(1024);
  let lines = new Uint32Array(1024);
  const keys: string[] | null = keyIndex === undefined ? null : [];
  const bad: ImportChunk['bad'][number][] = [];
  const framed = readCsvRecords(bytes, {
    record(fields, line) {
      if (fields.count !== width) return void bad.push({ line, reason: BadRow.FieldCount, before: rows });
      if (keys && fields.ends[keyIndex!] === fields.starts[keyIndex!]) return void bad.push({ line, reason: BadRow.MissingKey, before: rows });
      packRecord(fields);
      if (rows === ends.length) {
        const e = new Uint32Array(rows * 2); e.set(ends); ends = e;
        const l = new Uint32Array(rows * 2); l.set(lines); lines = l;
      }
      ends[rows] = used;
      lines[rows] = line;
      keys?.push(fieldText(fields, keyIndex!));
      rows++;
    },
    bad(line, reason) {
      bad.push({ line, reason, before: rows });
    },
  }, limit, atEof);
  if (!framed) return undefined;
  return { partial: { rows, packed: out.subarray(0, used), ends: ends.subarray(0, rows), lines: lines.subarray(0, rows), keys, bad }, ...framed };
}
