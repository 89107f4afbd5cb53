// stint import --into postgres://…: the built stint on real files into a
// real PostgreSQL server (Debian's package, started here on a free port),
// checked through pg itself. Without PostgreSQL the tests say so and skip.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { envelopeOf, runJson } from '../helpers/run-cli.js';
import { importPastRows, interruptImport } from '../helpers/import-progress.js';
import { fixturePath, STINT_BIN } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';
import { csvFileRecords } from '../helpers/table-rows.js';
import { typedCsv } from '../helpers/typed-csv.js';
import { exportInPauses } from '../helpers/export-pauses.js';
import { freePort } from '../helpers/free-port.js';
import { postgresMissing, serverIds, startPostgres, type PostgresServer } from '../helpers/postgres-server.js';
import { mountTmpfs, remount, tmpfsMissing, unmount } from '../helpers/tmpfs.js';
import { assertPostgresTableEquals, postgresTypes, withPostgres } from '../helpers/postgres-table.js';

const world = tempWorld('import-postgres');
const missing = postgresMissing();
const noMount = tmpfsMissing(world.dir);
let homes = 0;
type Env = Record<string, string>;
const freshHome = (extra: Env = {}): Env =>
  ({ STINT_HOME: world.path(`home-${++homes}`), STINT_TEST_MODE: '1', ...extra });
const BIG_ROWS = 1_000_000;
const KILLS = 10;

const count = (url: string, table: string) =>
  withPostgres(url, async (client) => Number((await client.query(`SELECT count(*) AS n FROM "${table}"`)).rows[0]!['n']));
const stateKeys = (url: string, table: string) => withPostgres(url, async (client) =>
  (await client.query('SELECT key FROM stint_import_state WHERE tbl = $1 ORDER BY key COLLATE "C"', [table])).rows
    .map((row) => String(row['key'])));

describe('import into PostgreSQL', { skip: missing }, () => {
  let server: PostgresServer;
  before(async () => {
    server = await startPostgres();
  });
  after(async () => {
    await server?.stop();
  });

  test('1 000 000 rows: 10 seeded kill -9s, SIGINT, SIGTERM, a budget and a server restart, each followed by the '
    + 'identical call: the table equals the file', async () => {
    const big = world.path('typed.csv');
    writeFileSync(big, typedCsv(2, BIG_ROWS));
    const records = csvFileRecords(big);
    const env = freshHome();
    const args = ['import', big, '--into', server.url, '--chunk-size', '256KiB', '--heartbeat-ms', '10', '--budget', '0'];
    const committed = await interruptImport(args, env, 26, KILLS);
    // The server restarts under a running call: it answers a retryable code, having lost nothing committed.
    const { running, reached } = await importPastRows(args, env, committed + 20_000);
    assert.ok(reached, 'the call before the restart got going');
    await server.restart();
    const cut = await running.done;
    assert.equal(cut.code, 12, cut.stdout);
    assert.equal(envelopeOf(cut).error!.code, 'DATABASE_UNREACHABLE');
    assert.equal(envelopeOf(cut).error!.retryable, true);
    // A budget far too short for the hundreds of thousands of rows left, on any machine: INCOMPLETE (14), at a
    // committed checkpoint (or before the first commit of a call that starts slowly: 14 all the same).
    const budgeted = await runJson(args.filter((a) => a !== '--budget' && a !== '0'),
      { env: { ...env, AGENT_CALL_BUDGET_MS: '400' } });
    assert.equal(budgeted.run.code, 14, budgeted.run.stdout);
    const final = await runJson(args, { env });
    assert.equal(final.run.code, 0, final.run.stdout);
    assert.equal(final.envelope.data!['rows_imported'], BIG_ROWS);
    await assertPostgresTableEquals(server.url, 'typed', records, 'id');
    const keys = await stateKeys(server.url, 'typed');
    assert.equal(keys.filter((k) => k.startsWith('run:')).length, 1, 'exactly one run record (the watermark)');
    assert.deepEqual(keys.filter((k) => k.startsWith('ckpt:')), [], 'no checkpoint left behind');

    const again = await runJson(args, { env });
    assert.equal(again.run.code, 0);
    assert.deepEqual(again.envelope.data, { ...final.envelope.data, effect: 'noop' }, 'the same answer, replayed');
    assert.deepEqual(await stateKeys(server.url, 'typed'), keys, 'nothing written');
  });

  test('types are inferred from the file; numeric keeps every digit; empty is NULL', async () => {
    const file = fixturePath('csv', 'typed.csv');
    const { run, envelope } = await runJson(['import', file, '--into', server.url, '--table', 'inferred'],
      { env: freshHome() });
    assert.equal(run.code, 0, run.stdout);
    assert.equal(envelope.data!['table'], 'inferred');
    assert.deepEqual(await postgresTypes(server.url, 'inferred'), {
      id: 'bigint', name: 'text', price: 'numeric', in_stock: 'boolean', since: 'date',
      updated: 'timestamp with time zone', sci: 'numeric', code: 'text', mixed: 'text', empty: 'text', huge: 'numeric',
    });
    await assertPostgresTableEquals(server.url, 'inferred', csvFileRecords(file), 'id');
  });

  test('a table that cannot hold the file is refused before any row; misfits go to the rejects table', async () => {
    const file = fixturePath('csv', 'typed.csv');
    await withPostgres(server.url, (client) => client.query('CREATE TABLE narrow (id bigint, name text, '
      + 'price bigint, in_stock boolean, since date, updated timestamptz, sci numeric, code text, mixed text, '
      + 'empty text, huge numeric)'));
    const refused = await runJson(['import', file, '--into', server.url, '--table', 'narrow'], { env: freshHome() });
    assert.equal(refused.run.code, 6, refused.run.stdout);
    assert.equal(refused.envelope.error!.code, 'SCHEMA_MISMATCH');
    assert.equal(await count(server.url, 'narrow'), 0);
    assert.deepEqual(await stateKeys(server.url, 'narrow'), []);

    const { run, envelope } = await runJson(
      ['import', file, '--into', server.url, '--table', 'rejecting', '--schema', 'price:integer'], { env: freshHome() });
    assert.equal(run.code, 3, run.stdout);
    const unresolved = (envelope.data as { unresolved: { q: string }[] }).unresolved.map((u) => u.q);
    assert.deepEqual(unresolved, ['line 2', 'line 4', 'line 7']);
    const rejects = await withPostgres(server.url, async (client) => (await client.query(
      'SELECT line::int AS line, reason, column_name FROM rejecting_rejects ORDER BY line')).rows);
    assert.deepEqual(rejects, [2, 4, 7].map((line) => ({ line, reason: 'type_mismatch', column_name: 'price' })));
    await assertPostgresTableEquals(server.url, 'rejecting',
      csvFileRecords(file).filter((_, k) => ![1, 3, 5].includes(k)), 'id');
  });

  test('--key upserts: a key seen again (also twice in one chunk) replaces its row; a new key is appended', async () => {
    const first = world.path('first.csv');
    const second = world.path('second.csv');
    writeFileSync(first, 'sku,name,qty\nA1,apple,3\nB2,"pear, green",\nC3,plum,7\n');
    writeFileSync(second, 'sku,name,qty\nB2,pear,5\nD4,"quince ""q""",1\nA1,apple,4\nB2,pear,6\n');
    const env = freshHome();
    for (const file of [first, second]) {
      const { run } = await runJson(['import', file, '--into', server.url, '--table', 'stock', '--key', 'sku'], { env });
      assert.equal(run.code, 0, run.stdout);
    }
    const rows = await withPostgres(server.url, async (client) =>
      (await client.query('SELECT sku, name, qty::text AS qty FROM stock ORDER BY sku')).rows);
    assert.deepEqual(rows, [
      { sku: 'A1', name: 'apple', qty: '4' }, { sku: 'B2', name: 'pear', qty: '6' },
      { sku: 'C3', name: 'plum', qty: '7' }, { sku: 'D4', name: 'quince "q"', qty: '1' },
    ]);
  });

  test('export: the table goes out as the server holds it (numeric keeps its digits), timestamps in ISO 8601 UTC',
    async () => {
      const file = fixturePath('csv', 'typed.csv');
      const env = freshHome();
      assert.equal((await runJson(['import', file, '--into', server.url, '--table', 'exported'], { env })).run.code, 0);
      const out = world.path('exported.csv');
      const { run, envelope } = await runJson(['export', server.url, '--table', 'exported', '--output', out], { env });
      assert.equal(run.code, 0, run.stdout);
      assert.equal(envelope.data!['rows'], 5);
      const respelled = csvFileRecords(file).map((record) => record.map((field) => ({
        '1.5e10': '15000000000', '2E-3': '0.002', '-4.25e+2': '-425', FALSE: 'false', True: 'true',
        '2023-12-31 23:59:59': '2023-12-31T23:59:59Z', '2021-06-01T00:00:00.123+02:00': '2021-05-31T22:00:00.123Z',
      } as Record<string, string>)[field] ?? field));
      respelled[3]![5] = '2020-02-29T00:00:00Z';
      assert.deepEqual(csvFileRecords(out), respelled);
      const ndjson = world.path('exported.ndjson');
      assert.equal((await runJson(['export', server.url, '--table', 'exported', '--output', ndjson], { env }))
        .run.code, 0);
      assert.deepEqual(readFileSync(ndjson, 'utf8').split('\n')[0], '{"id":1,"name":"Widget, large","price":19.99,'
        + '"in_stock":true,"since":"2024-01-15","updated":"2024-01-15T08:30:00Z","sci":15000000000,"code":"007",'
        + '"mixed":"12","empty":null,"huge":123456789012345678901234567890}');
    });

  test('export: a budget pauses it; continue_command goes on; the file equals an export in one call', async () => {
    const file = world.path('export-big.csv');
    writeFileSync(file, typedCsv(6, 100_000));
    const env = freshHome();
    const into = ['--into', server.url, '--table', 'export_big'];
    assert.equal((await runJson(['import', file, ...into, '--budget', '0'], { env })).run.code, 0);
    const whole = world.path('whole.csv');
    const from = [server.url, '--table', 'export_big'];
    assert.equal((await runJson(['export', ...from, '--output', whole, '--budget', '0'], { env })).run.code, 0);
    // In the table's own order, as COPY … TO gives it; the file's records all, once each.
    const order = await withPostgres(server.url, async (client) =>
      (await client.query('SELECT id::text AS id FROM export_big ORDER BY ctid')).rows.map((row) => String(row['id'])));
    const exported = csvFileRecords(whole).slice(1).map((record) => record[0]!);
    assert.deepEqual(exported, order);
    assert.deepEqual([...exported].sort(), csvFileRecords(file).slice(1).map((record) => record[0]!).sort());
    const sliced = world.path('sliced.csv');
    const { run, pauses } = await exportInPauses(
      `${process.execPath} ${STINT_BIN} export ${from.join(' ')} --output ${sliced}`, env);
    assert.equal(run.code, 0, run.stdout);
    assert.ok(pauses >= 1, 'paused at least once');
    assert.ok(readFileSync(sliced).equals(readFileSync(whole)), 'the same bytes');
  });

  test('a full disk under the table (a tablespace on a small tmpfs): NO_SPACE (12, retryable); the same call '
    + 'completes exactly once when there is room', { skip: noMount }, async () => {
    const file = world.path('full-disk.csv');
    writeFileSync(file, typedCsv(9, 100_000));
    const env = freshHome();
    // The table's types, from stint's own reading of the file's start; the table itself on the small disk.
    const sample = world.path('full-disk-sample.csv');
    writeFileSync(sample, typedCsv(9, 50));
    assert.equal((await runJson(['import', sample, '--into', server.url, '--table', 'full_tpl'], { env })).run.code, 0);
    // Under /tmp, which the server's user can reach (the test's own folder is root's alone).
    const disk = mkdtempSync('/tmp/stint-pg-disk-');
    assert.ok(mountTmpfs(disk, '2m'));
    try {
      const ids = serverIds()!;
      chownSync(disk, ids.uid, ids.gid);
      await withPostgres(server.url, async (client) => {
        await client.query(`CREATE TABLESPACE small LOCATION '${disk}'`);
        await client.query('CREATE TABLE full_disk (LIKE full_tpl) TABLESPACE small');
      });
      const args = ['import', file, '--into', server.url, '--table', 'full_disk', '--chunk-size', '64KiB',
        '--budget', '0'];
      const full = await runJson(args, { env });
      assert.equal(full.run.code, 12, full.run.stdout);
      assert.equal(full.envelope.error!.code, 'NO_SPACE');
      assert.equal(full.envelope.error!.retryable, true);
      assert.ok(await count(server.url, 'full_disk') > 0, 'rows were committed before the disk filled');
      remount(disk, 'size=256m');
      const again = await runJson(args, { env });
      assert.equal(again.run.code, 0, again.run.stdout);
      await assertPostgresTableEquals(server.url, 'full_disk', csvFileRecords(file), 'id');
    } finally {
      await withPostgres(server.url, async (client) => {
        await client.query('DROP TABLE IF EXISTS full_disk');
        await client.query('DROP TABLESPACE IF EXISTS small');
      });
      unmount(disk);
      rmSync(disk, { recursive: true, force: true });
    }
  });

  test('a server out of reach answers DATABASE_UNREACHABLE (12, retryable)', async () => {
    const url = `postgres://postgres@127.0.0.1:${await freePort()}/postgres`;
    const { run, envelope } = await runJson(['import', fixturePath('csv', 'typed.csv'), '--into', url],
      { env: freshHome() });
    assert.equal(run.code, 12, run.stdout);
    assert.equal(envelope.error!.code, 'DATABASE_UNREACHABLE');
    assert.equal(envelope.error!.retryable, true);
  });
});
