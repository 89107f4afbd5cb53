import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { Level } from 'level';
import type { Envelope } from '../../src/contract/envelope.js';
import { cleanEnv, envelopeOf, ranBy, runJson, runShell, startCli, type CliRun } from '../helpers/run-cli.js';
import { fixturePath } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';
import { csvFileRecords, tableRecords } from '../helpers/table-rows.js';
import { generateCsv, random } from '../helpers/csv-generator.js';

const world = tempWorld('import');
let homes = 0;
type Env = Record<string, string>;
const freshHome = (extra: Env = {}) => ({ STINT_HOME: world.path(`home-${++homes}`), STINT_TEST_MODE: '1', ...extra });
const csv = (name: string) => fixturePath('csv', `${name}.csv`);
const records = csvFileRecords;


const exported = (db: string, env: Record<string, string>) => tableRecords(db, world.path(`export-${++homes}.csv`), env);

const BIG_ROWS = 200_000;
/** Pauses of the budget loop before it finishes in one call. */
const ENOUGH_PAUSES = 12;
const HEARTBEAT = /\] stint import: .* bytes, (\d+) rows?\]/;

describe('exactly once under faults (200 000 rows)', () => {
  let big: string;
  let expected: string[][];
  before(() => {
    big = world.path('big.csv');
    writeFileSync(big, generateCsv(77, { rows: BIG_ROWS, columns: 6, newlines: 0.03 }));
    expected = records(big);
    assert.equal(expected.length, BIG_ROWS + 1);
  });

  test('kill -9 at random moments (10+ times), continuing each time: the export equals the input', async () => {
    const env = freshHome();
    const db = world.path('kill9.db');
    const args = ['import', big, '--into', db, '--chunk-size', '256KiB', '--heartbeat-ms', '10', '--budget', '0'];
    const rnd = random(7);
    let kills = 0;
    let final: CliRun | undefined;
    for (let attempt = 0; attempt < 60 && !final; attempt++) {
      const running = startCli(args, { env });
      if (kills < 12) {
        const first = await running.stderrLine(HEARTBEAT);
        const target = Number(first?.[1] ?? 0) + Math.floor(rnd() * 20_000);
        const reached = await running.stderrLine(new RegExp(`\\] stint import: .* bytes, (${String(target).replace(/\d/g, '\\d')}|\\d{${String(target).length + 1},}) rows\\]`));
        if (reached && Number(reached[1]) < BIG_ROWS) {
          running.kill('SIGKILL');
          const killed = await running.done;
          if (killed.signal === 'SIGKILL') {
            kills++;
            continue;
          }
          final = killed;
          continue;
        }
      }
      final = await running.done;
    }
    assert.ok(kills >= 10, `killed ${kills} times`);
    assert.equal(final!.code, 0, final!.stdout);
    const envelope = envelopeOf(final!);
    assert.equal((envelope.data as { coverage: string }).coverage, 'complete');
    assert.deepEqual(await exported(db, env), expected, 'no row lost, none twice, ids in file order');
  });

  test('SIGTERM 10 times: each pauses with 14, the continuation goes on; the export equals the input', async () => {
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '600000' });
    const db = world.path('sigterm.db');
    let line = `${process.execPath} ${(await import('../helpers/paths.js')).STINT_BIN} import ${big} --into ${db} --chunk-size 64KiB --heartbeat-ms 10`;
    let pauses = 0;
    let last: Envelope<Record<string, unknown>> | undefined;
    let previous = -1;
    for (let attempt = 0; attempt < 40; attempt++) {
      const child = spawn('sh', ['-c', `exec ${line}`], { env: cleanEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
      const started = new Promise<void>((resolve) => child.stderr.setEncoding('utf8').on('data', (c: string) => { stderr += c; if (HEARTBEAT.test(stderr)) resolve(); }));
      const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      if (pauses < 10) {
        await Promise.race([started, closed]);
        child.kill('SIGTERM');
      }
      const code = await closed;
      last = envelopeOf({ code, signal: null, stdout, stderr, ...ranBy(line, cleanEnv(env)) });
      if (code !== 14) break;
      pauses++;
      const data = last.data as { continue_command: string; progress: { done: number }; state: string };
      assert.equal(data.state, 'paused');
      assert.ok(data.progress.done >= previous, 'progress never decreases');
      previous = data.progress.done;
      line = data.continue_command;
      assert.match(line, /--idempotency-key auto-[0-9a-f]{16}$/);
    }
    assert.ok(pauses >= 10, `paused ${pauses} times`);
    assert.equal(last!.meta.exit_code, 0);
    assert.deepEqual(await exported(db, env), expected);
  });

  test('a budget small enough to pause many times: continue_command until not 14', async () => {
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '400' });
    const db = world.path('budget.db');
    const { STINT_BIN } = await import('../helpers/paths.js');
    let run = await runShell(`${process.execPath} ${STINT_BIN} import ${big} --into ${db} --chunk-size 4KiB`, env);
    let pauses = 0;
    let flat = 0;
    let done = -1;
    while (run.code === 14) {
      pauses++;
      const envelope = envelopeOf(run);
      assert.equal(envelope.error!.retryable, false);
      const data = envelope.data as { continue_command: string; progress: { done: number } };
      // As the agent loop does: three calls without progress (a loaded machine can spend a 400 ms call
      // starting up) and it stops slicing; here it finishes the work in one call instead of cancelling.
      // After a dozen pauses the point is made and the rest goes in one call too: how many 400 ms calls the
      // whole file takes depends on the machine's speed, and a loaded one would spend the file's time limit.
      flat = data.progress.done > done ? 0 : flat + 1;
      done = data.progress.done;
      const last = flat >= 3 || pauses >= ENOUGH_PAUSES;
      run = await runShell(`${data.continue_command}${last ? ' --budget 0' : ''}`, env);
    }
    assert.equal(run.code, 0, run.stdout);
    // A 400 ms call does ~0.1 s of work after start-up; the smallest chunks (one synced commit
    // per 4 KiB) make that a few hundred rows, so the 6 MB file takes several calls (7 here).
    assert.ok(pauses >= 3, `paused ${pauses} times`);
    assert.deepEqual(await exported(db, env), expected);
  });
});

describe('idempotency', () => {
  test('the same key again replays the original data with effect noop and meta.idempotency_hit, touching nothing', async () => {
    const env = freshHome();
    const db = world.path('idem.db');
    const first = await runJson(['import', csv('cities'), '--into', db, '--idempotency-key', 'k-1'], { env });
    assert.equal(first.run.code, 0);
    assert.equal(first.envelope.data!['effect'], 'written');
    const again = await runJson(['import', csv('cities'), '--into', db, '--idempotency-key', 'k-1'], { env });
    assert.equal(again.run.code, 0);
    assert.equal(again.envelope.data!['effect'], 'noop');
    assert.equal(again.envelope.meta['idempotency_hit'], true);
    const { effect: _a, ...firstData } = first.envelope.data!;
    const { effect: _b, ...againData } = again.envelope.data!;
    assert.deepEqual(againData, firstData);
    assert.equal((await exported(db, env)).length, 7, 'the rows are there once');
  });

  test('the same key with other arguments, or with other bytes, is IDEMPOTENCY_KEY_REUSED (exit 6)', async () => {
    const env = freshHome();
    const db = world.path('idem2.db');
    const file = world.path('changing.csv');
    writeFileSync(file, 'a,b\n1,2\n');
    assert.equal((await runJson(['import', file, '--into', db, '--idempotency-key', 'k-2'], { env })).run.code, 0);
    const other = await runJson(['import', file, '--into', db, '--idempotency-key', 'k-2', '--key', 'a'], { env });
    assert.equal(other.run.code, 6);
    assert.equal(other.envelope.error!.code, 'IDEMPOTENCY_KEY_REUSED');
    writeFileSync(file, 'a,b\n9,2\n3,4\n');
    const changed = await runJson(['import', file, '--into', db, '--idempotency-key', 'k-2'], { env });
    assert.equal(changed.run.code, 6);
    assert.equal(changed.envelope.error!.code, 'IDEMPOTENCY_KEY_REUSED');
    assert.equal((await exported(db, env)).length, 2, 'nothing more was written');
  });
});

describe('bad rows', () => {
  const cases: { name: string; file: string; args?: string[]; gaps: [number, string][]; imported: number }[] = [
    { name: 'ragged rows', file: 'ragged-rows', gaps: [[3, 'field_count'], [4, 'field_count']], imported: 3 },
    { name: 'invalid UTF-8', file: 'invalid-utf8', gaps: [[2, 'invalid_utf8'], [4, 'invalid_utf8']], imported: 1 },
    { name: 'an unterminated quote', file: 'unterminated-quote', gaps: [[3, 'unterminated_quote']], imported: 1 },
    { name: 'a quote inside an unquoted field', file: 'quote-in-unquoted-field', gaps: [[2, 'quote_in_unquoted_field']], imported: 0 },
    { name: 'text after a closing quote', file: 'text-after-closing-quote', gaps: [[2, 'text_after_closing_quote']], imported: 0 },
    { name: 'a missing --key value', file: 'missing-key', args: ['--key', 'code'], gaps: [[3, 'missing_key']], imported: 3 },
  ];
  for (const c of cases) {
    test(`${c.name}: reported by line and reason, the rest imported, exit 3`, async () => {
      const env = freshHome();
      const db = world.path(`bad-${homes}.db`);
      const { run, envelope } = await runJson(['import', csv(c.file), '--into', db, ...(c.args ?? [])], { env });
      assert.equal(run.code, 3, run.stdout);
      assert.equal(envelope.error!.code, 'PARTIAL_FAILURE');
      const data = envelope.data as { coverage: string; unresolved: { code: string; context: { line: number } }[]; rows_imported: number; unresolved_total: number };
      assert.deepEqual(data.unresolved.map((u) => [u.context.line, u.code]), c.gaps);
      assert.equal(data.unresolved_total, c.gaps.length);
      assert.equal(data.rows_imported, c.imported);
      assert.equal(data.coverage, c.imported > 0 ? 'partial' : 'none');
    });
  }

  test('--key upserts: a repeated key keeps its first id', async () => {
    const env = freshHome();
    const db = world.path('upsert.db');
    await runJson(['import', csv('missing-key'), '--into', db, '--key', 'code'], { env });
    assert.deepEqual(await exported(db, env), [['code', 'name'], ['A1', 'first again'], ['B2', 'second']]);
  });

  test('--on-bad-row fail stops at the first bad row; the rows before it are committed', async () => {
    const env = freshHome();
    const db = world.path('fail.db');
    const { run, envelope } = await runJson(['import', csv('ragged-rows'), '--into', db, '--on-bad-row', 'fail'], { env });
    assert.equal(run.code, 3);
    assert.match(envelope.error!.message, /line 3/);
    assert.deepEqual(await exported(db, env), [['id', 'name', 'score'], ['1', 'ann', '3']]);
  });

  test('each established range ends on the last line of its last record, one spanning lines included', async () => {
    const file = world.path('spanning.csv');
    writeFileSync(file, 'a,b\n1,"x\ny"\n2,z,extra\n3,"p\nq\nr"\n');
    const { run, envelope } = await runJson(['import', file, '--into', world.path('spanning.db')], { env: freshHome() });
    assert.equal(run.code, 3, run.stdout);
    const data = envelope.data as { established: { q: string; cite: { lines: number[] } }[] };
    assert.deepEqual(data.established.map((e) => [e.q, e.cite.lines]),
      [['lines 2-3', [2, 3]], ['lines 5-7', [5, 7]]]);
  });

  test('a clean file: exit 0, coverage complete', async () => {
    const { run, envelope } = await runJson(['import', csv('bom-crlf-quoted'), '--into', world.path('clean.db')], { env: freshHome() });
    assert.equal(run.code, 0);
    assert.equal((envelope.data as { coverage: string }).coverage, 'complete');
  });
});

describe('dry runs, locks and bad arguments', () => {
  test('--dry-run reads the whole file and writes nothing', async () => {
    const db = world.path('dry.db');
    const { run, envelope } = await runJson(['import', csv('ragged-rows'), '--into', db, '--dry-run'], { env: freshHome() });
    assert.equal(run.code, 3);
    assert.equal(envelope.data!['effect'], 'none');
    assert.equal(envelope.data!['rows_imported'], 3);
    assert.equal(envelope.meta['dry_run'], true);
    assert.equal(existsSync(db), false, 'the table was not even created');
  });

  test('a table held by another process: DATABASE_LOCKED (exit 12, retryable), nothing harmed', async () => {
    const env = freshHome();
    const db = world.path('locked.db');
    await runJson(['import', csv('cities'), '--into', db], { env });
    const holder = new Level(db);
    await holder.open();
    try {
      const { run, envelope } = await runJson(['import', csv('ragged-rows'), '--into', db, '--idempotency-key', 'other'], { env });
      assert.equal(run.code, 12);
      assert.equal(envelope.error!.code, 'DATABASE_LOCKED');
      assert.equal(envelope.error!.retryable, true);
    } finally {
      await holder.close();
    }
    assert.equal((await exported(db, env)).length, 7);
  });

  /**
   * An import of 60,000 rows paused with rows in the table (a fact: on a loaded machine a short call may not get
   * that far), then `whileHeld` runs while another process holds the table; after it, the next identical call's
   * first answer (forced before it opens the table) shows at least the rows kept, and the last has every row once.
   */
  type WhileHeld = (args: string[], env: Env) => Promise<void>;
  async function lockedThenContinued(name: string, seed: number, whileHeld: WhileHeld) {
    const env = freshHome();
    const input = world.path(`${name}.csv`);
    // Enough rows that a call's 500 ms cannot import them all, even where a commit's fsync is quick (60,000 rows
    // once took 370 ms).
    writeFileSync(input, generateCsv(seed, { rows: 240_000, columns: 4, newlines: 0, crlf: false }));
    const db = world.path(`${name}.db`);
    const args = ['import', input, '--into', db, '--chunk-size', '64KiB', '--idempotency-key', name];
    let kept = 0;
    for (let calls = 1; kept === 0; calls++) {
      assert.ok(calls <= 20, 'a call committed rows and paused');
      const call = await runJson([...args, '--budget', '500ms'], { env });
      assert.equal(call.run.code, 14, call.run.stdout);
      kept = (call.envelope.data as { progress: { done: number } }).progress.done;
    }
    const holder = new Level(db);
    await holder.open();
    try {
      await whileHeld(args, env);
    } finally {
      await holder.close();
    }
    const next = await runJson([...args, '--budget', '1ms'], { env });
    assert.equal(next.run.code, 14, next.run.stdout);
    const shown = (next.envelope.data as { progress: { done: number } }).progress.done;
    assert.ok(shown >= kept, `its answer shows ${shown}, below the ${kept} kept`);
    const whole = await runJson([...args, '--budget', '0'], { env });
    assert.equal(whole.run.code, 0, whole.run.stdout);
    assert.deepEqual(await exported(db, env), records(input), 'the header and every row, once');
  }

  test('a continuation that failed on a locked table, then the identical call: it starts from the '
    + 'kept rows', async () => {
    // The failed job kept its checkpoint (the rows are in the table), and its key: the next job starts from them.
    await lockedThenContinued('kept', 41, async (args, env) => {
      const locked = await runJson([...args, '--budget', '0'], { env });
      assert.equal(locked.envelope.error?.code, 'DATABASE_LOCKED', locked.run.stdout);
    });
  });

  test('a call answered 14 whose work then failed on a locked table: the failure is answered once, then the '
    + 'identical call continues from the kept rows', async () => {
    await lockedThenContinued('unseen', 43, async (args, env) => {
      // Answered at once, before it reaches the table; its work goes on in that process and finds the table held.
      const answered = await runJson([...args, '--budget', '1ms'], { env });
      assert.equal(answered.run.code, 14, answered.run.stdout);
      // The identical call is the one that gets the job's own answer (it waits for it while the table is held).
      const failed = await runJson([...args, '--budget', '0'], { env });
      assert.equal(failed.envelope.error?.code, 'DATABASE_LOCKED', failed.run.stdout);
    });
  });

  test('a missing input, a directory, a missing --key column, another header', async () => {
    const env = freshHome();
    const db = world.path('args.db');
    assert.equal((await runJson(['import', world.path('nope.csv'), '--into', db], { env })).run.code, 5);
    assert.equal((await runJson(['import', fixturePath('csv'), '--into', db], { env })).run.code, 4);
    const key = await runJson(['import', csv('cities'), '--into', db, '--key', 'nope'], { env });
    assert.equal(key.envelope.error!.code, 'KEY_COLUMN_MISSING');
    await runJson(['import', csv('cities'), '--into', db], { env });
    const other = await runJson(['import', csv('ragged-rows'), '--into', db], { env });
    assert.equal(other.run.code, 6);
    assert.equal(other.envelope.error!.code, 'COLUMNS_MISMATCH');
    const noInto = await runJson(['import', csv('cities')], { env });
    assert.equal(noInto.run.code, 2);
  });

  test('export: to ndjson, of a missing table, never to stdout', async () => {
    const env = freshHome();
    const db = world.path('nd.db');
    await runJson(['import', csv('cities'), '--into', db], { env });
    const out = world.path('cities.ndjson');
    const { run } = await runJson(['export', db, '--output', out], { env });
    assert.equal(run.code, 0);
    const first = JSON.parse(readFileSync(out, 'utf8').split('\n')[0]!) as Record<string, string>;
    assert.equal(first['city'], 'Tokyo');
    assert.equal((await runJson(['export', world.path('none.db'), '--output', out], { env })).run.code, 5);
    assert.equal((await runJson(['export', db], { env })).run.code, 2);
  });
});
