import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  chmodSync, closeSync, constants, cpSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, readSync,
  rmSync, statSync, symlinkSync, writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Envelope } from '../../src/contract/envelope.js';
import { envelopeOf, runCli, runJson, runShell, startCli } from '../helpers/run-cli.js';
import { fixturePath, STINT_BIN } from '../helpers/paths.js';
import { assertEnvelope } from '../helpers/schemas.js';
import { tempWorld } from '../helpers/temp-world.js';
import { generateCsv } from '../helpers/csv-generator.js';

const world = tempWorld('export');
let homes = 0;
const freshHome = (extra: Record<string, string> = {}) => ({ STINT_HOME: world.path(`home-${++homes}`), STINT_TEST_MODE: '1', ...extra });
const stint = (...args: string[]) => [process.execPath, STINT_BIN, ...args].map((word) => `'${word}'`).join(' ');
const partialsIn = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.partial'));
type Incomplete = { state: string; job_id: string; progress: { done: number; total?: number; unit?: string }; continue_command: string };

/**
 * Big enough that a 400 ms call cannot export it all on any machine: a call stops ~320 ms after it started, and the
 * rows cost ~3 µs each here (1.2 s), so a machine twice as fast still needs 0.6 s.
 */
const BIG_ROWS = 400_000;
const SMALL_BUDGET = { AGENT_CALL_BUDGET_MS: '400' };
const NO_BUDGET = { AGENT_CALL_BUDGET_MS: '0' };
/** Budgeted calls the budget test makes before it lets the export finish. */
const PAUSES_SHOWN = 6;

let small: string;
let smallCsv: string;
let big: string;
let bigCsv: string;

before(async () => {
  const env = freshHome();
  small = world.path('cities.db');
  assert.equal((await runJson(['import', fixturePath('csv', 'cities.csv'), '--into', small], { env })).run.code, 0);
  big = world.path('big.db');
  writeFileSync(world.path('big.csv'), generateCsv(31, { rows: BIG_ROWS, columns: 6, newlines: 0.03 }));
  const imported = await runJson(['import', world.path('big.csv'), '--into', big, '--budget', '0', '--no-sync'], { env, killAfterMs: 240_000 });
  assert.equal(imported.run.code, 0, imported.run.stdout);
  // The reference: one uninterrupted export of each table.
  smallCsv = world.path('cities-ref.csv');
  bigCsv = world.path('big-ref.csv');
  assert.equal((await runJson(['export', small, '--output', smallCsv, '--budget', '0'], { env })).run.code, 0);
  const reference = await runJson(['export', big, '--output', bigCsv, '--budget', '0'], { env, killAfterMs: 240_000 });
  assert.equal(reference.run.code, 0, reference.run.stdout);
  assert.equal(reference.envelope.data!['rows'], BIG_ROWS);
});

/**
 * Pauses an export at a safe point with SIGTERM once rows are moving (so whatever the machine's speed): 14, paused,
 * with a partial file beside the target. Its continue_command runs with no budget.
 */
async function pausedExport(db: string, output: string, env: Record<string, string>): Promise<Incomplete> {
  const running = startCli(['export', db, '--output', output, '--budget', '0', '--heartbeat-ms', '10'], { env });
  assert.ok(await running.stderrLine(/\] stint export: .* \[[1-9]\d*\/\d+ rows\]/), 'rows are moving');
  running.kill('SIGTERM');
  const run = await running.done;
  assert.equal(run.code, 14, run.stdout);
  const data = envelopeOf(run).data as Incomplete;
  assert.equal(data.state, 'paused');
  return data;
}

describe('export onto what is already there', () => {
  test('a symlink stays a link; the file it names gets the rows and keeps its mode', async () => {
    const dir = world.path('link');
    mkdirSync(dir);
    writeFileSync(join(dir, 'real.csv'), 'old\n');
    chmodSync(join(dir, 'real.csv'), 0o640);
    symlinkSync('real.csv', join(dir, 'link.csv'));
    const { run, envelope } = await runJson(['export', small, '--output', join(dir, 'link.csv')], { env: freshHome() });
    assert.equal(run.code, 0, run.stdout);
    assert.ok(lstatSync(join(dir, 'link.csv')).isSymbolicLink());
    assert.equal(readlinkSync(join(dir, 'link.csv')), 'real.csv');
    assert.equal(readFileSync(join(dir, 'real.csv'), 'utf8'), readFileSync(smallCsv, 'utf8'));
    assert.equal(statSync(join(dir, 'real.csv')).mode & 0o777, 0o640);
    assert.equal(envelope.data!['file'], join(dir, 'real.csv'));
    assert.deepEqual(partialsIn(dir), []);
  });

  test('a dangling symlink is written through: the file it names is created', async () => {
    const dir = world.path('dangling');
    mkdirSync(dir);
    symlinkSync('made.csv', join(dir, 'link.csv'));
    assert.equal((await runJson(['export', small, '--output', join(dir, 'link.csv')], { env: freshHome() })).run.code, 0);
    assert.ok(lstatSync(join(dir, 'link.csv')).isSymbolicLink());
    assert.equal(readFileSync(join(dir, 'made.csv'), 'utf8'), readFileSync(smallCsv, 'utf8'));
  });

  test('a FIFO is refused without being opened (no hang, its reader gets nothing) and stays a FIFO', async () => {
    const fifo = world.path('fifo');
    execFileSync('mkfifo', [fifo]);
    // A reader that does not block: it would see whatever a writer put in.
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const { run, envelope } = await runJson(['export', small, '--output', fifo], { env: freshHome(), killAfterMs: 30_000 });
      assert.equal(run.code, 4);
      assert.equal(envelope.error!.code, 'OUTPUT_NOT_REGULAR_FILE');
      let got = 0;
      try {
        got = readSync(reader, Buffer.alloc(16));
      } catch (error) {
        // A writer still holding the FIFO open with nothing written.
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      }
      assert.equal(got, 0, 'nothing was written into the FIFO');
    } finally {
      closeSync(reader);
    }
    const alone = await runJson(['export', small, '--output', fifo], { env: freshHome(), killAfterMs: 30_000 });
    assert.equal(alone.run.code, 4, 'and with no reader at all');
    assert.ok(lstatSync(fifo).isFIFO());
    assert.deepEqual(partialsIn(world.dir), []);
  });

  test('a device is refused and stays a device; /dev/null is untouched', async (t) => {
    const dir = world.path('dev');
    mkdirSync(dir);
    const node = join(dir, 'null');
    let device = node;
    try {
      // Our own device node (the same as /dev/null): a wrong export could only harm this one.
      execFileSync('mknod', [node, 'c', '1', '3'], { stdio: 'ignore' });
    } catch {
      // No CAP_MKNOD. Without root /dev cannot be written, so /dev/null itself is safe to try; as root
      // it is not tried (a defect could replace it), and the socket below checks the same refusal.
      const root = process.getuid?.() === 0;
      if (root) t.diagnostic('mknod refused as root: no device is tried, only the socket');
      device = root ? '' : '/dev/null';
    }
    if (device) {
      const { run, envelope } = await runJson(['export', small, '--output', device], { env: freshHome() });
      assert.equal(run.code, 4);
      assert.equal(envelope.error!.code, 'OUTPUT_NOT_REGULAR_FILE');
      assert.match(envelope.error!.message, /is a device/);
      assert.ok(lstatSync(device).isCharacterDevice());
    }
    const socketPath = join(dir, 'sock');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      const { run, envelope } = await runJson(['export', small, '--output', socketPath], { env: freshHome() });
      assert.equal(run.code, 4);
      assert.match(envelope.error!.message, /is a socket/);
      assert.ok(lstatSync(socketPath).isSocket());
    } finally {
      server.close();
    }
    assert.deepEqual(partialsIn(dir), []);
    assert.ok(statSync('/dev/null').isCharacterDevice(), '/dev/null is still a device');
  });

  test('a read-only file (no write bit, which root too respects) is refused with 7 and left as it is', async () => {
    const file = world.path('read-only.csv');
    writeFileSync(file, 'keep me\n');
    chmodSync(file, 0o444);
    const { run, envelope } = await runJson(['export', small, '--output', file], { env: freshHome() });
    assert.equal(run.code, 7);
    assert.equal(envelope.error!.code, 'OUTPUT_NOT_WRITABLE');
    assert.equal(readFileSync(file, 'utf8'), 'keep me\n');
    assert.equal(statSync(file).mode & 0o777, 0o444);
    assert.deepEqual(partialsIn(world.dir), []);
  });

  test('a directory is refused with 4; a missing folder is 5; neither is created or changed', async () => {
    const dir = world.path('a-dir');
    mkdirSync(dir);
    const env = freshHome();
    const onDir = await runJson(['export', small, '--output', dir], { env });
    assert.equal(onDir.run.code, 4);
    assert.equal(onDir.envelope.error!.code, 'OUTPUT_NOT_REGULAR_FILE');
    assert.ok(statSync(dir).isDirectory());
    assert.deepEqual(readdirSync(dir), []);
    const slash = await runJson(['export', small, '--output', `${world.path('not-yet')}/`], { env });
    assert.equal(slash.run.code, 4, 'a trailing slash names a folder');
    const missing = await runJson(['export', small, '--output', world.path('no-such', 'out.csv')], { env });
    assert.equal(missing.run.code, 5);
    assert.equal(missing.envelope.error!.code, 'OUTPUT_FOLDER_NOT_FOUND');
    assert.equal(existsSync(world.path('no-such')), false);
  });
});

describe('export --output -', () => {
  test('the rows stream to stdout; the envelope is the last line on stderr; no budget applies', async () => {
    const run = await runCli(['export', big, '--output', '-'], { env: freshHome({ AGENT_CALL_BUDGET_MS: '100' }), killAfterMs: 240_000 });
    assert.equal(run.code, 0, run.stderr.slice(-2000));
    assert.ok(run.stdout === readFileSync(bigCsv, 'utf8'), 'stdout is exactly the file an export writes');
    const envelope = JSON.parse(run.stderr.trimEnd().split('\n').at(-1)!) as Envelope<Record<string, unknown>>;
    assertEnvelope(envelope);
    assert.equal(envelope.meta.exit_code, 0);
    assert.equal(envelope.meta.budget_ms, 0);
    assert.equal(envelope.data!['rows'], BIG_ROWS);
    assert.equal(existsSync('-'), false);
  });

  test('NDJSON too; and an error answers on stderr, leaving stdout empty', async () => {
    const env = freshHome();
    const nd = await runCli(['export', small, '--output', '-', '--output-format', 'ndjson'], { env });
    assert.equal(nd.code, 0);
    assert.equal(JSON.parse(nd.stdout.split('\n')[0]!)['city'], 'Tokyo');
    const missing = await runCli(['export', world.path('none.db'), '--output', '-'], { env });
    assert.equal(missing.code, 5);
    assert.equal(missing.stdout, '');
    assert.equal((JSON.parse(missing.stderr.trimEnd().split('\n').at(-1)!) as Envelope).error!.code, 'TABLE_NOT_FOUND');
    const argError = await runCli(['export', '--output', '-'], { env });
    assert.equal(argError.code, 2);
    assert.equal(argError.stdout, '');
  });
});

describe('export under a budget', () => {
  test('pauses with 14 and a partial file beside the untouched target; continue_command ends in the same file', async () => {
    const env = freshHome(SMALL_BUDGET);
    const dir = world.path('budget');
    mkdirSync(dir);
    const target = join(dir, 'out.csv');
    writeFileSync(target, 'the old file\n');
    let run = await runCli(['export', big, '--output', target], { env });
    const pauses: Incomplete[] = [];
    let seenPartial = 0;
    let still = 0; // calls in a row that kept no new rows: how many calls it takes depends on the machine's speed
    while (run.code === 14) {
      const data = envelopeOf(run).data as Incomplete;
      const before = pauses.at(-1)?.progress.done ?? 0;
      pauses.push(data);
      assert.ok(data.progress.done >= before, 'done never decreases');
      still = data.progress.done > before ? 0 : still + 1;
      assert.ok(still < 20, `the export keeps moving: ${still} calls in a row at ${data.progress.done} rows`);
      assert.equal(readFileSync(target, 'utf8'), 'the old file\n', 'the target is untouched while paused');
      // A call that ran out before its first safe point (a loaded machine) has not begun the file yet.
      if (data.progress.done > 0) {
        assert.equal(data.progress.unit, 'rows');
        assert.equal(data.progress.total, BIG_ROWS);
        assert.deepEqual(partialsIn(dir).map((name) => /^\.out\.csv\.stint-[0-9a-f]{12}\.partial$/.test(name)), [true]);
        seenPartial++;
      }
      // Past a few pauses the point is made: on a loaded machine a 400 ms call moves few rows, and hundreds of
      // calls would outlast the suite. The same continue_command, verbatim, then runs without a budget.
      run = await runShell(data.continue_command, pauses.length < PAUSES_SHOWN ? env : { ...env, ...NO_BUDGET });
    }
    assert.equal(run.code, 0, run.stdout);
    assert.ok(pauses.length >= 1 && seenPartial >= 1, `paused ${pauses.length} times`);
    const done = pauses.map((p) => p.progress.done);
    assert.deepEqual(done, [...done].sort((a, b) => a - b), 'progress never decreases');
    assert.ok(readFileSync(target).equals(readFileSync(bigCsv)), 'identical to an uninterrupted export');
    assert.deepEqual(partialsIn(dir), []);
    assert.deepEqual(readdirSync(join(env.STINT_HOME, 'checkpoints')), []);
  });

  test('job cancel of a paused export removes its partial file; the target stays as it was', async () => {
    const env = freshHome();
    const dir = world.path('cancel');
    mkdirSync(dir);
    const paused = await pausedExport(big, join(dir, 'out.csv'), env);
    assert.equal(partialsIn(dir).length, 1);
    assert.equal((await runJson(['job', 'cancel', paused.job_id, '--yes'], { env })).run.code, 0);
    assert.deepEqual(readdirSync(dir), []);
  });

  test('a table changed since the pause: the export starts over (CHECKPOINT_DISCARDED) and holds the new rows', async () => {
    const env = freshHome();
    const db = world.path('changing.db');
    cpSync(big, db, { recursive: true });
    const target = world.path('changing.csv');
    const paused = await pausedExport(db, target, env);
    const extra = world.path('extra.csv');
    writeFileSync(extra, `${readFileSync(bigCsv, 'utf8').split('\n')[0]}\n1,,2.5,x,3,y\n`);
    assert.equal((await runJson(['import', extra, '--into', db], { env })).run.code, 0);
    const end = await runShell(paused.continue_command, env);
    const envelope = envelopeOf(end);
    assert.equal(end.code, 0, end.stdout);
    assert.deepEqual(envelope.warnings.map((w) => w.code), ['CHECKPOINT_DISCARDED']);
    assert.equal(readFileSync(target, 'utf8'), `${readFileSync(bigCsv, 'utf8')}1,,2.5,x,3,y\n`);
  });

  test('a partial file deleted while paused: the continuation starts over and still writes the whole table', async () => {
    const env = freshHome();
    const dir = world.path('deleted');
    mkdirSync(dir);
    const paused = await pausedExport(big, join(dir, 'out.csv'), env);
    for (const name of partialsIn(dir)) rmSync(join(dir, name));
    const end = await runShell(paused.continue_command, env);
    assert.equal(end.code, 0, end.stdout);
    assert.deepEqual(envelopeOf(end).warnings.map((w) => w.code), ['CHECKPOINT_DISCARDED']);
    assert.ok(readFileSync(join(dir, 'out.csv')).equals(readFileSync(bigCsv)));
  });

  test('kill -9 mid-export: the identical call continues from the checkpoint and writes the same file', async () => {
    // Every safe point saves, so once 10 000 rows show, a checkpoint past the first batch is on disk.
    const env = freshHome({ STINT_CHECKPOINT_INTERVAL_MS: '0' });
    const target = world.path('killed.csv');
    const args = ['export', big, '--output', target, '--budget', '0'];
    const running = startCli([...args, '--heartbeat-ms', '10'], { env });
    const moving = await running.stderrLine(/\] stint export: .* \[([1-9]\d{4,})\/\d+ rows\]/);
    running.kill('SIGKILL');
    const killed = await running.done;
    assert.ok(moving, 'progress showed before the kill');
    assert.equal(killed.signal, 'SIGKILL', 'killed mid-export');
    assert.equal(existsSync(target), false, 'no target before the end');
    // The first heartbeat comes from the restored checkpoint: the continuation starts where the kill left it.
    const end = await runShell(stint(...args, '--heartbeat-ms', '60000'), env);
    assert.equal(end.code, 0, end.stdout);
    const resumedAt = Number(/\] stint export: .* \[(\d+)\//.exec(end.stderr)?.[1]);
    assert.ok(resumedAt > 0, `resumed at row ${resumedAt}`);
    assert.ok(readFileSync(target).equals(readFileSync(bigCsv)));
    assert.deepEqual(partialsIn(world.dir), []);
  });
});

after(() => {
  assert.ok(statSync('/dev/null').isCharacterDevice(), '/dev/null is still a device');
});
