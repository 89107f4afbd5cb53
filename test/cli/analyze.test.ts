import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { runJson, startCli } from '../helpers/run-cli.js';
import { checkpointDone } from '../helpers/checkpoint-peek.js';
import { fixturePath } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';
import { generateCsv, random } from '../helpers/csv-generator.js';
import { analyzeWithCsvParse } from '../helpers/analyze-oracle.js';
import { dataWithoutExtras, withoutExtras } from '../helpers/stats-oracle.js';
import { assertSameAnswer } from '../helpers/same-answer.js';

const world = tempWorld('analyze');
const home = (name: string) => ({ STINT_HOME: world.path(`home-${name}`), STINT_TEST_MODE: '1' });
const csv = (name: string) => fixturePath('csv', `${name}.csv`);
const canonical = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

type Analysis = { rows: number; columns: Record<string, unknown>[] };
const analysisOf = (data: Record<string, unknown> | null, index = 0): Analysis =>
  ((data!['established'] as { a: Analysis }[])[index]!).a;

describe('stint analyze: results', () => {
  test('the cities fixture: types, counts, extremes, sums', async () => {
    const { run, envelope } = await runJson(['analyze', csv('cities')], { env: home('cities') });
    assert.equal(run.code, 0);
    assert.equal(envelope.data!['coverage'], 'complete');
    const a = analysisOf(envelope.data);
    assert.equal(a.rows, 6);
    const byName = Object.fromEntries(a.columns.map((c) => [c['name'], c]));
    assert.deepEqual(withoutExtras(byName['id']!), { name: 'id', type: 'integer', count: 6, nulls: 0, min: 1, max: 6, sum: 21, mean: 3.5,
      min_exact: '1', max_exact: '6', sum_exact: '21' });
    assert.deepEqual(withoutExtras(byName['capital']!), { name: 'capital', type: 'boolean', count: 6, nulls: 0, min: false, max: true });
    assert.deepEqual(withoutExtras(byName['founded']!), { name: 'founded', type: 'integer', count: 4, nulls: 2, min: 874, max: 1554, sum: 5357, mean: 1339.25,
      min_exact: '874', max_exact: '1554', sum_exact: '5357' });
    assert.equal(byName['area_km2']!['type'], 'number');
    assert.equal(byName['city']!['max'], 'Zürich');
    assert.equal(byName['city']!['max_length'], 9);
    assert.equal(byName['note']!['max'], 'smallest here');
    const cite = (envelope.data!['established'] as { cite: Record<string, unknown> }[])[0]!.cite;
    assert.deepEqual(cite['bytes'], [0, 425]);
    assert.deepEqual(cite['lines'], [1, 8]);
    assert.equal(envelope.meta.budget_ms, 30000);
  });

  test('a BOM, CRLF and quoted newlines with doubled quotes', async () => {
    const { envelope } = await runJson(['analyze', csv('bom-crlf-quoted')], { env: home('bom') });
    const a = analysisOf(envelope.data);
    assert.equal(a.rows, 3);
    assert.equal(a.columns[0]!['name'], 'id', 'the BOM is not part of the first name');
    assert.equal(a.columns[1]!['min'], 'line one\r\nline two');
    assert.equal(a.columns[1]!['max'], 'say "hi"');
  });

  const shapes = [
    { name: 'crlf-bom-quoted-newlines', shape: { rows: 20000, columns: 7, crlf: true, bom: true, newlines: 0.08 } },
    { name: 'lf-ragged-empty-lines', shape: { rows: 20000, columns: 5, newlines: 0.03, ragged: 0.002, emptyLines: 0.01, trailingNewline: false } },
  ];
  for (const { name, shape } of shapes) {
    test(`equals a sequential csv-parse computation (${name}) for 1 and 2 workers and several chunk sizes`, async () => {
      const path = world.path(`${name}.csv`);
      writeFileSync(path, generateCsv(name.length * 101, shape));
      const expected = analyzeWithCsvParse(path);
      const results: unknown[] = [];
      const answers = new Map<string, unknown>();
      for (const workers of ['1', '2']) {
        for (const chunk of ['4096', '64KiB', '1MiB']) {
          const { run, envelope } = await runJson(['analyze', path, '--workers', workers, '--chunk-size', chunk], { env: home(`${name}-${workers}-${chunk}`) });
          assert.equal(run.code, 0, run.stderr);
          const a = analysisOf(envelope.data);
          assert.equal(a.rows, expected.rows);
          assert.deepEqual(canonical(a.columns.map(withoutExtras)), canonical(expected.columns), `workers ${workers}, chunk ${chunk}`);
          // The estimates may differ between chunk sizes (docs/cli.md), never between thread counts.
          results.push(dataWithoutExtras(envelope.data));
          answers.set(`${workers} ${chunk}`, envelope.data);
        }
      }
      for (const result of results) assert.deepEqual(result, results[0], 'every worker count and chunk size gives the same data');
      for (const chunk of ['4096', '64KiB', '1MiB']) {
        assertSameAnswer(answers.get(`2 ${chunk}`), answers.get(`1 ${chunk}`), `the whole answer, chunks of ${chunk}`);
      }
      if (expected.raggedCount > 0) {
        const { envelope } = await runJson(['analyze', path], { env: home(`${name}-warn`) });
        const warning = envelope.warnings.find((w) => w.code === 'RAGGED_ROWS')!;
        assert.equal(warning.context!['count'], expected.raggedCount);
        assert.deepEqual(warning.context!['lines'], expected.raggedLines);
      }
    });
  }
});

describe('stint analyze: several files and partial outcomes', () => {
  test('one good, one missing, one directory: exit 3, coverage partial, each gap named', async () => {
    const { run, envelope } = await runJson(['analyze', csv('cities'), world.path('missing.csv'), fixturePath('csv')], { env: home('multi') });
    assert.equal(run.code, 3);
    assert.equal(envelope.error!.code, 'PARTIAL_FAILURE');
    assert.equal(envelope.data!['coverage'], 'partial');
    assert.equal(envelope.data!['cause'], 'bad_input');
    const unresolved = envelope.data!['unresolved'] as { q: string; code: string; reason: string }[];
    assert.deepEqual(unresolved.map((u) => u.code), ['FILE_NOT_FOUND', 'NOT_A_FILE']);
    assert.equal((envelope.data!['established'] as unknown[]).length, 1);
  });
});

describe('stint analyze: bad input gets its code, never a crash or a hang', () => {
  before(() => {
    mkdirSync(world.path('a-directory'), { recursive: true });
    writeFileSync(world.path('binary.bin'), Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0xff, 0x10, 0x0a, 0x00]));
    execFileSync('mkfifo', [world.path('a-fifo')]);
    writeFileSync(world.path('long-record.csv'), `a,b\n1,"${'x'.repeat(20000)}"\n2,y\n`);
    writeFileSync(world.path('bad-header.csv'), 'a,"b\n');
  });
  const cases: { name: string; path: () => string; args?: string[]; exit: number; code: string; line?: number }[] = [
    { name: 'missing file', path: () => world.path('nope.csv'), exit: 5, code: 'FILE_NOT_FOUND' },
    { name: 'a directory', path: () => world.path('a-directory'), exit: 4, code: 'NOT_A_FILE' },
    { name: 'a FIFO (never opened, so no hang)', path: () => world.path('a-fifo'), exit: 4, code: 'NOT_A_FILE' },
    { name: 'a binary file', path: () => world.path('binary.bin'), exit: 4, code: 'NOT_CSV' },
    { name: 'an empty file', path: () => csv('empty'), exit: 4, code: 'EMPTY_INPUT' },
    { name: 'a header that is not CSV', path: () => world.path('bad-header.csv'), exit: 4, code: 'MALFORMED_CSV', line: 1 },
    { name: 'an unterminated quote', path: () => csv('unterminated-quote'), exit: 4, code: 'MALFORMED_CSV', line: 3 },
    { name: 'a quote inside an unquoted field', path: () => csv('quote-in-unquoted-field'), exit: 4, code: 'MALFORMED_CSV', line: 2 },
    { name: 'text after a closing quote', path: () => csv('text-after-closing-quote'), exit: 4, code: 'MALFORMED_CSV', line: 2 },
    { name: 'a record past --max-record-size', path: () => world.path('long-record.csv'), args: ['--max-record-size', '1KiB', '--chunk-size', '4096'], exit: 4, code: 'RECORD_TOO_LONG' },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const { run, envelope } = await runJson(['analyze', c.path(), ...(c.args ?? [])], { env: home(`bad-${c.name}`), killAfterMs: 30_000 });
      assert.equal(run.signal, null);
      assert.equal(run.code, c.exit, run.stdout);
      assert.equal(envelope.error!.code, c.code);
      assert.equal(envelope.data!['coverage'], 'none');
      const gap = (envelope.data!['unresolved'] as { code: string; context?: { line?: number } }[])[0]!;
      assert.equal(gap.code, c.code);
      if (c.line) assert.equal(gap.context?.line, c.line);
      assert.ok(!/\(line \d+\) \(line \d+\)/.test(envelope.error!.message), `names its line once: ${envelope.error!.message}`);
    });
  }

  test('ragged rows are left out with a warning naming their lines', async () => {
    const { run, envelope } = await runJson(['analyze', csv('ragged-rows')], { env: home('ragged') });
    assert.equal(run.code, 0);
    assert.equal(analysisOf(envelope.data).rows, 3);
    const warning = envelope.warnings.find((w) => w.code === 'RAGGED_ROWS')!;
    assert.deepEqual(warning.context, { path: csv('ragged-rows'), count: 2, lines: [3, 4] });
  });

  test('invalid UTF-8 is read as U+FFFD with a warning naming the lines', async () => {
    const { run, envelope } = await runJson(['analyze', csv('invalid-utf8')], { env: home('utf8') });
    assert.equal(run.code, 0);
    const warning = envelope.warnings.find((w) => w.code === 'INVALID_UTF8_REPLACED')!;
    assert.deepEqual(warning.context!['lines'], [2, 4]);
    assert.equal(analysisOf(envelope.data).columns[1]!['min'], 'caf\ufffd');
  });

  test('a header-only file has zero rows and empty columns', async () => {
    const { run, envelope } = await runJson(['analyze', csv('header-only')], { env: home('header-only') });
    assert.equal(run.code, 0);
    const a = analysisOf(envelope.data);
    assert.equal(a.rows, 0);
    assert.deepEqual(a.columns.map((c) => c['type']), ['empty', 'empty', 'empty']);
  });

  test('a chunk or record size past what a worker can hold is an argument error naming the bound', async () => {
    for (const [flag, value, bound] of [['--chunk-size', '2GiB', '256MiB'], ['--max-record-size', '1GiB', '128MiB']] as const) {
      const { run, envelope } = await runJson(['analyze', 'fixtures/csv/cities.csv', flag, value], { env: home(`bound${flag}`) });
      assert.equal(run.code, 2);
      assert.equal(envelope.error!.code, 'ARG_ERROR');
      const errors = (envelope.error as unknown as { errors: { field: string; reason: string; message: string }[] }).errors;
      assert.equal(errors[0]!.field, flag);
      assert.equal(errors[0]!.reason, 'malformed_value');
      assert.match(errors[0]!.message, new RegExp(`at most ${bound}`));
    }
  });
});

const HEARTBEAT = /\] stint analyze: .* \[(\d+)\/(\d+) bytes\]/;

describe('stint analyze: kill -9 at random points, then the identical invocation', () => {
  test('resumes from the checkpoint and ends with the uninterrupted result', async () => {
    const path = world.path('kill9.csv');
    writeFileSync(path, generateCsv(99, { rows: 500_000, columns: 8, newlines: 0.05, crlf: true })); // ~45 MB: a run outlasts the kill aimed at it
    const args = ['analyze', path, '--workers', '2', '--chunk-size', '64KiB', '--heartbeat-ms', '5'];
    const reference = await runJson(args, { env: home('kill9-reference') });
    assert.equal(reference.run.code, 0);

    const env = { ...home('kill9'), STINT_CHECKPOINT_INTERVAL_MS: '0' };
    const rnd = random(2024);
    let kills = 0;
    // How often each check below ran: a check that never ran proves nothing, so the counts are asserted.
    let [resumes, kept] = [0, 0];
    let saved: number | undefined;
    let final;
    for (let attempt = 0; attempt < 40 && !final; attempt++) {
      const running = startCli(args, { env });
      const first = await running.stderrLine(HEARTBEAT);
      if (first && saved !== undefined) {
        assert.ok(Number(first[1]) >= saved, `first progress ${first[1]} is not below the checkpoint's ${saved}`);
        resumes++;
      }
      if (kills < 10 && first) {
        const total = Number(first[2]);
        const from = Number(first[1]);
        const target = from + Math.floor(rnd() * (total - from) * 0.3);
        const reached = await running.stderrLine(new RegExp(`\\] stint analyze: .* \\[(\\d{${String(target).length},})/`));
        if (reached && Number(reached[1]) < total) {
          running.kill('SIGKILL');
          const killed = await running.done;
          if (killed.signal === 'SIGKILL') {
            kills++;
            const done = await checkpointDone(env.STINT_HOME);
            if (done !== undefined) {
              if (saved !== undefined) assert.ok(done >= saved, 'checkpoints never go backwards');
              saved = done;
              kept++;
            }
            continue;
          }
          final = killed;
          continue;
        }
      }
      final = await running.done;
    }
    assert.ok(kills >= 10, `killed ${kills} times`);
    assert.ok(kept >= 5 && resumes >= 5, `${kept} checkpoints read after a kill, ${resumes} resumes checked`);
    assert.ok(final, 'the work finished');
    assert.equal(final.code, 0, final.stdout);
    const resumed = JSON.parse(final.stdout) as { data: unknown };
    assertSameAnswer(resumed.data, reference.envelope.data, 'resumed after kill -9s: the uninterrupted answer');
    assert.deepEqual(readdirSync(`${env.STINT_HOME}/checkpoints`), [], 'a completed run leaves no checkpoint');
  });

  test('an input changed between runs discards the checkpoint with CHECKPOINT_DISCARDED and starts over', async () => {
    const path = world.path('changing.csv');
    writeFileSync(path, generateCsv(5, { rows: 150_000, columns: 6, newlines: 0.02 }));
    const env = { ...home('changing'), STINT_CHECKPOINT_INTERVAL_MS: '0' };
    const args = ['analyze', path, '--workers', '1', '--chunk-size', '64KiB', '--heartbeat-ms', '5'];
    const running = startCli(args, { env });
    const line = await running.stderrLine(/\] stint analyze: .* \[([1-9]\d{5,})\//);
    assert.ok(line, 'the run got going');
    running.kill('SIGKILL');
    await running.done;
    assert.ok((await checkpointDone(env.STINT_HOME))! > 0, 'a checkpoint was left');
    appendFileSync(path, '1,2,3,4,5,6\n');
    const { run, envelope } = await runJson(args, { env });
    assert.equal(run.code, 0);
    const warning = envelope.warnings.find((w) => w.code === 'CHECKPOINT_DISCARDED');
    assert.ok(warning, 'the warning names the discard');
    assert.match(warning.message, /input changed/);
    const expected = analyzeWithCsvParse(path);
    assert.equal(analysisOf(envelope.data).rows, expected.rows);
    assert.deepEqual(canonical(analysisOf(envelope.data).columns.map(withoutExtras)), canonical(expected.columns));
  });
});
