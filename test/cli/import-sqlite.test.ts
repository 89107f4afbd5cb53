// stint import --into sqlite:<file>: the built stint on real files into a
// real SQLite file (better-sqlite3), checked through SQLite itself.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import type { Envelope } from '../../src/contract/envelope.js';
import { runJson } from '../helpers/run-cli.js';
import { interruptImport } from '../helpers/import-progress.js';
import { readFileSync } from 'node:fs';
import { fixturePath, STINT_BIN } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';
import { csvFileRecords } from '../helpers/table-rows.js';
import { typedCsv } from '../helpers/typed-csv.js';
import { exportInPauses } from '../helpers/export-pauses.js';
import { assertTableEquals, declaredTypes, openSqlite, stateKeys } from '../helpers/sqlite-table.js';

const world = tempWorld('import-sqlite');
let homes = 0;
type Env = Record<string, string>;
const freshHome = (extra: Env = {}): Env =>
  ({ STINT_HOME: world.path(`home-${++homes}`), STINT_TEST_MODE: '1', ...extra });
const BIG_ROWS = 1_000_000;
const KILLS = 10;


describe('import into SQLite: exactly once under every interruption (1 000 000 rows)', () => {
  let big: string;
  let records: string[][];
  before(() => {
    big = world.path('typed.csv');
    writeFileSync(big, typedCsv(1, BIG_ROWS));
    records = csvFileRecords(big);
    assert.equal(records.length, BIG_ROWS + 1);
  });

  test('10 seeded kill -9s, SIGINT, SIGTERM and a budget, each followed by the identical call', async () => {
    const env = freshHome();
    const db = world.path('exactly-once.db');
    const args = ['import', big, '--into', `sqlite:${db}`, '--chunk-size', '256KiB', '--heartbeat-ms', '10',
      '--budget', '0'];
    await interruptImport(args, env, 25, KILLS);
    // A budget far too short for the hundreds of thousands of rows left, on any machine: INCOMPLETE (14), at a
    // committed checkpoint (or before the first commit of a call that starts slowly: 14 all the same).
    const budgeted = await runJson(args.filter((a) => a !== '--budget' && a !== '0'),
      { env: { ...env, AGENT_CALL_BUDGET_MS: '400' } });
    assert.equal(budgeted.run.code, 14, budgeted.run.stdout);
    const final = await runJson(args, { env });
    assert.equal(final.run.code, 0, final.run.stdout);
    assert.equal(final.envelope.data!['rows_imported'], BIG_ROWS);
    const ids = assertTableEquals(db, 'typed', records);
    assert.deepEqual([ids[0], ids.at(-1)], [1n, BigInt(BIG_ROWS)], 'rowids in file order, none skipped');
    const keys = stateKeys(db, 'typed');
    assert.equal(keys.filter((k) => k.startsWith('run:')).length, 1, 'exactly one run record (the watermark)');
    assert.deepEqual(keys.filter((k) => k.startsWith('ckpt:')), [], 'no checkpoint left behind');
    const sqlite = openSqlite(db);
    assert.equal((sqlite.prepare('SELECT count(*) AS n FROM typed_rejects').get() as { n: number }).n, 0);
    sqlite.close();

    const again = await runJson(args, { env });
    assert.equal(again.run.code, 0);
    assert.deepEqual(again.envelope.data, { ...final.envelope.data, effect: 'noop' }, 'the same answer, replayed');
    assert.equal(again.envelope.meta['idempotency_hit'], true);
    assert.deepEqual(stateKeys(db, 'typed'), keys, 'nothing written');
  });
});

describe('import into SQLite: types, rejects, upserts', () => {
  test('types are inferred from the file: integer, decimal, boolean, date, timestamp, text; empty is NULL', async () => {
    const file = fixturePath('csv', 'typed.csv');
    const db = world.path('inferred.db');
    const { run, envelope } = await runJson(['import', file, '--into', `sqlite:${db}`], { env: freshHome() });
    assert.equal(run.code, 0, run.stdout);
    assert.equal(envelope.data!['table'], 'typed');
    assert.deepEqual(declaredTypes(db, 'typed'), {
      id: 'INTEGER', name: 'TEXT', price: 'REAL', in_stock: 'BOOLEAN', since: 'DATE', updated: 'TIMESTAMP',
      sci: 'REAL', code: 'TEXT', mixed: 'TEXT', empty: 'TEXT', huge: 'TEXT',
    });
    assertTableEquals(db, 'typed', csvFileRecords(file));
  });

  test('a table that cannot hold the file is refused before any row: SCHEMA_MISMATCH (6)', async () => {
    const file = fixturePath('csv', 'typed.csv');
    const db = world.path('mismatch.db');
    const sqlite = openSqlite(db, false);
    sqlite.exec('CREATE TABLE typed (id INTEGER, name TEXT, price INTEGER, in_stock BOOLEAN, since DATE, '
      + 'updated TIMESTAMP, sci REAL, code TEXT, mixed TEXT, empty TEXT, huge TEXT)');
    sqlite.exec('CREATE TABLE other (a TEXT)');
    sqlite.close();
    for (const table of ['typed', 'other']) {
      const { run, envelope } = await runJson(['import', file, '--into', `sqlite:${db}`, '--table', table],
        { env: freshHome() });
      assert.equal(run.code, 6, run.stdout);
      assert.equal(envelope.error!.code, 'SCHEMA_MISMATCH');
      if (table === 'typed') assert.match(envelope.error!.message, /price is integer in the table and decimal/);
      const check = openSqlite(db);
      assert.equal((check.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n, 0);
      check.close();
      assert.deepEqual(stateKeys(db, table), [], 'no record written');
    }
  });

  test('rows that do not fit go to the rejects table with their lines; the answer is PARTIAL (3)', async () => {
    const file = fixturePath('csv', 'typed.csv');
    const db = world.path('rejects.db');
    const env = freshHome();
    const { run, envelope } = await runJson(
      ['import', file, '--into', `sqlite:${db}`, '--schema', 'price:integer,since:timestamp'], { env });
    assert.equal(run.code, 3, run.stdout);
    const data = envelope.data as {
      unresolved: { q: string; code: string; context: { column: string } }[];
      established: { q: string; cite: { lines: number[] } }[];
    };
    // The fixture's prices 19.99, 7.50 and -3.5 are on lines 2, 4 and 7 (record 4 spans lines 5 and 6).
    assert.deepEqual(data.established.map((e) => [e.q, e.cite.lines]), [['lines 3-3', [3, 3]], ['lines 5-6', [5, 6]]],
      'each range ends on the last line of its last record');
    assert.deepEqual(data.unresolved.map((u) => [u.q, u.code, u.context.column]), [
      ['line 2', 'type_mismatch', 'price'], ['line 4', 'type_mismatch', 'price'], ['line 7', 'type_mismatch', 'price'],
    ]);
    const sqlite = openSqlite(db);
    const rejects = sqlite.prepare('SELECT line, reason, column_name FROM typed_rejects ORDER BY line').raw(true).all();
    sqlite.close();
    assert.deepEqual(rejects, [[2, 'type_mismatch', 'price'], [4, 'type_mismatch', 'price'],
      [7, 'type_mismatch', 'price']]);
    const kept = csvFileRecords(file).filter((_, k) => ![1, 3, 5].includes(k));
    assertTableEquals(db, 'typed', kept);
  });

  test('--dry-run checks each field against the new table\'s types: it names the rows it would reject, '
    + 'writes nothing', async () => {
    const file = fixturePath('csv', 'typed.csv');
    const db = world.path('dry.db');
    const { run, envelope } = await runJson(
      ['import', file, '--into', `sqlite:${db}`, '--schema', 'price:integer', '--dry-run'], { env: freshHome() });
    assert.equal(run.code, 3, run.stdout);
    const data = envelope.data as { unresolved: { q: string; code: string }[]; rows_imported: number; effect: string };
    assert.deepEqual(data.unresolved.map((u) => [u.q, u.code]),
      [['line 2', 'type_mismatch'], ['line 4', 'type_mismatch'], ['line 7', 'type_mismatch']]);
    assert.equal(data.rows_imported, 2);
    assert.equal(data.effect, 'none');
    assert.equal(existsSync(db), false, 'no file made');
    const dupes = world.path('dry-dupes.csv');
    writeFileSync(dupes, 'a,b,a\n1,2,3\n');
    const refused = await runJson(['import', dupes, '--into', `sqlite:${db}`, '--dry-run'], { env: freshHome() });
    assert.equal(refused.run.code, 4, refused.run.stdout);
    assert.equal(refused.envelope.error!.code, 'UNUSABLE_HEADER');
  });

  test('--key upserts: a key seen again replaces its row and keeps its rowid; a new key is appended', async () => {
    const dir = world.path('upsert');
    mkdirSync(dir);
    const first = `${dir}/first.csv`;
    const second = `${dir}/second.csv`;
    writeFileSync(first, 'sku,name,qty\nA1,apple,3\nB2,"pear, green",\nC3,plum,7\n');
    writeFileSync(second, 'sku,name,qty\nB2,pear,5\nD4,"quince ""q""",1\nA1,apple,4\n');
    const db = world.path('upsert.db');
    const env = freshHome();
    for (const file of [first, second]) {
      const { run } = await runJson(['import', file, '--into', `sqlite:${db}`, '--table', 'stock', '--key', 'sku'],
        { env });
      assert.equal(run.code, 0, run.stdout);
    }
    const sqlite = openSqlite(db);
    const rows = sqlite.prepare('SELECT rowid, sku, name, qty FROM stock ORDER BY rowid').raw(true).all();
    sqlite.close();
    assert.deepEqual(rows, [[1, 'A1', 'apple', 4], [2, 'B2', 'pear', 5], [3, 'C3', 'plum', 7],
      [4, 'D4', 'quince "q"', 1]]);
  });

  test('rows take the ids the run gives them: after the table\'s last rows were deleted, and beside a column '
    + 'that stands for the rowid (which --key may name)', async () => {
    const dir = world.path('rowids');
    mkdirSync(dir);
    const first = `${dir}/first.csv`;
    const second = `${dir}/second.csv`;
    writeFileSync(first, 'n,name\n1,a\n2,b\n3,c\n4,d\n');
    writeFileSync(second, 'n,name\n5,e\n6,f\n');
    const db = world.path('rowids.db');
    const env = freshHome();
    const into = (file: string, table: string) => runJson(['import', file, '--into', `sqlite:${db}`, '--table', table],
      { env });
    assert.equal((await into(first, 'deleted')).run.code, 0);
    let sqlite = openSqlite(db, false);
    sqlite.exec('DELETE FROM deleted WHERE rowid > 2');
    // Its values are the rowids: SQLite numbers the rows by them, whatever the run's ids.
    sqlite.exec('CREATE TABLE keyed (n INTEGER PRIMARY KEY, name TEXT)');
    sqlite.close();
    assert.equal((await into(second, 'deleted')).run.code, 0);
    assert.equal((await into(second, 'keyed')).run.code, 0);
    const again = await into(second, 'keyed');
    assert.equal(again.run.code, 0, 'the identical call answers again, adding nothing');
    assert.equal(again.envelope.data!['rows_imported'], 2);
    sqlite = openSqlite(db);
    const rows = (table: string) => sqlite.prepare(`SELECT rowid, name FROM ${table} ORDER BY rowid`).raw(true).all();
    assert.deepEqual(rows('deleted'), [[1, 'a'], [2, 'b'], [5, 'e'], [6, 'f']], 'ids go on after the last given');
    assert.deepEqual(rows('keyed'), [[5, 'e'], [6, 'f']], 'the column keeps the file\'s values');
    sqlite.close();
    // That column is unique without an index of its own: --key upserts by it.
    const third = `${dir}/third.csv`;
    writeFileSync(third, 'n,name\n6,F\n7,g\n');
    const upserted = await runJson(['import', third, '--into', `sqlite:${db}`, '--table', 'keyed', '--key', 'n'],
      { env });
    assert.equal(upserted.run.code, 0, upserted.run.stdout);
    sqlite = openSqlite(db);
    assert.deepEqual(rows('keyed'), [[5, 'e'], [6, 'F'], [7, 'g']]);
    sqlite.close();
  });

  test('a row the table\'s own constraints refuse stops the import: SCHEMA_MISMATCH, its chunk not kept', async () => {
    const file = world.path('nulls.csv');
    writeFileSync(file, 'a,b\n1,x\n2,\n3,z\n');
    const db = world.path('constrained.db');
    const sqlite = openSqlite(db, false);
    sqlite.exec('CREATE TABLE t (a INTEGER, b TEXT NOT NULL)');
    sqlite.close();
    const { run, envelope } = await runJson(['import', file, '--into', `sqlite:${db}`, '--table', 't'],
      { env: freshHome() });
    assert.equal(run.code, 6, run.stdout);
    assert.equal(envelope.error!.code, 'SCHEMA_MISMATCH');
    assert.match(envelope.error!.message, /NOT NULL/);
    const check = openSqlite(db);
    assert.equal((check.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n, 0, 'the chunk rolled back');
    check.close();
  });

  test('bad calls answer a code and write nothing', async () => {
    const file = fixturePath('csv', 'typed.csv');
    const dupes = world.path('dupes.csv');
    writeFileSync(dupes, 'a,b,a\n1,2,3\n');
    const db = world.path('bad-calls.db');
    const cases: [string[], number, string][] = [
      [['import', file, '--into', world.path('level'), '--table', 't'], 2, 'INTO_NOT_SUPPORTED'],
      [['import', file, '--into', `sqlite:${db}`, '--schema', 'price:money'], 2, 'BAD_SCHEMA'],
      [['import', file, '--into', `sqlite:${db}`, '--schema', 'nope:integer'], 2, 'BAD_SCHEMA'],
      [['import', dupes, '--into', `sqlite:${db}`], 4, 'UNUSABLE_HEADER'],
      [['import', file, '--into', `sqlite:${world.path('no-such-folder', 'x.db')}`], 4, 'TABLE_UNREADABLE'],
    ];
    for (const [args, code, error] of cases) {
      const { run, envelope } = await runJson(args, { env: freshHome() });
      assert.equal(run.code, code, `${args.join(' ')}: ${run.stdout}`);
      assert.equal((envelope as Envelope<unknown>).error!.code, error);
    }
    assert.equal(existsSync(world.path('level')), false, 'no LevelDB folder made');
    if (existsSync(db)) {
      const sqlite = openSqlite(db);
      const tables = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'stint_import_state'")
        .raw(true).all();
      sqlite.close();
      assert.deepEqual(tables, [], 'no table made');
    }
  });
});

describe('export from SQLite', () => {
  test('the table goes out as typed values: CSV equal to the file but for the spelling of numbers and booleans', async () => {
    const file = fixturePath('csv', 'typed.csv');
    const db = world.path('export.db');
    const env = freshHome();
    assert.equal((await runJson(['import', file, '--into', `sqlite:${db}`], { env })).run.code, 0);
    const out = world.path('export.csv');
    const { run, envelope } = await runJson(['export', `sqlite:${db}`, '--output', out], { env });
    assert.equal(run.code, 0, run.stdout);
    assert.equal(envelope.data!['rows'], 5);
    // The same values: 1.5e10 is 15000000000 as a REAL, FALSE is false as a BOOLEAN, 7.50 is 7.5.
    const respelled = csvFileRecords(file).map((record) => record.map((field) => ({
      '1.5e10': '15000000000', '2E-3': '0.002', '-4.25e+2': '-425', '7.50': '7.5', FALSE: 'false', True: 'true',
    } as Record<string, string>)[field] ?? field));
    assert.deepEqual(csvFileRecords(out), respelled);
    const ndjson = world.path('export.ndjson');
    assert.equal((await runJson(['export', `sqlite:${db}`, '--table', 'typed', '--output', ndjson], { env })).run.code, 0);
    const first = JSON.parse(readFileSync(ndjson, 'utf8').split('\n')[0]!) as Record<string, unknown>;
    assert.deepEqual(first, {
      id: 1, name: 'Widget, large', price: 19.99, in_stock: true, since: '2024-01-15', updated: '2024-01-15T08:30:00Z',
      sci: 15000000000, code: '007', mixed: '12', empty: null, huge: '123456789012345678901234567890',
    });
  });

  test('a budget pauses it; continue_command goes on; the file equals an export in one call', async () => {
    const file = world.path('export-big.csv');
    writeFileSync(file, typedCsv(3, 100_000));
    const db = world.path('export-big.db');
    const env = freshHome();
    assert.equal((await runJson(['import', file, '--into', `sqlite:${db}`, '--budget', '0'], { env })).run.code, 0);
    const whole = world.path('whole.csv');
    assert.equal((await runJson(['export', `sqlite:${db}`, '--output', whole, '--budget', '0'], { env })).run.code, 0);
    const sliced = world.path('sliced.csv');
    const { run, pauses } = await exportInPauses(
      `${process.execPath} ${STINT_BIN} export sqlite:${db} --output ${sliced}`, env);
    assert.equal(run.code, 0, run.stdout);
    assert.ok(pauses >= 1, 'paused at least once');
    assert.ok(readFileSync(sliced).equals(readFileSync(whole)), 'the same bytes');
  });

  test('a file without the table answers TABLE_NOT_FOUND (5); several tables need --table (2)', async () => {
    const db = world.path('two-tables.db');
    const sqlite = openSqlite(db, false);
    sqlite.exec('CREATE TABLE a (x TEXT); CREATE TABLE b (y TEXT)');
    sqlite.close();
    const env = freshHome();
    const out = world.path('nothing.csv');
    const cases: [string[], number, string][] = [
      [['export', `sqlite:${db}`, '--output', out], 2, 'ARG_ERROR'],
      [['export', `sqlite:${db}`, '--table', 'c', '--output', out], 5, 'TABLE_NOT_FOUND'],
      [['export', `sqlite:${world.path('absent.db')}`, '--output', out], 5, 'TABLE_NOT_FOUND'],
    ];
    for (const [args, code, error] of cases) {
      const { run, envelope } = await runJson(args, { env });
      assert.equal(run.code, code, run.stdout);
      assert.equal(envelope.error!.code, error);
    }
    assert.equal(existsSync(out), false);
    assert.equal(existsSync(world.path('absent.db')), false, 'no file made');
  });
});
