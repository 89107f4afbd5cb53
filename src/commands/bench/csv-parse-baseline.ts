// The baseline stint analyze is held to: a single-thread csv-parse stream
// loop computing the same statistics. Where a choice exists it is the
// cheaper one (UTF-16 string order and lengths), so the ratio is not flattered.
import { createReadStream } from 'node:fs';
import { remoteStream } from '../../engine/remote-stream.js';
import { isRemotePath } from '../../engine/worker/remote-url.js';
import { parse } from 'csv-parse';
import { addExact, roundExact } from '../analyze/exact-sum.js';

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;
const BOOLEAN = /^(true|false)$/i;

interface Column {
  count: number; nulls: number; numeric: boolean; integer: boolean; boolean: boolean;
  min: number; max: number; sum: number[]; smin?: string; smax?: string; lmin: number; lmax: number;
}

const newColumn = (): Column => ({
  count: 0, nulls: 0, numeric: true, integer: true, boolean: true,
  min: Infinity, max: -Infinity, sum: [], lmin: Infinity, lmax: -Infinity,
});

export async function csvParseStats(path: string): Promise<{ rows: number; columns: number }> {
  const options = { bom: true, relax_column_count: true, skip_empty_lines: true };
  const input = isRemotePath(path) ? remoteStream(path) : createReadStream(path, { highWaterMark: 1 << 20 });
  const parser = input.pipe(parse(options));
  let header: string[] | undefined;
  let columns: Column[] = [];
  let rows = 0;
  for await (const record of parser as AsyncIterable<string[]>) {
    if (!header) {
      header = record;
      columns = header.map(newColumn);
      continue;
    }
    if (record.length !== header.length) continue;
    rows++;
    for (let k = 0; k < record.length; k++) {
      const v = record[k]!;
      const c = columns[k]!;
      if (v === '') { c.nulls++; continue; }
      c.count++;
      if (c.smin === undefined || v < c.smin) c.smin = v;
      if (c.smax === undefined || v > c.smax) c.smax = v;
      if (v.length < c.lmin) c.lmin = v.length;
      if (v.length > c.lmax) c.lmax = v.length;
      if (NUMBER.test(v)) {
        const n = Number(v);
        if (n < c.min) c.min = n;
        if (n > c.max) c.max = n;
        addExact(c.sum, n);
        if (!INTEGER.test(v)) c.integer = false;
      } else {
        c.numeric = false;
      }
      if (!BOOLEAN.test(v)) c.boolean = false;
    }
  }
  for (const c of columns) roundExact(c.sum);
  return { rows, columns: columns.length };
}
