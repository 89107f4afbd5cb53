// The chunk size analyze gives a file when --chunk-size is not given (src/commands/analyze/analyze-chunk-size.ts):
// the target for narrow and moderately wide tables; for a very wide one as many rows as the scanner keeps every
// column's statistics for, with room for rows wider than the mean, and never less than one grain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeChunkSize, TARGET_CHUNK_BYTES } from '../../../../src/commands/analyze/analyze-chunk-size.js';
import { rowsInScanner } from '../../../../src/commands/analyze/map/csv-scanner.js';

const GRAIN = 64 * 1024;

test('narrow and 200-column tables get the target', () => {
  assert.equal(rowsInScanner(10), Infinity);
  assert.equal(analyzeChunkSize(51, 10), TARGET_CHUNK_BYTES);
  assert.equal(analyzeChunkSize(1332, 200), TARGET_CHUNK_BYTES);
  assert.equal(analyzeChunkSize(0, 10), TARGET_CHUNK_BYTES);
});

test('a 2,000-column table gets chunks of about half the rows the scanner holds for every column', () => {
  const rows = rowsInScanner(2000);
  assert.ok(rows > 100 && rows < 2048, `the scanner holds some hundreds of rows of 2,000 columns (${rows})`);
  const recordBytes = 12_800;
  const size = analyzeChunkSize(recordBytes, 2000);
  assert.ok(size < TARGET_CHUNK_BYTES);
  assert.equal(size % GRAIN, 0);
  const held = size / recordBytes;
  assert.ok(held <= rows / 2 && held > rows / 2 - GRAIN / recordBytes - 1, `${held} rows of ${rows}`);
});

test('the wider the table, the fewer rows the scanner holds', () => {
  let last = Infinity;
  for (const width of [100, 500, 1000, 2000, 5000, 10_000, 50_000, 1_000_000]) {
    const rows = rowsInScanner(width);
    assert.ok(rows <= last, `${width} columns: ${rows} rows, more than ${last} for fewer columns`);
    last = rows;
  }
});

test('however wide or narrow the records, a chunk is a whole number of grains, at least one', () => {
  for (const [recordBytes, width] of [[1, 1_000_000], [60_000, 10_000], [3, 2000], [1e9, 2000]] as const) {
    const size = analyzeChunkSize(recordBytes, width);
    assert.ok(size >= GRAIN && size <= TARGET_CHUNK_BYTES && size % GRAIN === 0, `${recordBytes} × ${width}: ${size}`);
  }
});
