// Real files, not imitations: every CSV that the npm package vega-datasets ships (weather series, flights,
// stocks, zip codes, bird strikes) analyzed by the built stint and held against an independent reading with
// csv-parse: counts, nulls, exact extremes and sums, string extremes, and, where a column's distinct values fit
// the exact range, its distinct count and top values. ISO 8601 columns are dates or timestamps by a rule the
// test states itself: the hourly Seattle normals (`2010-01-01T01:00:00`, seconds and no zone) are timestamps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { analyzeWithCsvParse, type OracleColumn, type OracleCounts } from '../helpers/analyze-oracle.js';
import { runJson } from '../helpers/run-cli.js';
import { tempWorld } from '../helpers/temp-world.js';

const world = tempWorld('real-files');
// The package exports only its code: its data folder sits beside that (a development dependency).
const data = join(dirname(createRequire(import.meta.url).resolve('vega-datasets')), '..', 'data');
const files = readdirSync(data).filter((name) => name.endsWith('.csv')).sort();
/** While a column has at most this many distinct values, analyze counts them exactly (docs/cli.md). */
const EXACT_RANGE = 2048;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/;

type Column = Record<string, unknown>;

/** The type an ISO 8601 reader gives a column the oracle calls text: its values, all of one form, say which. */
function textType(values: readonly string[]): string {
  if (values.every((value) => DATE.test(value))) return 'date';
  if (values.every((value) => TIMESTAMP.test(value))) return 'timestamp';
  return 'string';
}

/** Checks one column; returns the type it was held to. */
function checkColumn(file: string, got: Column, want: OracleColumn, counts: OracleCounts, values: string[]): string {
  const at = `${file} ${want.name}`;
  assert.deepEqual([got['count'], got['nulls']], [want.count, want.nulls], `${at}: count and nulls`);
  let type = want.type;
  if (type !== 'string') {
    const fields = ['type', 'min', 'max', 'sum', 'mean', 'min_exact', 'max_exact', 'sum_exact'] as const;
    for (const field of fields) if (field in want) assert.deepEqual(got[field], want[field], `${at}: ${field}`);
  } else {
    type = textType(values);
    assert.equal(got['type'], type, `${at}: type`);
    if (type === 'string') {
      const fields = [got['min'], got['max'], got['min_length'], got['max_length']];
      assert.deepEqual(fields, [want.min, want.max, want.min_length, want.max_length], `${at}: extremes`);
    }
  }
  if (counts.distinct > EXACT_RANGE) return type;
  assert.deepEqual([got['distinct'], got['distinct_exact']], [counts.distinct, true], `${at}: distinct`);
  assert.deepEqual(got['top_values'], counts.top_values, `${at}: top values, counted exactly`);
  assert.equal(got['top_values_exact'], true, `${at}: top values exact`);
  return type;
}

/** Every non-null field of each column, as csv-parse reads the file (ragged records left out, as analyze does). */
function fieldsOf(path: string, width: number): string[][] {
  const records = parse(readFileSync(path), { bom: true, relax_column_count: true, skip_empty_lines: true });
  const columns = Array.from({ length: width }, (): string[] => []);
  for (const record of (records as string[][]).slice(1)) {
    if (record.length === width) record.forEach((value, k) => value !== '' && columns[k]!.push(value));
  }
  return columns;
}

test('the files vega-datasets ships: stint agrees with csv-parse on every column', async () => {
  assert.ok(files.length >= 20, `${files.length} files`);
  const types: string[] = [];
  for (const name of files) {
    const path = join(data, name);
    const { run, envelope } = await runJson(['analyze', path, '--budget', '0'], {
      env: { STINT_HOME: world.path('home') },
    });
    assert.equal(run.code, 0, `${name}: ${run.stdout.slice(0, 300)}`);
    assert.deepEqual(envelope.warnings, [], name);
    const entry = (envelope.data!['established'] as { a: { rows: number; columns: Column[] } }[])[0]!.a;
    const oracle = analyzeWithCsvParse(path);
    assert.equal(entry.rows, oracle.rows, `${name}: rows`);
    const values = fieldsOf(path, oracle.columns.length);
    oracle.columns.forEach((want, k) => {
      types.push(checkColumn(name, entry.columns[k]!, want, oracle.counts[k]!, values[k]!));
    });
  }
  assert.ok(types.length >= 100, `${types.length} columns checked`);
  const held = (type: string) => types.filter((t) => t === type).length;
  assert.deepEqual([held('timestamp') >= 1, held('date') >= 8], [true, true], `types held: ${types.join(' ')}`);
});
