import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { readCsvFields } from '../../../../src/engine/worker/csv-fields.js';
import { PackedOutput } from '../../../../src/engine/worker/packed-output.js';
import { BadRow } from '../../../../src/commands/import/map/bad-row.js';
import { DuckParquetRows } from '../../../../src/commands/import/map/rows/duckdb-parquet-rows.js';
import { DuckWasmRows } from '../../../../src/commands/import/map/rows/duckdb-wasm-rows.js';
import { GROUP_ROWS } from '../../../../src/commands/import/map/rows/parquet/column-pages.js';
import { SqlType } from '../../../../src/commands/import/map/sql-type.js';

// The WebAssembly writer of DuckDB's Parquet rows against the JavaScript one, chunk by chunk: the same file byte
// for byte, the same lines for the rows kept and the same bad rows, in the same order.

interface Written {
  readonly file: Buffer;
  readonly lines: number[];
  readonly bad: { line: number; reason: BadRow; before: number; column?: number }[];
  readonly framed: unknown;
}

interface Columns {
  readonly types: readonly SqlType[];
  readonly native: readonly boolean[];
  readonly precision: number;
}

function byJavaScript(csv: Buffer, { types, native, precision }: Columns, limit: number, atEof: boolean): Written {
  const rows = new DuckParquetRows(types, native, precision);
  const lines: number[] = [];
  const bad: Written['bad'] = [];
  const framed = readCsvFields(csv, types.length, {
    record(record, line) {
      if (record.count !== types.length) bad.push({ line, reason: BadRow.FieldCount, before: lines.length });
      else {
        const column = rows.append(record);
        if (column >= 0) bad.push({ line, reason: BadRow.TypeMismatch, before: lines.length, column });
        else lines.push(line);
      }
      return false;
    },
    bad: (line, reason) => void bad.push({ line, reason, before: lines.length }),
  }, limit, atEof);
  return { file: fileOf((output) => rows.writeFile(output)), lines, bad, framed };
}

function byWasm(rows: DuckWasmRows, csv: Buffer, limit: number, atEof: boolean): Written {
  const lines: number[] = [];
  const bad: Written['bad'] = [];
  const framed = rows.read(csv, limit, atEof, {
    keep(kept, first) {
      assert.equal(first, lines.length, 'kept rows come in order');
      lines.push(...kept);
    },
    bad(line, reason, before, column) {
      bad.push({ line, reason, before, ...(column === undefined ? {} : { column }) });
    },
  });
  assert.notEqual(framed, false, 'the WebAssembly writer takes the window');
  return { file: framed ? fileOf((output) => rows.writeFile(output)) : Buffer.alloc(0), lines, bad, framed };
}

function fileOf(write: (output: PackedOutput) => void): Buffer {
  const output = new PackedOutput(64);
  write(output);
  return Buffer.from(output.bytes.subarray(0, output.used));
}

/** Both writers over each chunk in turn (one WebAssembly writer for them all, as a worker keeps it). */
function assertSame(
  chunks: readonly Buffer[], columns: Columns, cuts = false,
  rows = DuckWasmRows.of(columns.types, columns.native, columns.precision),
): void {
  for (const [c, csv] of chunks.entries()) {
    assert.ok(DuckWasmRows.takes(csv, true));
    const windows = cuts ? [[csv.length >> 1, false], [csv.length >> 2, true]] as const : [];
    for (const [limit, atEof] of [[csv.length, true] as const, ...windows]) {
      const expected = byJavaScript(csv, columns, limit, atEof);
      const found = byWasm(rows, csv, limit, atEof);
      assert.deepEqual(found.framed, expected.framed, `chunk ${c}: framing`);
      assert.deepEqual(found.bad, expected.bad, `chunk ${c}: bad rows`);
      assert.deepEqual(found.lines, expected.lines, `chunk ${c}: lines`);
      assert.ok(found.file.equals(expected.file), `chunk ${c} (${limit}, ${atEof}): the same Parquet file`);
    }
  }
}

function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

/** Dates and timestamps in every spelling the workers accept, and some they do not (no leap second: see below). */
const DATES = ['2024-02-29', '2023-02-29', '1900-02-29', '2000-02-29', '0000-01-01', '2024-03-01T10:00:00Z',
  '2024-03-01t10:00:00z', '2024-03-01 10:00', '"2024-03-01T10:00:00,5+05:30"', '2024-03-01T10:00:00.123-0800',
  '2024-03-01 10:00:59.5z', '2024-13-01', '2024-03-01T24:00', '2024-03-01T10:00:00+05', '2024-03-01X10:00',
  '2024-03-01T10:00:00.', '2024-03-01T10:00:00+5:30', '2024-03-01T10:00+23:59', '2024-03-01T10:00-24:00',
  '2024-3-01', '20240301'];

/** A field of each kind a column may hold, and some that fit none of the number and boolean columns. */
function fieldOf(rnd: () => number): string {
  const digits = (n: number) => Array.from({ length: n }, (_, k) => String(Math.floor(rnd() * 10) || (k ? 0 : 1)))
    .join('');
  const sign = ['', '-', '+'][Math.floor(rnd() * 3)]!;
  const exponent = rnd() < 0.6 ? '' : `${rnd() < 0.5 ? 'e' : 'E'}${['', '-', '+'][Math.floor(rnd() * 3)]}`
    + `${Math.floor(rnd() * (rnd() < 0.1 ? 400 : 40))}`;
  const pick = [
    () => '', () => '""', () => `${sign}${digits(1 + Math.floor(rnd() * 20))}`,
    () => `${sign}${digits(1 + Math.floor(rnd() * 9))}.${digits(Math.floor(rnd() * 9))}${exponent}`,
    () => `${sign}0.${'0'.repeat(Math.floor(rnd() * 30))}${digits(1 + Math.floor(rnd() * 17))}${exponent}`,
    () => ['TRUE', 'false', 'True', 'fAlSe', 'truth', 'f', 'yes'][Math.floor(rnd() * 7)]!,
    () => ['007', '-', '+.', '.', '1e', '1e+', '0x10', '1.2.3', '2024-03-01', '9223372036854775808',
      '-9223372036854775808', '9223372036854775807', '-0', '1e308', '1e309', '-1e-400', '0e-400'][
      Math.floor(rnd() * 17)]!,
    () => `"${'a,"é東😀\n\r'.slice(Math.floor(rnd() * 5)).replaceAll('"', '""')}${'x'.repeat(rnd() * 40)}"`,
    () => DATES[Math.floor(rnd() * DATES.length)]!,
  ];
  return pick[Math.floor(rnd() * pick.length)]!();
}

/** A seeded chunk of `width` columns: every kind of field in every column, ragged and malformed rows among them. */
function chunkOf(seed: number, rows: number, width: number): Buffer {
  const rnd = random(seed);
  const lines: string[] = [];
  for (let r = 0; r < rows; r++) {
    const odd = rnd();
    if (odd < 0.01) lines.push('a"b,c');
    else if (odd < 0.02) lines.push(Array.from({ length: width + 1 }, () => '1').join(','));
    else lines.push(Array.from({ length: width }, () => fieldOf(rnd)).join(','));
  }
  return Buffer.from(`${lines.join(rnd() < 0.5 ? '\n' : '\r\n')}${rnd() < 0.5 ? '\n' : ''}`);
}

const KINDS = [SqlType.Text, SqlType.Integer, SqlType.Decimal, SqlType.Boolean, SqlType.Date, SqlType.Timestamp];

test('every kind of column, in its own type or as text: the file, lines and bad rows the JavaScript writer gives',
  () => {
    for (let seed = 1; seed <= 12; seed++) {
      const width = 1 + (seed % 6);
      const types = Array.from({ length: width }, (_, k) => KINDS[(k + seed) % KINDS.length]!);
      const native = types.map((_, k) => (seed + k) % 3 !== 0);
      assertSame([chunkOf(seed, 3_000, width), chunkOf(seed + 100, 500, width)], {
        types, native, precision: 10 + (seed % 6),
      }, true);
    }
  });

test('chunks of many rows cross row groups; columns whose values outgrow their room move, from chunk to chunk', () => {
  const types = [SqlType.Integer, SqlType.Text, SqlType.Boolean, SqlType.Text];
  const native = [true, false, true, false];
  const rows = (count: number, long: number) => Buffer.from(Array.from({ length: count }, (_, r) =>
    `${r % 5 === 0 ? '' : r},${r % 3 === 0 ? '' : 'v'.repeat(1 + (r % long))},${r % 7 === 0 ? '' : r % 2 === 0},`
    + `${r % 11 === 0 ? 'x' : ''}`).join('\n'));
  // The second column takes most of the bytes (more than a column's share of the chunk), then far more per byte.
  assertSame([rows(2 * GROUP_ROWS + 17, 8), rows(5_000, 3), rows(3_000, 2_000), rows(GROUP_ROWS, 1)],
    { types, native, precision: 15 });
});

test('a window whose last record runs on asks for more, as the scanner does', () => {
  const rows = DuckWasmRows.of([SqlType.Text, SqlType.Integer], [false, true], 15);
  const csv = Buffer.from('a,1\n"b\nc",2\n"open,3');
  const found = byWasm(rows, csv, csv.length, false);
  assert.equal(found.framed, undefined);
  assert.deepEqual(byWasm(rows, csv, 4, false).lines, [0]);
});

test('a window with a leap second in a timestamp column is left to the JavaScript writer, as are records that are '
  + 'not UTF-8', () => {
  const types = [SqlType.Date, SqlType.Timestamp];
  const rows = DuckWasmRows.of(types, [false, false], 15);
  const leap = Buffer.from('2024-03-01,2024-03-01T10:00:00\n2016-12-31,2016-12-31T23:59:60Z\n');
  assert.equal(rows.read(leap, leap.length, true, { keep: () => undefined, bad: () => undefined }), false);
  // In a date column, a leap second's timestamp is a field that does not fit, like any timestamp (and a date after
  // it in a timestamp column has no leap second).
  const dates = '2016-12-31T23:59:60Z,2016-12-31\n2016-12-31,2016-12-31\n2016-12-31,2016-12-31T23:59Z\n';
  assertSame([Buffer.from(dates)], {
    types, native: [false, false], precision: 15,
  });
  assert.equal(DuckWasmRows.takes(Buffer.from([0x61, 0xff, 0x0a]), true), false);
  assert.equal(DuckWasmRows.takes(Buffer.from('é,1\n'), true), true);
  // A window that is not the file's end may stop inside a character, after the line ends its records are read to.
  const cut = Buffer.from('é,1\né,2').subarray(0, -3);
  assert.equal(DuckWasmRows.takes(cut, false), true);
  assert.equal(DuckWasmRows.takes(cut, true), false);
  assert.equal(DuckWasmRows.takes(Buffer.from([0xff, 0x2c, 0x31, 0x0a, 0x61]), false), false);
});

test('a chunk that grows the module\'s memory past what an instance keeps is written whole, and the next chunk by a '
  + 'fresh instance', async () => {
  const columns = { types: [SqlType.Text], native: [false], precision: 15 };
  const rows = DuckWasmRows.of(columns.types, columns.native, columns.precision);
  // 32 M rows of one byte: their values (five bytes each) outgrow their first room twice, past 256 MiB in all.
  const count = 32 * 1024 * 1024;
  const big = Buffer.alloc(2 * count, 'a\n');
  let kept = 0;
  const framed = rows.read(big, big.length, true, {
    keep: (lines, first) => {
      assert.equal(first, kept);
      kept += lines.length;
    },
    bad: () => assert.fail('no row is bad'),
  });
  assert.deepEqual(framed, { consumed: big.length, newlines: count });
  assert.equal(kept, count);
  const folder = mkdtempSync(join(tmpdir(), 'stint-wasm-rows-'));
  try {
    writeFileSync(join(folder, 'rows.parquet'), fileOf((output) => rows.writeFile(output)));
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const read = await connection.runAndReadAll(
      `SELECT count(*), count(DISTINCT c0), min(c0) FROM read_parquet('${join(folder, 'rows.parquet')}')`);
    connection.closeSync();
    instance.closeSync();
    assert.deepEqual(read.getRows(), [[BigInt(count), 1n, 'a']]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  assertSame([chunkOf(5, 2_000, 1)], columns, false, rows);
});
