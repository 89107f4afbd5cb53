// stint import --into duckdb:<file>: the built stint on real files into a
// real DuckDB file (@duckdb/node-api), checked through DuckDB itself.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { runJson } from '../helpers/run-cli.js';
import { interruptImport } from '../helpers/import-progress.js';
import { fixturePath, STINT_BIN } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';
import { csvFileRecords } from '../helpers/table-rows.js';
import { typedCsv } from '../helpers/typed-csv.js';
import { exportInPauses } from '../helpers/export-pauses.js';
import { assertDuckDbTableEquals, duckdbTypes, duckRows, withDuckDb } from '../helpers/duckdb-table.js';

const world = tempWorld('import-duckdb');
let homes = 0;
type Env = Record<string, string>;
const freshHome = (extra: Env = {}): Env =>
  ({ STINT_HOME: world.path(`home-${++homes}`), STINT_TEST_MODE: '1', ...extra });
const BIG_ROWS = 1_000_000;
const KILLS = 10;

const stateKeys = async (path: string, table: string) =>
  (await duckRows(path, `SELECT key FROM stint_import_state WHERE tbl = '${table}' ORDER BY key`))
    .map(([k]) => String(k));
const count = async (path: string, table: string) =>
  Number((await duckRows(path, `SELECT count(*) FROM "${table}"`))[0]![0]);

describe('import into DuckDB: exactly once under every interruption (1 000 000 rows)', () => {
  let big: string;
  let records: string[][];
  before(() => {
    big = world.path('typed.csv');
    writeFileSync(big, typedCsv(4, BIG_ROWS));
    records = csvFileRecords(big);
  });

  test('10 seeded kill -9s, SIGINT, SIGTERM and a budget, each followed by the identical call', async () => {
    const env = freshHome();
    const db = world.path('exactly-once.duckdb');
    const args = ['import', big, '--into', `duckdb:${db}`, '--chunk-size', '256KiB', '--heartbeat-ms', '10',
      '--budget', '0'];
    await interruptImport(args, env, 27, KILLS);
    // A budget far too short for the hundreds of thousands of rows left, on any machine: INCOMPLETE (14).
    const budgeted = await runJson(args.filter((a) => a !== '--budget' && a !== '0'),
      { env: { ...env, AGENT_CALL_BUDGET_MS: '400' } });
    assert.equal(budgeted.run.code, 14, budgeted.run.stdout);
    const final = await runJson(args, { env });
    assert.equal(final.run.code, 0, final.run.stdout);
    assert.equal(final.envelope.data!['rows_imported'], BIG_ROWS);
    await assertDuckDbTableEquals(db, 'typed', records, 'id');
    const keys = await stateKeys(db, 'typed');
    assert.equal(keys.filter((k) => k.startsWith('run:')).length, 1, 'exactly one run record (the watermark)');
    assert.deepEqual(keys.filter((k) => k.startsWith('ckpt:')), [], 'no checkpoint left behind');
    assert.equal(await count(db, 'typed_rejects'), 0);

    const again = await runJson(args, { env });
    assert.equal(again.run.code, 0);
    assert.deepEqual(again.envelope.data, { ...final.envelope.data, effect: 'noop' }, 'the same answer, replayed');
    assert.deepEqual(await stateKeys(db, 'typed'), keys, 'nothing written');
  });
});

describe('import into DuckDB: types, rejects, upserts', () => {
  test('types are inferred from the file; empty is NULL; timestamps keep their zone', async () => {
    const file = fixturePath('csv', 'typed.csv');
    const db = world.path('inferred.duckdb');
    const { run, envelope } = await runJson(['import', file, '--into', `duckdb:${db}`], { env: freshHome() });
    assert.equal(run.code, 0, run.stdout);
    assert.equal(envelope.data!['table'], 'typed');
    assert.deepEqual(await duckdbTypes(db, 'typed'), {
      id: 'BIGINT', name: 'VARCHAR', price: 'DOUBLE', in_stock: 'BOOLEAN', since: 'DATE',
      updated: 'TIMESTAMP WITH TIME ZONE', sci: 'DOUBLE', code: 'VARCHAR', mixed: 'VARCHAR', empty: 'VARCHAR',
      huge: 'VARCHAR',
    });
    await assertDuckDbTableEquals(db, 'typed', csvFileRecords(file), 'id');
  });

  test('timestamps DuckDB\'s own cast misreads arrive as the instants they name', async () => {
    const file = world.path('stamps.csv');
    writeFileSync(file, 'n,at\n1,2024-01-02t03:04:05z\n2,"2024-01-02 03:04:05,5+02:00"\n3,2024-01-02T03:04:05+0530\n'
      + '4,2016-12-31T23:59:60Z\n5,2024-01-02\n');
    const db = world.path('stamps.duckdb');
    const { run } = await runJson(['import', file, '--into', `duckdb:${db}`], { env: freshHome() });
    assert.equal(run.code, 0, run.stdout);
    const rows = await duckRows(db, 'SELECT n, epoch_ms("at") FROM stamps ORDER BY n');
    assert.deepEqual(rows.map(([, ms]) => Number(ms)), [
      Date.UTC(2024, 0, 2, 3, 4, 5), Date.UTC(2024, 0, 2, 1, 4, 5, 500), Date.UTC(2024, 0, 1, 21, 34, 5),
      Date.UTC(2017, 0, 1), Date.UTC(2024, 0, 2),
    ]);
  });

  test('a table that cannot hold the file is refused before any row; misfits go to the rejects table', async () => {
    const file = fixturePath('csv', 'typed.csv');
    const db = world.path('mismatch.duckdb');
    await withDuckDb(db, (d) => d.run('CREATE TABLE narrow (id BIGINT, name VARCHAR, price BIGINT, in_stock BOOLEAN, '
      + 'since DATE, updated TIMESTAMPTZ, sci DOUBLE, code VARCHAR, mixed VARCHAR, empty VARCHAR, huge VARCHAR)'),
    true);
    const refused = await runJson(['import', file, '--into', `duckdb:${db}`, '--table', 'narrow'],
      { env: freshHome() });
    assert.equal(refused.run.code, 6, refused.run.stdout);
    assert.equal(refused.envelope.error!.code, 'SCHEMA_MISMATCH');
    assert.match(refused.envelope.error!.message, /price is integer in the table and decimal/);
    assert.equal(await count(db, 'narrow'), 0);
    assert.deepEqual(await stateKeys(db, 'narrow'), []);

    const { run, envelope } = await runJson(
      ['import', file, '--into', `duckdb:${db}`, '--table', 'rejecting', '--schema', 'price:integer'],
      { env: freshHome() });
    assert.equal(run.code, 3, run.stdout);
    const unresolved = (envelope.data as { unresolved: { q: string }[] }).unresolved.map((u) => u.q);
    assert.deepEqual(unresolved, ['line 2', 'line 4', 'line 7']);
    const rejects = await duckRows(db, 'SELECT line, reason, column_name FROM rejecting_rejects ORDER BY line');
    assert.deepEqual(rejects, [2, 4, 7].map((line) => [BigInt(line), 'type_mismatch', 'price']));
    await assertDuckDbTableEquals(db, 'rejecting', csvFileRecords(file).filter((_, k) => ![1, 3, 5].includes(k)), 'id');
  });

  test('a table\'s own number types (not the ones stint declares) get what DuckDB\'s cast of the text gives',
    async () => {
    const file = world.path('prices.csv');
    // 1.025 as a double is a little under 1.025: were it loaded as one, DECIMAL(12,2) would hold 1.02.
    writeFileSync(file, 'n,price,ok\n1,1.025,true\n2,0.125,FALSE\n3,,\n');
    const db = world.path('prices.duckdb');
    await withDuckDb(db, (d) => d.run('CREATE TABLE prices (n INTEGER, price DECIMAL(12,2), ok BOOLEAN)'), true);
    const { run } = await runJson(['import', file, '--into', `duckdb:${db}`], { env: freshHome() });
    assert.equal(run.code, 0, run.stdout);
    assert.deepEqual(await duckRows(db, 'SELECT n, price::VARCHAR, ok FROM prices ORDER BY n'),
      [[1, '1.03', true], [2, '0.13', false], [3, null, null]]);
  });

  test('--on-bad-row fail keeps the rows before the first bad one, in one chunk with rows after it', async () => {
    const file = world.path('fail-midway.csv');
    const rows = Array.from({ length: 300 }, (_, k) => `${k + 1},name ${k + 1}`);
    rows.splice(200, 0, '0,too,many');
    writeFileSync(file, `n,name\n${rows.join('\n')}\n`);
    const db = world.path('fail-midway.duckdb');
    const { run, envelope } = await runJson(['import', file, '--into', `duckdb:${db}`, '--on-bad-row', 'fail'],
      { env: freshHome() });
    assert.equal(run.code, 3, run.stdout);
    assert.match(envelope.error!.message, /line 202/);
    const kept = await duckRows(db, 'SELECT n, name FROM fail_midway ORDER BY n');
    assert.deepEqual(kept, Array.from({ length: 200 }, (_, k) => [BigInt(k + 1), `name ${k + 1}`]));
  });

  test('--key upserts: a key seen again (also twice in one chunk) replaces its row; a new key is appended',
    async () => {
    const first = world.path('first.csv');
    const second = world.path('second.csv');
    writeFileSync(first, 'sku,name,qty\nA1,apple,3\nB2,"pear, green",\nC3,plum,7\n');
    writeFileSync(second, 'sku,name,qty\nB2,pear,5\nD4,"quince ""q""",1\nA1,apple,4\nB2,pear,6\n');
    const db = world.path('upsert.duckdb');
    const env = freshHome();
    for (const file of [first, second]) {
      const { run } = await runJson(['import', file, '--into', `duckdb:${db}`, '--table', 'stock', '--key', 'sku'],
        { env });
      assert.equal(run.code, 0, run.stdout);
    }
    assert.deepEqual(await duckRows(db, 'SELECT sku, name, qty FROM stock ORDER BY sku'), [
      ['A1', 'apple', 4n], ['B2', 'pear', 6n], ['C3', 'plum', 7n], ['D4', 'quince "q"', 1n],
    ]);
  });

  test('a row the table\'s own constraints refuse stops the import: SCHEMA_MISMATCH, its chunk not kept', async () => {
    const file = world.path('nulls.csv');
    writeFileSync(file, 'a,b\n1,x\n2,\n3,z\n');
    const db = world.path('constrained.duckdb');
    await withDuckDb(db, (d) => d.run('CREATE TABLE t (a BIGINT, b VARCHAR NOT NULL)'), true);
    const { run, envelope } = await runJson(['import', file, '--into', `duckdb:${db}`, '--table', 't'],
      { env: freshHome() });
    assert.equal(run.code, 6, run.stdout);
    assert.equal(envelope.error!.code, 'SCHEMA_MISMATCH');
    assert.match(envelope.error!.message, /NOT NULL/);
    assert.equal(await count(db, 't'), 0, 'the chunk rolled back');
  });

  test('a file another process holds answers DATABASE_LOCKED (12, retryable); bad places answer a code', async () => {
    const file = fixturePath('csv', 'typed.csv');
    const db = world.path('held.duckdb');
    await withDuckDb(db, async () => {
      const { run, envelope } = await runJson(['import', file, '--into', `duckdb:${db}`], { env: freshHome() });
      assert.equal(run.code, 12, run.stdout);
      assert.equal(envelope.error!.code, 'DATABASE_LOCKED');
      assert.equal(envelope.error!.retryable, true);
    }, true);
    const nowhere = world.path('no-such-folder', 'x.duckdb');
    const { run, envelope } = await runJson(['import', file, '--into', `duckdb:${nowhere}`], { env: freshHome() });
    assert.equal(run.code, 4, run.stdout);
    assert.equal(envelope.error!.code, 'TABLE_UNREADABLE');
    assert.equal(existsSync(nowhere), false);
  });
});

describe('export from DuckDB', () => {
  test('the table goes out as typed values, timestamps in ISO 8601 UTC; NDJSON has JSON numbers and booleans',
    async () => {
      const file = fixturePath('csv', 'typed.csv');
      const db = world.path('export.duckdb');
      const env = freshHome();
      assert.equal((await runJson(['import', file, '--into', `duckdb:${db}`], { env })).run.code, 0);
      const out = world.path('export.csv');
      const { run, envelope } = await runJson(['export', `duckdb:${db}`, '--output', out], { env });
      assert.equal(run.code, 0, run.stdout);
      assert.equal(envelope.data!['rows'], 5);
      // The same values: 1.5e10 is 15000000000 as a DOUBLE, FALSE is false, 7.50 is 7.5, times are UTC.
      const respelled = csvFileRecords(file).map((record) => record.map((field) => ({
        '1.5e10': '15000000000', '2E-3': '0.002', '-4.25e+2': '-425', '7.50': '7.5', FALSE: 'false', True: 'true',
        '2023-12-31 23:59:59': '2023-12-31T23:59:59Z', '2021-06-01T00:00:00.123+02:00': '2021-05-31T22:00:00.123Z',
      } as Record<string, string>)[field] ?? field));
      respelled[3]![5] = '2020-02-29T00:00:00Z';
      assert.deepEqual(csvFileRecords(out), respelled);
      const ndjson = world.path('export.ndjson');
      assert.equal((await runJson(['export', `duckdb:${db}`, '--table', 'typed', '--output', ndjson], { env }))
        .run.code, 0);
      assert.deepEqual(JSON.parse(readFileSync(ndjson, 'utf8').split('\n')[0]!), {
        id: 1, name: 'Widget, large', price: 19.99, in_stock: true, since: '2024-01-15',
        updated: '2024-01-15T08:30:00Z',
        sci: 15000000000, code: '007', mixed: '12', empty: null, huge: '123456789012345678901234567890',
      });
    });

  test('a budget pauses it; continue_command goes on; the file equals an export in one call', async () => {
    const file = world.path('export-big.csv');
    writeFileSync(file, typedCsv(5, 100_000));
    const db = world.path('export-big.duckdb');
    const env = freshHome();
    assert.equal((await runJson(['import', file, '--into', `duckdb:${db}`, '--budget', '0'], { env })).run.code, 0);
    const whole = world.path('whole.csv');
    assert.equal((await runJson(['export', `duckdb:${db}`, '--output', whole, '--budget', '0'], { env })).run.code, 0);
    const sliced = world.path('sliced.csv');
    const { run, pauses } = await exportInPauses(
      `${process.execPath} ${STINT_BIN} export duckdb:${db} --output ${sliced}`, env);
    assert.equal(run.code, 0, run.stdout);
    assert.ok(pauses >= 1, 'paused at least once');
    assert.ok(readFileSync(sliced).equals(readFileSync(whole)), 'the same bytes');
    assert.equal(csvFileRecords(whole).length, 100_001);
  });

  test('a file without the table answers TABLE_NOT_FOUND (5); several tables need --table (2)', async () => {
    const db = world.path('two-tables.duckdb');
    await withDuckDb(db, (d) => d.run('CREATE TABLE a (x VARCHAR); CREATE TABLE b (y VARCHAR)'), true);
    const env = freshHome();
    const out = world.path('nothing.csv');
    const cases: [string[], number, string][] = [
      [['export', `duckdb:${db}`, '--output', out], 2, 'ARG_ERROR'],
      [['export', `duckdb:${db}`, '--table', 'c', '--output', out], 5, 'TABLE_NOT_FOUND'],
      [['export', `duckdb:${world.path('absent.duckdb')}`, '--output', out], 5, 'TABLE_NOT_FOUND'],
    ];
    for (const [args, code, error] of cases) {
      const { run, envelope } = await runJson(args, { env });
      assert.equal(run.code, code, run.stdout);
      assert.equal(envelope.error!.code, error);
    }
    assert.equal(existsSync(out), false);
    assert.equal(existsSync(world.path('absent.duckdb')), false, 'no file made');
  });
});
