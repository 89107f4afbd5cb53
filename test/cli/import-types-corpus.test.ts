// Type inference on a corpus of real files: every CSV the npm package vega-datasets ships, and the typed
// fixture, imported into SQLite by the built stint. Each column's type is the one analyze gives it
// (integer, number as decimal, boolean, date, timestamp, string as text), but for the rules import adds:
// integers written with a leading zero (zip codes, county ids) are text, which keeps the zero, and so are
// integers past 64 bits in SQLite (a REAL would round them). Every file imports whole, and its table equals
// the file row by row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { runJson } from '../helpers/run-cli.js';
import { fixturePath } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';
import { csvFileRecords } from '../helpers/table-rows.js';
import { assertTableEquals, declaredTypes } from '../helpers/sqlite-table.js';

const world = tempWorld('types-corpus');
const data = join(dirname(createRequire(import.meta.url).resolve('vega-datasets')), '..', 'data');
const files = [
  ...readdirSync(data).filter((name) => name.endsWith('.csv')).sort().map((name) => join(data, name)),
  fixturePath('csv', 'typed.csv'),
];
const env = { STINT_HOME: world.path('home'), STINT_TEST_MODE: '1' };

/** SQLite's declaration of each type analyze names. */
const DECLARED: Readonly<Record<string, string>> = {
  integer: 'INTEGER', number: 'REAL', boolean: 'BOOLEAN', date: 'DATE', timestamp: 'TIMESTAMP', string: 'TEXT',
};

/** Digits with a leading zero (but 0 itself), which a number column would lose. */
const LEADING_ZERO = /^[+-]?0\d/;

const INT64 = [-(2n ** 63n), 2n ** 63n - 1n] as const;
const past64Bits = (field: string) => field !== '' && (BigInt(field) < INT64[0] || BigInt(field) > INT64[1]);

/** The declaration import should give a column analyze typed `type`, over the column's fields. */
function expected(type: string, fields: readonly string[]): string {
  if (type === 'integer' && fields.some((field) => LEADING_ZERO.test(field) || past64Bits(field))) return 'TEXT';
  return DECLARED[type] ?? 'TEXT';
}

for (const file of files) {
  const name = file.split('/').at(-1)!;
  test(`${name}: the types analyze infers; the table equals the file`, async () => {
    const analyzed = await runJson(['analyze', file, '--budget', '0'], { env });
    assert.equal(analyzed.run.code, 0, analyzed.run.stdout);
    const columns = ((analyzed.envelope.data as { established: { a: { columns: { name: string; type: string }[] } }[] })
      .established[0]!.a.columns);
    const db = world.path(`${name}.db`);
    const imported = await runJson(['import', file, '--into', `sqlite:${db}`, '--table', 't', '--budget', '0'],
      { env });
    assert.equal(imported.run.code, 0, imported.run.stdout);
    const records = csvFileRecords(file);
    const want = Object.fromEntries(columns.map((column, k) =>
      [column.name, expected(column.type, records.slice(1).map((record) => record[k]!))]));
    assert.deepEqual(declaredTypes(db, 't'), want);
    assertTableEquals(db, 't', records);
  });
}
