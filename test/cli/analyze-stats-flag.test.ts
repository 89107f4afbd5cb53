import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { runCli, runJson } from '../helpers/run-cli.js';
import { frequencies, topValues } from '../helpers/stats-oracle.js';
import { fixturePath } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';

const world = tempWorld('analyze-stats');
const home = (name: string) => ({ STINT_HOME: world.path(`home-${name}`) });
const cities = fixturePath('csv', 'cities.csv');

type Column = Record<string, unknown>;
type Analysis = { stats?: string[]; columns: Column[] };
const analysisOf = (data: Record<string, unknown> | null): Analysis =>
  (data!['established'] as { a: Analysis }[])[0]!.a;

/** The full answer's column with only these fields, in its order: what a --stats answer must be. */
const only = (column: Column, fields: readonly string[]): Column =>
  Object.fromEntries(Object.entries(column).filter(([field]) => ['name', 'type', ...fields].includes(field)));

const BASIC_FIELDS = ['count', 'nulls', 'null_percentage', 'min', 'min_exact', 'max', 'max_exact', 'sum', 'sum_exact',
  'mean'];

async function analyze(args: readonly string[], name: string) {
  const { run, envelope } = await runJson(['analyze', ...args], { env: home(name) });
  assert.equal(run.code, 0, run.stdout);
  return envelope;
}

describe('stint analyze --stats', () => {
  test('basic: count, nulls, min, max, sum and mean of every column, the same figures as the full answer', async () => {
    const full = analysisOf((await analyze([cities], 'full')).data);
    const basic = await analyze([cities, '--stats', 'basic'], 'basic');
    const a = analysisOf(basic.data);
    assert.deepEqual(a.stats, ['count', 'nulls', 'min', 'max', 'sum', 'mean']);
    assert.deepEqual(a.columns, full.columns.map((c) => only(c, BASIC_FIELDS)));
    assert.ok(a.columns.some((c) => c['sum_exact'] !== undefined) && a.columns.every((c) => c['q50'] === undefined));
  });

  test('a list keeps those statistics and their errors; all, alone or listed, is a narrow default', async () => {
    const full = await analyze([cities], 'default');
    const picked = analysisOf((await analyze([cities, '--stats', 'top_values, distinct'], 'list')).data);
    assert.deepEqual(picked.stats, ['distinct', 'top_values'], 'in the one order, however given');
    const fields = ['distinct', 'distinct_exact', 'distinct_relative_error',
      'top_values', 'top_values_exact', 'top_values_error', 'top_values_below_error'];
    assert.deepEqual(picked.columns, analysisOf(full.data).columns.map((c) => only(c, fields)));
    for (const all of ['all', 'count,all']) {
      const again = await analyze([cities, '--stats', all], `all-${all}`);
      assert.deepEqual(again.data, full.data, `--stats ${all}`);
    }
  });

  describe('a file of more than 32 columns shown', () => {
    const names = Array.from({ length: 60 }, (_, k) => `c${k}`);
    const value = (r: number, k: number) => (k % 2 ? `v${(r * k) % 97}` : r * k);
    const rows = Array.from({ length: 400 }, (_, r) => names.map((_, k) => value(r, k)).join(','));
    const wide = world.path('wide.csv');
    writeFileSync(wide, `${[names.join(','), ...rows].join('\n')}\n`);
    const narrowed = (columns: number) => ({
      code: 'WIDE_FILE_BASIC_STATS',
      message: `wide.csv: ${columns} columns (more than 32), so each shows the basic statistics`
        + ' (count, nulls, min, max, sum, mean); --stats all shows every one',
      context: { path: 'wide.csv', columns, stats: ['count', 'nulls', 'min', 'max', 'sum', 'mean'] },
    });
    const inWorld = { cwd: world.dir };

    test('without --stats: the basic answer, a warning saying so, a fraction of --stats all\'s size', async () => {
      const { envelope } = await runJson(['analyze', 'wide.csv'], { env: home('wide-default'), ...inWorld });
      const basic = await runJson(['analyze', 'wide.csv', '--stats', 'basic'], { env: home('wide-basic'), ...inWorld });
      assert.deepEqual(envelope.data, basic.envelope.data);
      assert.deepEqual(envelope.warnings, [narrowed(60)]);
      assert.deepEqual(basic.envelope.warnings, [], 'asked for, so nothing to say');
      const all = await runJson(['analyze', 'wide.csv', '--stats', 'all'], { env: home('wide-all'), ...inWorld });
      assert.deepEqual(all.envelope.warnings, []);
      const every = analysisOf(all.envelope.data);
      assert.equal(every.stats, undefined);
      assert.ok(every.columns.every((c) => c['distinct'] !== undefined && c['top_values'] !== undefined));
      assert.ok(basic.run.stdout.length < all.run.stdout.length / 3, `${basic.run.stdout.length} bytes`);
    });

    test('counted as shown: 32 columns picked by --columns get every statistic, 33 the basic ones', async () => {
      const upTo = (n: number) => names.slice(0, n).join(',');
      const picked = await runJson(['analyze', 'wide.csv', '--columns', upTo(32)],
        { env: home('wide-32'), ...inWorld });
      assert.deepEqual(picked.envelope.warnings, []);
      assert.equal(analysisOf(picked.envelope.data).stats, undefined);
      assert.ok(analysisOf(picked.envelope.data).columns.every((c) => c['distinct'] !== undefined));
      const more = await runJson(['analyze', 'wide.csv', '--columns', upTo(33)], { env: home('wide-33'), ...inWorld });
      assert.deepEqual(more.envelope.warnings, [narrowed(33)]);
      assert.deepEqual(analysisOf(more.envelope.data).stats, ['count', 'nulls', 'min', 'max', 'sum', 'mean']);
    });
  });

  test('--format text: one table when no spread statistic is asked for, with the null % asked for', async () => {
    const run = await runCli(['analyze', cities, '--stats', 'basic', '--format', 'text'], { env: home('text') });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /column +type +count +nulls +null % +min +max +mean/);
    assert.doesNotMatch(run.stdout, /distinct|stddev|most frequent/);
    const { envelope } = await runJson(['analyze', cities, '--stats', 'basic'], { env: home('text-json') });
    for (const column of analysisOf(envelope.data).columns) {
      const row = run.stdout.split('\n').find((line) => line.trimStart().startsWith(`${column['name']} `));
      const share = String(Number((column['null_percentage'] as number).toFixed(2)));
      const cells = new RegExp(` ${column['nulls']} +${share.replace('.', '\\.')} `);
      assert.match(row ?? '', cells, `${column['name']}: ${row}`);
    }
    const countsArgs = ['analyze', cities, '--stats', 'count,min', '--format', 'text'];
    const counts = await runCli(countsArgs, { env: home('text-2') });
    assert.match(counts.stdout, /column +type +count +nulls +min +max +mean/, 'no null % when it is not asked for');
  });

  const bad = [['median', undefined], ['distinc', 'distinct'], [',', undefined], ['basic,top', 'top_values']];
  for (const [given, near] of bad) {
    test(`--stats ${given}: ARG_ERROR, exit 2, before any work${near ? `, suggesting ${near}` : ''}`, async () => {
      const { run, envelope } = await runJson(['analyze', cities, '--stats', given!], { env: home(`bad-${given}`) });
      assert.equal(run.code, 2, run.stdout);
      assert.equal(envelope.error!.code, 'ARG_ERROR');
      assert.match(envelope.error!.message, /--stats/);
      if (near) assert.match(String(envelope.error!['suggestion']), new RegExp(near));
    });
  }
});

describe('stint analyze --top', () => {
  // 3,000 rows: `few` has 40 values of distinct frequencies (the exact range), `many` 2,600 (past it) of which
  // three are frequent.
  const file = world.path('top.csv');
  const few = Array.from({ length: 3000 }, (_, r) => `f${Math.floor(Math.sqrt(r * 1.6))}`);
  const many = Array.from({ length: 3000 }, (_, r) => (r % 7 === 0 ? `hot${r % 3}` : `u${r}`));
  writeFileSync(file, `few,many\n${few.map((v, r) => `${v},${many[r]}`).join('\n')}\n`);
  type Top = { value: string; count: number }[];

  test('N most frequent with exact counts in the exact range; past it only values above the error', async () => {
    const a = analysisOf((await analyze([file, '--top', '12'], 'top-12')).data);
    const [fewColumn, manyColumn] = a.columns;
    assert.deepEqual(fewColumn!['top_values'], topValues(few, 12));
    assert.equal(fewColumn!['top_values_exact'], true);
    const error = manyColumn!['top_values_error'] as number;
    assert.equal(manyColumn!['top_values_exact'], false);
    const listed = manyColumn!['top_values'] as Top;
    assert.ok(listed.length > 0 && listed.length <= 12 && listed.every((t) => t.count > error), JSON.stringify(listed));
    const exact = new Map(frequencies(many).map((t) => [t.value, t.count]));
    for (const t of listed) assert.ok(t.count <= exact.get(t.value)! && t.count >= exact.get(t.value)! - error);
  });

  test('--top 5 is the default answer, whole; --top 0 lists none and keeps every other field', async () => {
    const full = await analyze([file], 'top-default');
    assert.deepEqual((await analyze([file, '--top', '5'], 'top-5')).data, full.data);
    const none = analysisOf((await analyze([file, '--top', '0'], 'top-0')).data);
    const listedNone = analysisOf(full.data).columns.map((c) => ({ ...c, top_values: [] }));
    assert.deepEqual(none.columns, listedNone);
    const max = analysisOf((await analyze([file, '--top', '64'], 'top-64')).data);
    assert.deepEqual(max.columns[0]!['top_values'], topValues(few, 64));
  });

  test('--format text with --top 0 has no column for most frequent values; --top 1 shows one a column', async () => {
    const none = await runCli(['analyze', file, '--top', '0', '--format', 'text'], { env: home('top-text-0') });
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stdout, /distinct/);
    assert.doesNotMatch(none.stdout, /most frequent/);
    const one = await runCli(['analyze', file, '--top', '1', '--format', 'text'], { env: home('top-text-1') });
    assert.match(one.stdout, /most frequent \(count\)/);
    assert.match(one.stdout, new RegExp(`${frequencies(few)[0]!.value} \\(${frequencies(few)[0]!.count}\\)`));
  });

  test('a value seen once is not listed: unique values list none, and text says each value once', async () => {
    const small = world.path('once.csv');
    writeFileSync(small, 'id,tag\n1,a\n2,b\n3,a\n4,c\n');
    const [id, tag] = analysisOf((await analyze([small], 'once')).data).columns;
    assert.deepEqual(id!['top_values'], []);
    assert.equal(id!['top_values_exact'], true);
    assert.equal(id!['top_values_below_error'], false);
    assert.deepEqual(tag!['top_values'], [{ value: 'a', count: 2 }]);
    const text = await runCli(['analyze', small, '--format', 'text'], { env: home('once-text') });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /\n {2}id +0 +4 .* each value once\n/);
    assert.match(text.stdout, /\n {2}tag +0 +3 +a \(2\)\n/);
  });

  for (const given of ['65', '-1', 'five', '2.5']) {
    test(`--top ${given}: ARG_ERROR, exit 2, before any work`, async () => {
      const { run, envelope } = await runJson(['analyze', file, '--top', given], { env: home(`top-${given}`) });
      assert.equal(run.code, 2, run.stdout);
      assert.equal(envelope.error!.code, 'ARG_ERROR');
      assert.match(envelope.error!.message, /--top/);
    });
  }
});
