import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, copyFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Envelope } from '../../src/contract/envelope.js';
import { cleanEnv, runCli, runJson, type CliRun } from '../helpers/run-cli.js';
import { programPath, STINT_BIN } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';
import { writeBigCsv } from '../helpers/big-csv.js';
import { checkStream } from '../helpers/stream-contract.js';
import { assertSameAnswer } from '../helpers/same-answer.js';

/** A guard for a whole 320 MiB analysis, not a bound on its speed: minutes on a loaded machine. */
const SLOW_GUARD_MS = 900_000;
const world = tempWorld('watch');
const demo = programPath('demo-jobs');
let homes = 0;
/** Each test owns its state folder. */
const freshHome = () => ({ STINT_HOME: world.path(`home-${++homes}`), STINT_TEST_MODE: '1' });

type Progress = { done: number; total?: number; unit?: string };
type Incomplete = { state: string; job_id: string; progress: Progress; continue_command: string };
const incompleteOf = (envelope: Envelope<Record<string, unknown>>) => envelope.data as unknown as Incomplete;

/** A watch in progress: resolves `lines(n)` once stdout holds n whole lines (a fact, not a time). */
interface Watching {
  lines(count: number): Promise<void>;
  kill(signal: NodeJS.Signals): void;
  readonly done: Promise<CliRun>;
}

function startWatch(args: readonly string[], env: Record<string, string>, program = STINT_BIN): Watching {
  const watchEnv = cleanEnv(env);
  const child = spawn(process.execPath, [program, ...args], { env: watchEnv, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiters: { count: number; resolve: () => void; reject: (e: Error) => void }[] = [];
  const check = (ended: boolean) => {
    for (const waiter of [...waiters]) {
      const whole = stdout.split('\n').length - 1;
      if (whole < waiter.count && !ended) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      if (whole >= waiter.count) waiter.resolve();
      else waiter.reject(new Error(`the watch ended after ${whole} lines: ${stdout}${stderr}`));
    }
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    check(false);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.on('error', () => {});
  const guard = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const done = new Promise<CliRun>((resolve) => child.on('close', (code, signal) => {
    clearTimeout(guard);
    check(true);
    resolve({ code, signal, stdout, stderr, program, env: watchEnv });
  }));
  return {
    lines: (count) => new Promise((resolve, reject) => {
      waiters.push({ count, resolve, reject });
      check(false);
    }),
    kill: (signal) => child.kill(signal),
    done,
  };
}

/** A background job of `program args`: the INCOMPLETE answer of a call whose small budget ran out. */
async function backgroundJob(args: readonly string[], env: Record<string, string>, program = STINT_BIN) {
  const first = await runJson([...args, '--budget', '300ms'], { env, program });
  assert.equal(first.run.code, 14, `the work should outlast its budget: ${first.run.stdout.slice(0, 300)}`);
  return incompleteOf(first.envelope);
}

/** Items report where the job stands: its id, progress that never goes back, and the fields a program plans by. */
function checkItems(items: readonly Record<string, unknown>[], jobId: string): void {
  let done = -1;
  for (const item of items) {
    assert.equal(item['job_id'], jobId);
    assert.equal(item['state'], 'running');
    const progress = item['progress'] as Progress;
    assert.ok(progress.done >= done, `progress.done went from ${done} to ${progress.done}`);
    done = progress.done;
    assert.equal(typeof item['elapsed_ms'], 'number');
    if (item['eta_ms'] !== undefined) assert.equal(typeof item['rate_per_s'], 'number', 'an ETA comes from a rate');
  }
}

describe('stint job watch', () => {
  let big: string;
  let broken: string;
  before(() => {
    // Big enough that one worker takes seconds after a 300 ms budget, however fast the machine.
    big = world.path('big.csv');
    writeBigCsv(big, 320 * 1024 * 1024, 5);
    // The same rows, then a quote that never closes: the job fails only when it reaches the end.
    broken = world.path('broken.csv');
    copyFileSync(big, broken);
    appendFileSync(broken, '1,"never closed\n');
  });

  test('SIGINT ends the watch with 130 and CANCELLED; the job goes on, and a second watch follows it to its summary', async () => {
    const env = freshHome();
    const job = await backgroundJob(['analyze', big, '--workers', '1'], env);

    const first = startWatch(['job', 'watch', job.job_id], env);
    await first.lines(1);
    first.kill('SIGINT');
    const interrupted = await first.done;
    assert.equal(interrupted.code, 130, interrupted.stdout + interrupted.stderr);
    const cut = checkStream(interrupted.stdout, interrupted.code);
    assert.ok(cut.items.length >= 1);
    checkItems(cut.items, job.job_id);
    const cancelled = cut.terminal as unknown as Envelope<{ partial: boolean }>;
    assert.equal(cancelled.error!.code, 'CANCELLED');
    assert.equal(cancelled.data!.partial, true);
    assert.equal((cancelled.error!.context as { signal: string }).signal, 'SIGINT');

    // Watching is not running: the job was neither cancelled nor stopped.
    const status = await runJson(['job', 'status', job.job_id], { env });
    // Still running, or already ended on its own (a fast machine): never cancelled, never paused.
    const said = status.run.code === 14 ? incompleteOf(status.envelope).state : status.run.code;
    assert.ok(said === 'running' || said === 0, `the job goes on: ${status.run.stdout.slice(0, 300)}`);

    const whole = await runCli(['job', 'watch', job.job_id], { env, killAfterMs: SLOW_GUARD_MS });
    assert.equal(whole.code, 0, whole.stderr);
    const stream = checkStream(whole.stdout, whole.code);
    checkItems(stream.items, job.job_id);
    const waited = await runJson(['job', 'wait', job.job_id, '--budget', '0'], { env });
    assert.equal(waited.run.code, 0);
    const summary = stream.terminal;
    assert.equal(summary['_summary'], true);
    assert.deepEqual(summary['data'], waited.envelope.data, "the summary carries the job's final response");
    assert.deepEqual((summary['meta'] as { exit_code: number }).exit_code, 0);
  });

  test('a watch from the start sees the progress items, each with where the job stands, then the summary', async () => {
    const env = freshHome();
    const job = await backgroundJob(['analyze', big, '--workers', '1'], env);
    const run = await runCli(['job', 'watch', job.job_id, '--heartbeat-ms', '0'], { env, killAfterMs: SLOW_GUARD_MS });
    const stream = checkStream(run.stdout, run.code);
    assert.ok(stream.items.length >= 1, 'a running job gives at least the item of where it stands');
    checkItems(stream.items, job.job_id);
    assert.equal(stream.heartbeats.length, 0, '--heartbeat-ms 0: no heartbeats');
    // The first item may come before the job's first report ({done: 0}); the last one has where it stands.
    const progress = stream.items.at(-1)!['progress'] as Progress;
    assert.equal(progress.unit, 'bytes');
    assert.ok(progress.total! > 300 * 1024 * 1024);
    const direct = await runJson(['analyze', big, '--budget', '0'], { env: freshHome(), killAfterMs: SLOW_GUARD_MS });
    assertSameAnswer(stream.terminal['data'], direct.envelope.data, 'the same data as the analysis itself');
  });

  test('a job that fails while watched ends the stream with its own error envelope and exit code', async () => {
    const env = freshHome();
    const job = await backgroundJob(['analyze', broken, '--workers', '1'], env);
    const run = await runCli(['job', 'watch', job.job_id], { env, killAfterMs: SLOW_GUARD_MS });
    const stream = checkStream(run.stdout, run.code);
    const waited = await runJson(['job', 'wait', job.job_id, '--budget', '0'], { env });
    assert.notEqual(waited.run.code, 0);
    assert.equal(run.code, waited.run.code, "the watch exits with the job's own code");
    const terminal = stream.terminal as unknown as Envelope<unknown>;
    assert.equal(terminal.error!.code, waited.envelope.error!.code);
    assert.deepEqual(terminal.data, waited.envelope.data);
    assert.equal(terminal.meta['items_emitted'], stream.items.length);
  });

  test('a job cancelled while watched ends the stream with the CANCELLED answer the job stored', async () => {
    const env = freshHome();
    const job = await backgroundJob(['count', '400', '--step-ms', '25'], env, demo);
    const watching = startWatch(['job', 'watch', job.job_id], env, demo);
    await watching.lines(1);
    const cancel = await runCli(['job', 'cancel', job.job_id, '--budget', '20s', '--yes'], { env, program: demo });
    assert.equal(cancel.code, 0, cancel.stdout);
    const run = await watching.done;
    const stream = checkStream(run.stdout, run.code);
    assert.ok(stream.items.length >= 1);
    const stored = await runJson(['job', 'status', job.job_id], { env, program: demo });
    assert.equal(stored.envelope.error!.code, 'CANCELLED');
    assert.equal(run.code, stored.run.code);
    assert.equal((stream.terminal as unknown as Envelope<unknown>).error!.code, 'CANCELLED');
  });

  test('a paused job (nobody runs it) ends the stream at once with its INCOMPLETE answer, exit 14', async () => {
    const env = freshHome();
    const job = await backgroundJob(['write', 'x', '400', '--step-ms', '20'], env, demo);
    assert.equal(job.state, 'paused');
    const run = await runCli(['job', 'watch', job.job_id], { env, program: demo });
    const stream = checkStream(run.stdout, run.code);
    assert.equal(run.code, 14);
    const paused = stream.terminal as unknown as Envelope<Incomplete>;
    assert.equal(paused.data!.state, 'paused');
    assert.equal(paused.data!.continue_command, job.continue_command);
    assert.equal(stream.items.length, 0);
  });

  test('an unknown job answers JOB_NOT_FOUND (5) as a stream; a malformed id is an argument error (2)', async () => {
    const env = freshHome();
    const unknown = await runCli(['job', 'watch', 'analyze-00000000'], { env });
    const stream = checkStream(unknown.stdout, unknown.code);
    assert.equal(unknown.code, 5);
    assert.equal((stream.terminal as unknown as Envelope<unknown>).error!.code, 'JOB_NOT_FOUND');
    const malformed = await runCli(['job', 'watch', 'not a job'], { env });
    assert.equal(checkStream(malformed.stdout, malformed.code).terminal['ok'], false);
    assert.equal(malformed.code, 2);
  });

  test('--no-stream answers one envelope; --format text shows readable lines; the manifest declares the stream', async () => {
    const env = freshHome();
    const job = await backgroundJob(['count', '60', '--step-ms', '20'], env, demo);
    const one = await runJson(['job', 'watch', job.job_id, '--no-stream'], { env, program: demo });
    assert.deepEqual(one.envelope.data, { steps: 60, sum: 1830 });

    // Held at its first step until the watch has shown a line: it cannot end before, however slow the machine.
    const hold = world.path(`hold-${homes}`);
    writeFileSync(hold, '');
    const held = { ...env, DEMO_JOBS_HOLD: hold };
    const next = await backgroundJob(['count', '60', '--step-ms', '20'], held, demo);
    const watching = startWatch(['job', 'watch', next.job_id, '--format', 'text'], held, demo);
    await watching.lines(1);
    rmSync(hold);
    const text = await watching.done;
    assert.equal(text.code, 0, text.stderr);
    const lines = text.stdout.trimEnd().split('\n');
    // The first line comes before the job's first report (it is held): `0 (860ms)`, later `1 step/60 steps (1%)`.
    assert.match(lines[0]!, new RegExp(`^${next.job_id} running: (?:\\d+ steps?/60 steps \\(\\d+%\\)|0 \\([^)]+\\))`));
    assert.ok(!lines.some((line) => line.startsWith('{')), `no JSON for a person: ${text.stdout}`);
    assert.match(text.stdout, /sum: 1830/);

    const manifest = await runJson(['manifest'], { env });
    const commands = manifest.envelope.data!['commands'] as Record<string, Record<string, unknown>>;
    assert.equal(commands['job.watch']!['streaming_default'], true);
    assert.ok('no-stream' in (commands['job.watch']!['flags'] as object));
    assert.equal(commands['analyze']!['streaming_default'], undefined, 'an interruptible command never streams');
  });
});
