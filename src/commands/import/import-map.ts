// Worker side of `stint import`: read a chunk's records, check each, and
// pack the good ones with msgpackr, so the main thread only writes.
import { Packr } from 'msgpackr';
import { readCsvRecords } from '../../engine/csv-records.js';
import type { ChunkInfo } from '../../engine/worker-protocol.js';
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

const packr = new Packr({ useRecords: false });
let out = Buffer.allocUnsafe(1 << 20);

export function map(bytes: Uint8Array, info: ChunkInfo): ImportChunk {
  const { width, keyIndex } = info.options as ImportMapOptions;
  let used = 0;
  let rows = 0;
  let ends = new Uint32Array(1024);
  let lines = new Uint32Array(1024);
  const keys: string[] | null = keyIndex === undefined ? null : [];
  const bad: ImportChunk['bad'][number][] = [];
  readCsvRecords(bytes, {
    record(fields, line) {
      if (fields.length !== width) return void bad.push({ line, reason: BadRow.FieldCount, before: rows });
      if (keys && fields[keyIndex!] === '') return void bad.push({ line, reason: BadRow.MissingKey, before: rows });
      const packed = packr.pack(fields);
      if (used + packed.length > out.length) {
        const bigger = Buffer.allocUnsafe(Math.max(out.length * 2, used + packed.length));
        out.copy(bigger, 0, 0, used);
        out = bigger;
      }
      packed.copy(out, used);
      used += packed.length;
      if (rows === ends.length) {
        const e = new Uint32Array(rows * 2); e.set(ends); ends = e;
        const l = new Uint32Array(rows * 2); l.set(lines); lines = l;
      }
      ends[rows] = used;
      lines[rows] = line;
      keys?.push(fields[keyIndex!]!);
      rows++;
    },
    bad(line, reason) {
      bad.push({ line, reason, before: rows });
    },
  });
  return { rows, packed: out.subarray(0, used), ends: ends.subarray(0, rows), lines: lines.subarray(0, rows), keys, bad };
}
