import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unpack } from 'msgpackr';
import { DuckDBInstance } from '@duckdb/node-api';
import { map, type ImportMapOptions } from '../../../../src/commands/import/map/import-map.js';
import { releaseSlot } from '../../../../src/commands/import/map/row-slots.js';
import { RowFormat } from '../../../../src/commands/import/map/rows/row-format.js';
import { duckdbTimestamp } from '../../../../src/commands/import/map/rows/duckdb-timestamp.js';
import { SqlType } from '../../../../src/commands/import/map/sql-type.js';
import { GROUP_ROWS } from '../../../../src/commands/import/map/rows/parquet/column-pages.js';

// The file a worker writes of a chunk's rows for DuckDB, read back by DuckDB itself: each column's text, empty
// fields as NULL, bad rows left out, whatever the columns hold.

/** The chunk's rows as the worker packs them for other targets: MessagePack arrays of strings, nil when empty. */
function packedRows(csv: string, types: readonly SqlType[]): (string | null)[][] {
  const options: ImportMapOptions = { width: types.length, types, precision: 15, rowFormat: RowFormat.MessagePack };
  const chunk = map(Buffer.from(csv), { start: 0, end: csv.length, options });
  const rows = Array.from({ length: chunk.rows }, (_, r) =>
    unpack(chunk.packed.subarray(r === 0 ? 0 : chunk.ends[r - 1]!, chunk.ends[r]!)) as (string | null)[]);
  releaseSlot(chunk.slot);
  return rows;
}

/** The chunk's Parquet file, and the rows it should hold (the packed rows, timestamps as DuckDB reads them). */
function written(
  csv: string, types: readonly SqlType[], nativeColumns: readonly boolean[] = [],
): { file: Buffer; rows: (string | null)[][] } {
  const options: ImportMapOptions = {
    width: types.length, types, precision: 15, rowFormat: RowFormat.DuckDbParquet, nativeColumns,
  };
  const chunk = map(Buffer.from(csv), { start: 0, end: csv.length, options });
  const size = chunk.rows === 0 ? 0 : chunk.ends[chunk.rows - 1]!;
  assert.ok(chunk.ends.every((end) => end === size), 'every row ends at the file\'s end');
  const file = Buffer.from(chunk.packed.subarray(0, size));
  releaseSlot(chunk.slot);
  const rows = packedRows(csv, types).map((fields) =>
    fields.map((field, k) => (field !== null && types[k] === SqlType.Timestamp ? duckdbTimestamp(field) : field)));
  assert.equal(chunk.rows, rows.length);
  return { file, rows };
}

/** The bad rows the worker reports of a chunk written in `rowFormat` (with `nativeColumns`). */
function badRows(csv: string, types: readonly SqlType[], rowFormat: RowFormat, nativeColumns: readonly boolean[] = []) {
  const options: ImportMapOptions = { width: types.length, types, precision: 15, rowFormat, nativeColumns };
  const chunk = map(Buffer.from(csv), { start: 0, end: csv.length, options });
  releaseSlot(chunk.slot);
  return chunk.bad;
}

/** What DuckDB answers to `query` of the file (at the path it is given). */
async function readBack(file: Buffer, query = (path: string) => `SELECT * FROM read_parquet('${path}')`) {
  const folder = mkdtempSync(join(tmpdir(), 'stint-parquet-'));
  try {
    writeFileSync(join(folder, 'rows.parquet'), file);
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const read = await connection.runAndReadAll(query(join(folder, 'rows.parquet')));
    connection.closeSync();
    instance.closeSync();
    return read.getRows();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** A seeded CSV of `width` columns: quoted fields, escapes, line breaks, long and multi-byte values, bad rows. */
function sampleCsv(rows: number, width: number, seed: number, empties: (column: number) => number): string {
  let s = seed;
  const rnd = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const alphabet = ['a', 'Z', '0', '\\', '\t', '\r', '"', ',', 'é', '東', '😀', ' ', '\n'];
  const text = (length: number) => Array.from({ length }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
  const lines: string[] = [];
  for (let r = 0; r < rows; r++) {
    if (rnd() < 0.03) {
      lines.push('too,few');
      continue;
    }
    lines.push(Array.from({ length: width }, (_, k) => {
      if (rnd() < empties(k)) return rnd() < 0.5 ? '' : '""';
      const value = rnd() < 0.02 ? 'x'.repeat(70_000) : text(1 + Math.floor(rnd() * 40));
      return `"${value.replaceAll('"', '""')}"`;
    }).join(','));
  }
  return `${lines.join('\n')}\n`;
}

test('text columns with NULLs, none, or only NULLs read back as the CSV\'s fields', async () => {
  const types = [SqlType.Text, SqlType.Text, SqlType.Text, SqlType.Text];
  for (const seed of [1, 2, 3]) {
    const { file, rows } = written(sampleCsv(3_000, 4, seed, (k) => [0.2, 0, 1, 0.9][k]!), types);
    assert.deepEqual(await readBack(file), rows, `seed ${seed}`);
  }
});

test('many columns, typed ones as their text, and timestamps respelled the way DuckDB casts them', async () => {
  const width = 20;
  const types = Array.from({ length: width }, () => SqlType.Text);
  const wide = written(sampleCsv(500, width, 7, (k) => k / width), types);
  assert.deepEqual(await readBack(wide.file), wide.rows);
  const typed = [SqlType.Integer, SqlType.Decimal, SqlType.Boolean, SqlType.Date, SqlType.Timestamp];
  const csv = [
    '-42,1.5,TRUE,2024-03-01,2024-03-01t10:00:00z',
    ',,,,',
    '7,-0.25e3,false,1999-12-31,2016-12-31T23:59:60Z',
    'x,1,true,2024-03-01,2024-03-01 10:00:00',
    '9007199254740993,3,False,2024-02-29,"2024-03-01T10:00:00,5+05:30"',
  ].join('\n');
  const { file, rows } = written(`${csv}\n`, typed);
  assert.equal(rows[3]![0], '9007199254740993');
  assert.deepEqual(rows[1], [null, null, null, null, null]);
  assert.equal(rows.length, 4, 'the row whose integer is not one is left out');
  assert.deepEqual(await readBack(file), rows);
});

test('a chunk of more rows than a row group holds is cut into DuckDB\'s row groups', async () => {
  const rows = 2 * GROUP_ROWS + 1_000;
  // The first column has a value in every row, the second in every third: both kinds of definition levels.
  const lines = Array.from({ length: rows }, (_, r) => `${r},${r % 3 === 0 ? `"v,${r}"` : ''}`);
  const { file, rows: expected } = written(`${lines.join('\n')}\n`, [SqlType.Integer, SqlType.Text]);
  const groups = await readBack(file, (path) =>
    `SELECT row_group_id, max(row_group_num_rows) FROM parquet_metadata('${path}') GROUP BY ALL ORDER BY 1`);
  assert.deepEqual(groups, [[0n, 122_880n], [1n, 122_880n], [2n, 1_000n]]);
  assert.deepEqual(await readBack(file), expected);
});

test('a chunk of one row is a file DuckDB reads; a chunk of only bad rows has none', async () => {
  const types = [SqlType.Text, SqlType.Integer];
  const one = written('only,1\n', types);
  assert.deepEqual(await readBack(one.file), [['only', '1']]);
  assert.equal(written('a,b,c\nd\n', types).rows.length, 0);
});

/** Numbers and booleans spelled every way the workers accept, seeded: exponents near and past the exact powers. */
function numbersCsv(rows: number, seed: number): string {
  let s = seed;
  const rnd = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const digits = (n: number) => Array.from({ length: n }, (_, k) => String(Math.floor(rnd() * 10) || (k ? 0 : 1)))
    .join('');
  const sign = () => ['', '-', '+'][Math.floor(rnd() * 3)]!;
  const decimal = () => {
    const whole = digits(1 + Math.floor(rnd() * 8));
    const body = rnd() < 0.3 ? whole : rnd() < 0.5 ? `${whole}.${digits(Math.floor(rnd() * 7))}`
      : `0.${'0'.repeat(Math.floor(rnd() * 6))}${digits(1 + Math.floor(rnd() * 9))}`;
    const exponent = rnd() < 0.5 ? '' : `${rnd() < 0.5 ? 'e' : 'E'}${sign()}${Math.floor(rnd() * 40)}`;
    return `${sign()}${body}${exponent}`;
  };
  const integer = () => `${sign()}${digits(1 + Math.floor(rnd() * 18))}`;
  const lines = ['9223372036854775807,1e308,TRUE', '-9223372036854775808,-0.0,fAlSe', '-0,0,True',
    '999999999999999,123456789012345e-30,false', '1000000000000000,4.9e-324,true', ',,'];
  for (let r = 0; r < rows; r++) {
    lines.push([rnd() < 0.1 ? '' : integer(), rnd() < 0.1 ? '' : decimal(), rnd() < 0.5 ? 'TRUE' : 'false'].join(','));
  }
  return `${lines.join('\n')}\n`;
}

test('integers, decimals and booleans in their own type are the values DuckDB casts their text to', async () => {
  const types = [SqlType.Integer, SqlType.Decimal, SqlType.Boolean];
  const cast = (path: string) => `SELECT c0::BIGINT, c1::DOUBLE, c2::BOOLEAN FROM read_parquet('${path}')`;
  for (const seed of [1, 2]) {
    const csv = numbersCsv(20_000, seed);
    const asText = written(csv, types);
    const native = written(csv, types, [true, true, true]);
    assert.ok(native.rows.length > 18_000, 'most rows fit');
    const read = await readBack(native.file);
    assert.deepEqual(read, await readBack(asText.file, cast), `seed ${seed}`);
    assert.ok(read.some(([, value]) => Object.is(value, -0)), 'a negative zero is kept');
  }
});

test('a row with a field that does not fit leaves no trace in the columns before it, at a row group\'s edge too',
  async () => {
    const types = [SqlType.Text, SqlType.Boolean, SqlType.Decimal, SqlType.Integer, SqlType.Date, SqlType.Text];
    const native = [false, true, true, true, false, false];
    const good = (r: number) => [`t${r % 7}`, r % 3 === 1 ? 'false' : 'TRUE', `${r}.25`, `${-r}`, '2024-02-29', ''];
    // Each bad row puts its misfit in another column, after fields with values or empty ones; each is followed by
    // a row whose boolean is false, written where the bad row's true was.
    const misfits = ['', 'maybe', '1.2.3', '1.5', '2024-02-30', ''];
    const bad = (r: number) => {
      const column = 1 + (r % 4);
      return good(r).map((field, k) => (k === column ? misfits[k]! : k < column && r % 2 === 0 ? '' : field))
        .map((field, k) => (k === 1 && k !== column && field !== '' ? 'true' : field));
    };
    // Bad rows one after another (their misfits in each column) where the rows kept so far are a row group's.
    const edges = new Set([3, 4, GROUP_ROWS - 1, GROUP_ROWS, GROUP_ROWS + 1]);
    const lines: string[] = [];
    for (let kept = 0; kept < GROUP_ROWS + 3_000; kept++) {
      if (edges.has(kept)) for (let k = 1; k <= 8; k++) lines.push(bad(lines.length).join(','));
      if (kept % 97 === 50) lines.push(bad(lines.length).join(','));
      lines.push(good(lines.length).join(','));
    }
    const csv = `${lines.join('\n')}\n`;
    const { file, rows } = written(csv, types, native);
    assert.equal(rows.length, GROUP_ROWS + 3_000, 'the bad rows are left out');
    const cast = (path: string) =>
      `SELECT c0, c1::VARCHAR, c2::VARCHAR, c3::VARCHAR, c4, c5 FROM read_parquet('${path}')`;
    const asText = written(csv, types);
    assert.deepEqual(await readBack(asText.file), rows, 'as text, the rows the other targets get');
    const castText = (path: string) =>
      `SELECT c0, c1::BOOLEAN::VARCHAR, c2::DOUBLE::VARCHAR, c3::BIGINT::VARCHAR, c4, c5 FROM read_parquet('${path}')`;
    assert.deepEqual(await readBack(file, cast), await readBack(asText.file, castText));
    const reported = badRows(csv, types, RowFormat.MessagePack);
    assert.deepEqual(badRows(csv, types, RowFormat.DuckDbParquet, native), reported);
    assert.deepEqual(new Set(reported.map(({ column }) => column)), new Set([1, 2, 3, 4]));
  });
