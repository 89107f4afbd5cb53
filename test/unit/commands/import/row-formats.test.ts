import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { map, type ImportChunk, type ImportMapOptions } from '../../../../src/commands/import/map/import-map.js';
import { releaseSlot } from '../../../../src/commands/import/map/row-slots.js';
import { RowFormat } from '../../../../src/commands/import/map/rows/row-format.js';
import { SqlType } from '../../../../src/commands/import/map/sql-type.js';
import { PackedOutput } from '../../../../src/engine/worker/packed-output.js';
import { appendCopyRow } from '../../../../src/commands/import/map/rows/copy-text-row.js';
import { appendJsonbRow } from '../../../../src/commands/import/map/rows/jsonb-rows.js';

// A worker writes a database target's rows in the form it loads; the main thread writes a keyed row the same way
// from its MessagePack. Both must give the same bytes, whatever the chunk holds.

const TYPES = [SqlType.Integer, SqlType.Boolean, SqlType.Text, SqlType.Timestamp, SqlType.Text];
const booleans = TYPES.map((type) => type === SqlType.Boolean);

/** A CSV of rows that fit TYPES, with quoted fields, escapes, empties, long fields and a few bad rows. */
function sampleCsv(rows: number, seed: number): string {
  let s = seed;
  const rnd = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const alphabet = ['a', 'Z', '0', '\\', '\t', '\r', '"', ',', 'é', '東', 'N', ' ', '\n'];
  const text = (length: number) => Array.from({ length }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
  const quoted = (field: string) => `"${field.replaceAll('"', '""')}"`;
  const lines: string[] = [];
  for (let r = 0; r < rows; r++) {
    if (rnd() < 0.03) {
      lines.push('1,true,too few');
      continue;
    }
    const long = rnd() < 0.02 ? 'x'.repeat(70_000) : text(Math.floor(rnd() * 30));
    lines.push([
      rnd() < 0.2 ? '' : String(Math.floor(rnd() * 1e6) - 5e5),
      rnd() < 0.2 ? '' : rnd() < 0.5 ? 'TRUE' : 'false',
      rnd() < 0.2 ? '""' : quoted(long),
      rnd() < 0.2 ? '' : rnd() < 0.5 ? '2024-03-01t10:00:00z' : '2024-03-01 10:00:00',
      rnd() < 0.3 ? '' : quoted(text(Math.floor(rnd() * 12))),
    ].join(','));
  }
  return `${lines.join(rnd() < 0.5 ? '\n' : '\r\n')}\n`;
}

function chunkOf(csv: Buffer, format: RowFormat): ImportChunk {
  const options: ImportMapOptions = { width: TYPES.length, types: TYPES, precision: 15, rowFormat: format };
  return map(csv, { start: 0, end: csv.length, options });
}

/** Each row of a chunk, as its own bytes (copied: the slot goes back to the worker). */
function rowsOf(chunk: ImportChunk): Buffer[] {
  const rows = Array.from({ length: chunk.rows }, (_, r) =>
    Buffer.from(chunk.packed.subarray(r === 0 ? 0 : chunk.ends[r - 1]!, chunk.ends[r]!)));
  releaseSlot(chunk.slot);
  return rows;
}

type RowWriter = (output: PackedOutput, row: Uint8Array) => boolean;

const WRITERS: Partial<Record<RowFormat, RowWriter>> = {
  [RowFormat.CopyText]: (output: PackedOutput, row: Uint8Array) => appendCopyRow(output, row),
  // The main thread's keyed row ends with its id; a worker's row has none: the id is dropped to compare.
  [RowFormat.Jsonb]: (output: PackedOutput, row: Uint8Array) => appendJsonbRow(output, row, 0, booleans),
};

for (const [format, write] of Object.entries(WRITERS) as [RowFormat, RowWriter][]) {
  test(`a worker's ${format} rows are the bytes the main thread writes from the same rows packed`, () => {
    for (const seed of [1, 2, 3]) {
      const csv = Buffer.from(sampleCsv(2_000, seed));
      const asPacked = chunkOf(csv, RowFormat.MessagePack);
      const bad = asPacked.bad;
      const packed = rowsOf(asPacked);
      const chunk = chunkOf(csv, format);
      assert.equal(chunk.rows, packed.length);
      assert.ok(bad.length > 0, 'the sample has bad rows');
      assert.deepEqual(chunk.bad, bad);
      const written = rowsOf(chunk);
      packed.forEach((row, r) => {
        const output = new PackedOutput(16);
        assert.ok(write(output, row));
        let expected: Uint8Array = output.bytes.subarray(0, output.used);
        if (format === RowFormat.Jsonb) expected = withoutLastItem(expected);
        assert.deepEqual(written[r], Buffer.from(expected), `seed ${seed}, row ${r}`);
      });
    }
  });
}

/** A JSONB array (its header always 5 bytes: written before its size is known) without its last item, the id. */
function withoutLastItem(array: Uint8Array): Uint8Array {
  const start = lastItemStart(array);
  const out = Buffer.from(array.subarray(0, start));
  out.writeUInt32BE(start - 5, 1);
  return out;
}

/** Where the last item of a JSONB array starts: the items are walked by their headers. */
function lastItemStart(array: Uint8Array): number {
  let at = 5;
  let last = at;
  while (at < array.length) {
    last = at;
    const size = array[at]! >> 4;
    const extra = size === 12 ? 1 : size === 13 ? 2 : size === 14 ? 4 : 0;
    const payload = extra === 0 ? size : Buffer.from(array.subarray(at + 1, at + 1 + extra)).readUIntBE(0, extra);
    at += 1 + extra + payload;
  }
  return last;
}

test('a worker\'s COPY rows read back as the fields csv-parse reads, empties as NULL', () => {
  const csv = Buffer.from(sampleCsv(500, 9));
  const chunk = chunkOf(csv, RowFormat.CopyText);
  const text = Buffer.from(chunk.packed.subarray(0, chunk.ends[chunk.rows - 1]!)).toString();
  releaseSlot(chunk.slot);
  const unescape = (field: string) => (field === '\\N' ? null
    : field.replace(/\\(.)/g, (_, c: string) => ({ t: '\t', n: '\n', r: '\r', '\\': '\\' })[c] ?? c));
  const read = text.slice(0, -1).split('\n').map((line) => line.split('\t').map(unescape));
  const expected = (parse(csv, { relax_column_count: true }) as string[][])
    .filter((fields) => fields.length === TYPES.length)
    .map((fields) => fields.map((field) => (field === '' ? null : field)));
  assert.deepEqual(read, expected);
});
