import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pack } from 'msgpackr';
import { parse } from 'csv-parse/sync';
import { PackedOutput } from '../../../../src/engine/worker/packed-output.js';
import { appendDuckCsvRow } from '../../../../src/commands/import/map/rows/duckdb-csv-rows.js';

/** The rows as the CSV a DuckDB commit loads, read back field by field (quoted empties would stay distinct). */
function written(rows: readonly (readonly (string | null)[])[], timestamps: readonly boolean[]): string[][] {
  const output = new PackedOutput(8);
  for (const row of rows) assert.ok(appendDuckCsvRow(output, pack(row), timestamps), JSON.stringify(row));
  return parse(output.bytes.subarray(0, output.used), { relax_quotes: false }) as string[][];
}

test('fields as CSV, nil as an empty field, quotes and line breaks quoted', () => {
  const rows = [
    ['1', null, 'plain'],
    ['a,b', 'say "hi"', 'two\nlines\r\n'],
    ['ünïcödé ✓', 'x'.repeat(40), 'y'.repeat(70_000)],
  ];
  assert.deepEqual(written(rows, [false, false, false]), rows.map((row) => row.map((f) => f ?? '')));
});

test('timestamps DuckDB would misread are respelled; the rest go as written', () => {
  const rows = [
    ['2024-03-01t10:00:00z', '2024-03-01 10:00:00'],
    ['2024-03-01T10:00:00,5Z', '2016-12-31T23:59:60Z'],
    [null, '2024-03-01T10:00:00+05:30'],
  ];
  assert.deepEqual(written(rows, [true, false]), [
    ['2024-03-01T10:00:00Z', '2024-03-01 10:00:00'],
    ['2024-03-01T10:00:00.5Z', '2016-12-31T23:59:60Z'],
    ['', '2024-03-01T10:00:00+05:30'],
  ]);
  assert.deepEqual(written([['2016-12-31T23:59:60Z']], [true]), [['2017-01-01T00:00:00.000Z']]);
});

test('what is not an array of strings and nils is left to the caller, nothing appended', () => {
  for (const value of [pack('x'), pack([1, 2]), new Uint8Array(0)]) {
    const output = new PackedOutput(8);
    assert.equal(appendDuckCsvRow(output, value, []), false);
    assert.equal(output.used, 0);
  }
});
