// The added statistics through the BUILT stint on real files: error bounds of
// the sketches against exact answers computed here, at several chunk sizes,
// and the sketches carried through a checkpoint across kill -9 and resume.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { checkpointDone } from '../helpers/checkpoint-peek.js';
import { runCli, runJson, startCli } from '../helpers/run-cli.js';
import { tempWorld } from '../helpers/temp-world.js';
import { random } from '../helpers/csv-generator.js';
import { Distribution, numbers } from '../helpers/distributions.js';
import { exactVariance, frequencies, rankError, topValues } from '../helpers/stats-oracle.js';
import { analyzedColumns, assertEstimateBounds } from '../helpers/estimate-bounds.js';
import { fixturePath } from '../helpers/paths.js';
import { analyzeWithCsvParse, type OracleFile } from '../helpers/analyze-oracle.js';
import { assertSameAnswer } from '../helpers/same-answer.js';

const world = tempWorld('analyze-stats');
const home = (name: string) => ({ STINT_HOME: world.path(`home-${name}`), STINT_TEST_MODE: '1' });
type Column = Record<string, unknown> & { name: string };

const ROWS = 240_000;
const DAY = 86_400_000;

/** Columns of known distributions, with their values as written (empty: null). */
function columnsOf(rows: number): Record<string, string[]> {
  const rnd = random(7);
  const top = ['red', 'green', 'blue', 'cyan', 'plum'];
  return {
    uniform: numbers(Distribution.Uniform, rows, 1).map((v, i) => (i % 97 === 0 ? '' : String(v))),
    skewed: numbers(Distribution.Skewed, rows, 2).map(String),
    duplicates: numbers(Distribution.Duplicates, rows, 3).map(String),
    id: Array.from({ length: rows }, (_, i) => `id-${(i * 7919) % 150_000}`),
    colour: Array.from({ length: rows }, () => {
      let u = rnd();
      for (const [i, share] of [0.2, 0.15, 0.1, 0.07, 0.05].entries()) {
        if (u < share) return top[i]!;
        u -= share;
      }
      return `rare-${Math.floor(rnd() * 50_000)}`;
    }),
    day: Array.from({ length: rows }, (_, i) => new Date(Date.UTC(2020, 0, 1) + (i % 1500) * DAY).toISOString())
      .map((iso) => iso.slice(0, 10)),
    at: Array.from({ length: rows }, (_, i) => `2024-03-01T${String(i % 24).padStart(2, '0')}:15:00+01:00`),
    serial: Array.from({ length: rows }, (_, i) => `serial-${(i * 104_729) % rows}`),
  };
}

const columns = columnsOf(ROWS);
const names = Object.keys(columns);
const file = world.path('known.csv');

/** The file counted by csv-parse (analyze-oracle.ts), which shares no code with analyze. */
let oracle: OracleFile;

before(() => {
  const lines = [names.join(',')];
  for (let r = 0; r < ROWS; r++) lines.push(names.map((n) => columns[n]![r]).join(','));
  writeFileSync(file, `${lines.join('\n')}\n`);
  oracle = analyzeWithCsvParse(file);
});

function byName(data: Record<string, unknown> | null): Record<string, Column> {
  const a = (data!['established'] as { a: { columns: Column[] } }[])[0]!.a;
  return Object.fromEntries(a.columns.map((c) => [c.name, c]));
}

/** Every bound docs/cli.md states, against exact answers from the values themselves. */
function assertBounds(got: Record<string, Column>, label: string): void {
  for (const name of ['uniform', 'skewed', 'duplicates']) {
    const values = columns[name]!.filter((v) => v !== '').map(Number);
    const sorted = [...values].sort((a, b) => a - b);
    const c = got[name]!;
    for (const [key, q] of [['q25', 0.25], ['q50', 0.5], ['q75', 0.75]] as const) {
      const error = rankError(sorted, c[key] as number, q);
      assert.ok(error <= 0.01, `${label} ${name}.${key}: rank error ${error}`);
    }
    const variance = exactVariance(values);
    assert.ok(Math.abs((c['variance'] as number) - variance) <= 1e-9 * variance, `${label} ${name}.variance`);
    assert.ok(Math.abs((c['stddev'] as number) - Math.sqrt(variance)) <= 1e-9 * Math.sqrt(variance));
  }
  for (const name of names) {
    const exact = new Set(columns[name]!.filter((v) => v !== '')).size;
    const distinct = got[name]!['distinct'] as number;
    assert.ok(Math.abs(distinct - exact) <= 0.02 * exact, `${label} ${name}: distinct ${distinct} vs ${exact}`);
    if (got[name]!['distinct_exact']) assert.equal(distinct, exact, `${label} ${name}: said exact`);
  }
  assert.equal(got['uniform']!['null_percentage'], (100 * Math.ceil(ROWS / 97)) / ROWS);
  assert.equal(got['skewed']!['null_percentage'], 0);
  for (const name of ['duplicates', 'day', 'at']) {
    const exact = oracle.counts[names.indexOf(name)]!;
    assert.deepEqual(got[name]!['top_values'], exact.top_values, `${label} ${name}: the exact top five (csv-parse)`);
    assert.equal(got[name]!['distinct'], exact.distinct, `${label} ${name}: the exact distinct count (csv-parse)`);
    assert.equal(got[name]!['top_values_exact'], true, `${label} ${name}`);
  }
  for (const name of ['id', 'colour', 'serial']) {
    const exact = new Map(frequencies(columns[name]!).map((f) => [f.value, f.count]));
    const error = got[name]!['top_values_error'] as number;
    assert.equal(got[name]!['top_values_exact'], false, `${label} ${name}`);
    for (const t of got[name]!['top_values'] as { value: string; count: number }[]) {
      assert.ok(t.count > error, `${label} ${name}: ${t.value} (${t.count}) is not above the error ${error}`);
      assert.ok(t.count <= exact.get(t.value)! && exact.get(t.value)! - t.count <= error, `${label} ${name}`);
    }
  }
  assert.deepEqual(got['serial']!['top_values'], [], `${label}: a unique column lists nothing`);
  assert.equal(got['serial']!['top_values_below_error'], true, `${label}: and says why`);
  for (const name of ['duplicates', 'colour']) {
    const expected = topValues(columns[name]!);
    const top = got[name]!['top_values'] as { value: string; count: number }[];
    const error = got[name]!['top_values_error'] as number;
    assert.deepEqual(top.map((t) => t.value), expected.map((t) => t.value), `${label} ${name}: the top five, in order`);
    top.forEach((t, i) => assert.ok(t.count <= expected[i]!.count && expected[i]!.count - t.count <= error, `${label} ${name}`));
  }
}

describe('stint analyze: the added statistics on known distributions', () => {
  for (const chunk of ['64KiB', '1MiB', '64MiB']) {
    test(`quantiles within 1 % rank error, distinct counts within 2 %, the top five exact in order (chunks of ${chunk})`, async () => {
      const { run, envelope } = await runJson(['analyze', file, '--chunk-size', chunk, '--workers', '2'], { env: home(chunk) });
      assert.equal(run.code, 0, run.stderr);
      const got = byName(envelope.data);
      assertBounds(got, chunk);
      assert.equal(got['duplicates']!['distinct_exact'], true);
      assert.equal(got['duplicates']!['top_values_error'], 0, 'few distinct values: exact counts');
      assert.equal(got['id']!['distinct_exact'], false);
      assert.deepEqual([got['day']!['type'], got['day']!['min'], got['day']!['max']], ['date', '2020-01-01', '2024-02-08']);
      const at = got['at']!;
      assert.deepEqual([at['type'], at['min'], at['max']], ['timestamp', '2024-03-01T00:15:00+01:00', '2024-03-01T23:15:00+01:00']);
    });
  }
});


const PROGRESS = /\] stint analyze: .* \[(\d+)\/(\d+) bytes\]/;

describe('stint analyze: the sketches survive kill -9 and resume', () => {
  test('killed after a checkpoint, the same invocation resumes and ends with the uninterrupted answer', async () => {
    const args = ['analyze', file, '--workers', '2', '--chunk-size', '64KiB', '--heartbeat-ms', '5'];
    const reference = await runJson(args, { env: home('reference') });
    assert.equal(reference.run.code, 0);
    const env = { ...home('killed'), STINT_CHECKPOINT_INTERVAL_MS: '0' };
    let saved: number | undefined;
    for (let attempt = 0; attempt < 20 && saved === undefined; attempt++) {
      const running = startCli(args, { env });
      const first = await running.stderrLine(PROGRESS);
      const total = Number(first?.[2]);
      const past = first && (await running.stderrLine(new RegExp(`\\[(\\d{${String(Math.floor(total / 3)).length},})/`)));
      running.kill('SIGKILL');
      const killed = await running.done;
      if (past && killed.signal === 'SIGKILL') saved = await checkpointDone(env.STINT_HOME);
    }
    assert.ok(saved !== undefined && saved > 0, 'a run was killed after a checkpoint with work in it');
    const resumed = await runJson(args, { env });
    assert.equal(resumed.run.code, 0, resumed.run.stderr);
    assertSameAnswer(resumed.envelope.data, reference.envelope.data, 'resumed: the uninterrupted answer, whole');
    const [got, expected] = [byName(resumed.envelope.data), byName(reference.envelope.data)];
    for (const name of names) {
      for (const key of ['distinct', 'distinct_exact', 'null_percentage']) {
        assert.equal(got[name]![key], expected[name]![key], `${name}.${key}`);
      }
    }
    assertBounds(got, 'resumed');
  });
});

describe('stint analyze: estimates that never mislead', () => {
  test('distinct ≤ count and no listed value within the error, on every column of every fixture', async () => {
    const files = readdirSync(fixturePath('csv')).map((name) => fixturePath('csv', name));
    let checked = 0;
    for (const path of [...files, file]) {
      const { envelope } = await runJson(['analyze', path], { env: home('fixtures') });
      assertEstimateBounds(envelope.data); // envelopeOf checks it too: said here so it cannot go unsaid
      checked += analyzedColumns(envelope.data).length;
    }
    assert.ok(checked >= 20, `${checked} columns checked`);
  });

  test('--format text marks a lower bound with ≥, an estimate with ≈, and says when no value is above the error',
    async () => {
      const run = await runCli(['analyze', file, '--format', 'text'], { env: home('text') });
      assert.equal(run.code, 0, run.stderr);
      const row = (name: string) => run.stdout.split('\n').filter((line) => line.trimStart().startsWith(`${name} `)).at(-1)!;
      const day = frequencies(columns['day']!)[0]!;
      assert.ok(row('day').includes(`${day.value} (${day.count})`), row('day'));
      assert.match(row('colour'), /red \(≥\d+\)/);
      assert.match(row('id'), /≈\d+/);
      assert.match(row('serial'), /none counted more than the error \(\d+\)/);
    });

  test('an hourly series and a flights-like table with seconds and no zone are timestamps (CRLF, quoted)', async () => {
    const hours = Array.from({ length: 5000 }, (_, h) => new Date(Date.UTC(2010, 0, 1, 1) + h * 3_600_000));
    const plain = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
    const hourly = ['date,temp', ...hours.map((d, i) => `${plain(d)},${(i % 40) - 5}.5`)];
    writeFileSync(world.path('hourly.csv'), `${hourly.join('\r\n')}\r\n`);
    const flights = ['date,delay,distance,origin,destination',
      ...hours.map((d, i) => `"${d.toISOString().slice(0, 19)}",${(i % 90) - 10},${300 + i},SEA,"${i % 2 ? 'SFO' : 'LAX'}"`)];
    writeFileSync(world.path('flights.csv'), `${flights.join('\n')}\n`);
    for (const [name, first, last] of [
      ['hourly.csv', '2010-01-01 01:00:00', plain(hours.at(-1)!)],
      ['flights.csv', '2010-01-01T01:00:00', hours.at(-1)!.toISOString().slice(0, 19)],
    ] as const) {
      const { run, envelope } = await runJson(['analyze', world.path(name)], { env: home('timestamps') });
      assert.equal(run.code, 0, run.stderr);
      const date = byName(envelope.data)['date']!;
      assert.deepEqual([date['type'], date['min'], date['max']], ['timestamp', first, last], name);
    }
  });
});
