// An import interrupted every way a person or a system can, then run again as
// the identical command: every row ends up in the table exactly once. And a
// rerun recognises its input by content, not by size and timestamp.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { envelopeOf, runJson, runShell, startCli, type CliRun } from '../helpers/run-cli.js';
import { tempWorld } from '../helpers/temp-world.js';
import { csvFileRecords, tableRecords } from '../helpers/table-rows.js';
import { generateCsv } from '../helpers/csv-generator.js';

const world = tempWorld('import-lifecycle');
let homes = 0;
const freshHome = () => ({ STINT_HOME: world.path(`home-${++homes}`), STINT_TEST_MODE: '1' });
const records = csvFileRecords;
const ROWS = 200_000;
const HEARTBEAT = /\] stint import: .* bytes, ([1-9]\d*) rows?\]/;

const exported = (db: string, env: Record<string, string>) => tableRecords(db, world.path(`export-${++homes}.csv`), env);

/** Runs the identical command with no budget, then follows continue_command while it answers 14. */
async function finish(args: string[], env: Record<string, string>): Promise<CliRun> {
  let run = (await runJson([...args, '--budget', '0'], { env })).run;
  for (let calls = 0; run.code === 14 && calls < 50; calls++) {
    run = await runShell((envelopeOf(run).data as { continue_command: string }).continue_command, env);
  }
  return run;
}

/** Waits until a file exists (a fact, not a time); false if it never does within the guard. */
async function appears(path: string, guardMs = 60_000): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < guardMs; await sleep(20)) if (existsSync(path)) return true;
  return false;
}

/** The one job in this home (the import's). */
function onlyJob(home: string): string {
  const jobs = readdirSync(join(home, 'jobs'));
  assert.equal(jobs.length, 1, `jobs: ${jobs.join(', ')}`);
  return jobs[0]!;
}

describe('interrupted, then the identical command: every row exactly once', () => {
  let big: string;
  let expected: string[][];
  before(() => {
    big = world.path('big.csv');
    writeFileSync(big, generateCsv(31, { rows: ROWS, columns: 5, newlines: 0.02 }));
    expected = records(big);
  });

  for (const withKey of [false, true]) {
    const keyArgs = withKey ? ['--idempotency-key', 'nightly'] : [];
    const label = withKey ? ' (with --idempotency-key)' : '';

    test(`Ctrl-C (SIGINT)${label}: 130 with continue_command, then the identical command completes`, async () => {
      const env = freshHome();
      const args = ['import', big, '--into', world.path(`int-${homes}.db`), '--chunk-size', '64KiB', ...keyArgs];
      const running = startCli([...args, '--budget', '0', '--heartbeat-ms', '10'], { env });
      assert.ok(await running.stderrLine(HEARTBEAT), 'the import made progress');
      running.kill('SIGINT');
      const stopped = await running.done;
      assert.equal(stopped.code, 130, stopped.stdout);
      const envelope = envelopeOf(stopped);
      assert.equal(envelope.error!.code, 'CANCELLED');
      const data = envelope.data as { partial: boolean; continue_command: string; rows_imported: number };
      assert.equal(data.partial, true);
      assert.match(data.continue_command, /import/);
      assert.ok(data.rows_imported > 0 && data.rows_imported < ROWS, `imported ${data.rows_imported}`);
      const end = await finish(args, env);
      assert.equal(end.code, 0, end.stdout);
      assert.deepEqual(await exported(args[3]!, env), expected);
    });

    test(`SIGTERM${label}: 14 paused, then the identical command completes`, async () => {
      const env = freshHome();
      const args = ['import', big, '--into', world.path(`term-${homes}.db`), '--chunk-size', '64KiB', ...keyArgs];
      const running = startCli([...args, '--budget', '0', '--heartbeat-ms', '10'], { env });
      assert.ok(await running.stderrLine(HEARTBEAT));
      running.kill('SIGTERM');
      const stopped = await running.done;
      assert.equal(stopped.code, 14, stopped.stdout);
      const end = await finish(args, env);
      assert.equal(end.code, 0, end.stdout);
      assert.deepEqual(await exported(args[3]!, env), expected);
    });

    test(`job cancel${label}: the job ends cancelled, then the identical command completes`, async () => {
      const env = freshHome();
      const args = ['import', big, '--into', world.path(`cancel-${homes}.db`), '--chunk-size', '64KiB', ...keyArgs];
      const running = startCli([...args, '--budget', '0', '--heartbeat-ms', '10'], { env });
      assert.ok(await running.stderrLine(HEARTBEAT));
      // Frozen while the cancel is asked for, so the import cannot finish first whatever the machine's speed.
      process.kill(running.pid, 'SIGSTOP');
      const id = onlyJob(env.STINT_HOME);
      const cancelling = startCli(['job', 'cancel', id, '--yes', '--budget', '0'], { env });
      assert.ok(await appears(join(env.STINT_HOME, 'jobs', id, 'cancel')), 'job cancel asked the job to stop');
      process.kill(running.pid, 'SIGCONT');
      const cancel = await cancelling.done;
      assert.equal(cancel.code, 0, cancel.stdout);
      const stopped = await running.done;
      assert.equal(envelopeOf(stopped).error?.code, 'CANCELLED', stopped.stdout);
      const end = await finish(args, env);
      assert.equal(end.code, 0, end.stdout);
      assert.deepEqual(await exported(args[3]!, env), expected);
    });
  }
});

test('a file whose name starts with a dash, after --: paused, its continue_command puts the key before --', async () => {
  const env = freshHome();
  const dir = world.path('dash');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, '-rows.csv'), generateCsv(41, { rows: ROWS, columns: 4 }));
  const running = startCli(['import', '--into', 'dash.db', '--chunk-size', '64KiB', '--budget', '0', '--heartbeat-ms', '10', '--', '-rows.csv'], { env, cwd: dir });
  assert.ok(await running.stderrLine(HEARTBEAT));
  running.kill('SIGTERM');
  const paused = await running.done;
  assert.equal(paused.code, 14, paused.stdout);
  const line = (envelopeOf(paused).data as { continue_command: string }).continue_command;
  assert.match(line, /--idempotency-key auto-[0-9a-f]+ -- -rows\.csv$/);
  // The default budget (30 s) is far more than the rest of this import needs.
  const end = await runShell(`cd ${dir} && ${line}`, env);
  assert.equal(end.code, 0, end.stdout);
  assert.deepEqual(await exported(join(dir, 'dash.db'), env), records(join(dir, '-rows.csv')));
});

describe('a rerun knows its input by content', () => {
  const body = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => `${from + k},v${from + k}\n`).join('');

  for (const keyArgs of [[], ['--idempotency-key', 'k']]) {
    const label = keyArgs.length ? ' (explicit key)' : ' (derived key)';

    test(`the same bytes under a new timestamp and inode add no rows${label}`, async () => {
      const env = freshHome();
      const file = world.path(`same-${homes}.csv`);
      const db = world.path(`same-${homes}.db`);
      writeFileSync(file, `id,v\n${body(0, 500)}`);
      assert.equal((await runJson(['import', file, '--into', db, ...keyArgs], { env })).run.code, 0);
      const copy = `${file}.bak`;
      copyFileSync(file, copy);
      rmSync(file);
      copyFileSync(copy, file);
      utimesSync(file, new Date(), new Date(Date.now() + 60_000));
      const again = await runJson(['import', file, '--into', db, ...keyArgs], { env });
      assert.equal(again.run.code, 0, again.run.stdout);
      assert.equal(again.envelope.data!['effect'], 'noop');
      assert.equal((await exported(db, env)).length, 501);
    });

    test(`a grown file adds only its new rows${label}`, async () => {
      const env = freshHome();
      const file = world.path(`grown-${homes}.csv`);
      const db = world.path(`grown-${homes}.db`);
      writeFileSync(file, `id,v\n${body(0, 300)}`);
      assert.equal((await runJson(['import', file, '--into', db, ...keyArgs], { env })).run.code, 0);
      appendFileSync(file, body(300, 450));
      const again = await runJson(['import', file, '--into', db, ...keyArgs], { env });
      assert.equal(again.run.code, 0, again.run.stdout);
      assert.equal(again.envelope.data!['effect'], 'written');
      assert.equal(again.envelope.data!['rows_imported'], 450);
      assert.deepEqual(await exported(db, env), records(file));
    });
  }

  test('a file whose last row had no newline and then grows on a new line adds the new rows only', async () => {
    const env = freshHome();
    const file = world.path('no-eol.csv');
    const db = world.path('no-eol.db');
    writeFileSync(file, 'id,v\n1,a\n2,b');
    assert.equal((await runJson(['import', file, '--into', db], { env })).run.code, 0);
    appendFileSync(file, '\n3,c\n');
    assert.equal((await runJson(['import', file, '--into', db], { env })).run.code, 0);
    assert.deepEqual(await exported(db, env), [['id', 'v'], ['1', 'a'], ['2', 'b'], ['3', 'c']]);
  });

  test('a last row extended in place is INPUT_CHANGED (exit 6), nothing written', async () => {
    const env = freshHome();
    const file = world.path('extended.csv');
    const db = world.path('extended.db');
    writeFileSync(file, 'id,v\n1,a\n2,b');
    assert.equal((await runJson(['import', file, '--into', db], { env })).run.code, 0);
    appendFileSync(file, 'ee\n3,c\n');
    const again = await runJson(['import', file, '--into', db], { env });
    assert.equal(again.run.code, 6);
    assert.equal(again.envelope.error!.code, 'INPUT_CHANGED');
    assert.equal((await exported(db, env)).length, 3);
  });

  test('other bytes under the derived key are a new run: imported once more, as a new file', async () => {
    const env = freshHome();
    const file = world.path('replaced.csv');
    const db = world.path('replaced.db');
    writeFileSync(file, `id,v\n${body(0, 100)}`);
    assert.equal((await runJson(['import', file, '--into', db], { env })).run.code, 0);
    writeFileSync(file, `id,v\n${body(1000, 1050)}`);
    const again = await runJson(['import', file, '--into', db], { env });
    assert.equal(again.run.code, 0, again.run.stdout);
    assert.equal(again.envelope.data!['rows_imported'], 50);
    assert.equal((await exported(db, env)).length, 151);
    // ...and that new file, run again, is recognised in its turn.
    utimesSync(file, new Date(), new Date(Date.now() + 120_000));
    assert.equal((await runJson(['import', file, '--into', db], { env })).envelope.data!['effect'], 'noop');
  });

  test('a paused import whose file changed refuses to mix two files (INPUT_CHANGED); touched only, it goes on', async () => {
    const env = freshHome();
    const file = world.path('paused.csv');
    const db = world.path('paused.db');
    writeFileSync(file, generateCsv(5, { rows: ROWS, columns: 4 }));
    const args = ['import', file, '--into', db, '--chunk-size', '64KiB'];
    const running = startCli([...args, '--budget', '0', '--heartbeat-ms', '10'], { env });
    assert.ok(await running.stderrLine(HEARTBEAT));
    running.kill('SIGTERM');
    assert.equal((await running.done).code, 14);
    utimesSync(file, new Date(), new Date(Date.now() + 60_000));
    const original = readFileSync(file);
    // The first data row twice: every byte after the header moves.
    const first = original.indexOf(0x0a) + 1;
    const second = original.indexOf(0x0a, first) + 1;
    writeFileSync(file, Buffer.concat([original.subarray(0, second), original.subarray(first)]));
    const refused = await runJson([...args, '--budget', '0'], { env });
    assert.equal(refused.run.code, 6);
    assert.equal(refused.envelope.error!.code, 'INPUT_CHANGED');
    writeFileSync(file, original);
    const end = await finish(args, env);
    assert.equal(end.code, 0, end.stdout);
    assert.deepEqual(await exported(db, env), records(file));
  });
});
