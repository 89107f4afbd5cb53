import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Envelope } from '../../src/contract/envelope.js';
import { cleanEnv, envelopeOf, runCli, runJson, runShell, startCli } from '../helpers/run-cli.js';
import { programPath, STINT_BIN } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';
import { writeBigCsv } from '../helpers/big-csv.js';
import { assertSameAnswer } from '../helpers/same-answer.js';

const world = tempWorld('jobs');
const demo = programPath('demo-jobs');
let homes = 0;
/** Each test owns its state folder. */
const freshHome = (extra: Record<string, string> = {}) => ({ STINT_HOME: world.path(`home-${++homes}`), STINT_TEST_MODE: '1', ...extra });

type Incomplete = { state: string; job_id: string; progress: { done: number; total?: number; unit?: string }; continue_command: string; cancel_command: string };
const incompleteOf = (envelope: Envelope<Record<string, unknown>>) => envelope.data as unknown as Incomplete;


/** The agent loop: run continue_command until the exit is not 14, checking that progress never goes back. */
async function continueUntilDone(first: Envelope<Record<string, unknown>>, env: Record<string, string>): Promise<{ final: Envelope<Record<string, unknown>>; responses: number; dones: number[] }> {
  let envelope = first;
  const dones: number[] = [];
  let responses = 1;
  while (envelope.meta.exit_code === 14) {
    const data = incompleteOf(envelope);
    dones.push(data.progress.done);
    const run = await runShell(data.continue_command, env);
    envelope = envelopeOf(run);
    responses++;
    assert.ok(responses < 200, 'the loop ends');
  }
  for (let i = 1; i < dones.length; i++) assert.ok(dones[i]! >= dones[i - 1]!, `progress.done went from ${dones[i - 1]} to ${dones[i]}`);
  return { final: envelope, responses, dones };
}

describe('the sync call budget', () => {
  let big: string;
  before(() => {
    // Big enough that one worker cannot finish it within the 2 s budget (it reads ~100 MB/s here).
    big = world.path('big.csv');
    writeBigCsv(big, 480 * 1024 * 1024, 3);
  });

  test('AGENT_CALL_BUDGET_MS=2000: `stint analyze big --workers 1 | cat` exits 14 running, and the job completes in the background', async () => {
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '2000' });
    const run = await runShell(`${process.execPath} ${STINT_BIN} analyze ${big} --workers 1 | cat`, env);
    // The pipe reached EOF: cat returned while the job runs on.
    const envelope = envelopeOf({ ...run, code: 14 });
    assert.equal(envelope.meta.exit_code, 14);
    assert.equal(envelope.meta.budget_ms, 2000);
    const data = incompleteOf(envelope);
    assert.equal(data.state, 'running');
    assert.match(data.continue_command, / job wait analyze-[0-9a-f]{8}$/);
    assert.match(data.cancel_command, / job cancel analyze-[0-9a-f]{8} --yes$/);
    assert.equal(envelope.error!.retryable, true);
    assert.equal(data.progress.unit, 'bytes');

    const status = await runCli(['job', 'status', data.job_id], { env });
    // Still running (14 INCOMPLETE, not 3), or already ended (0) on a machine that read the file fast.
    const said = [status.code, envelopeOf(status).error?.code ?? null];
    assert.deepEqual(said, status.code === 0 ? [0, null] : [14, 'INCOMPLETE']);

    const { final } = await continueUntilDone(envelope, { ...env, AGENT_CALL_BUDGET_MS: '1500' });
    assert.equal(final.meta.exit_code, 0);
    // 480 MiB in one call: minutes on a loaded machine, so a guard far above the default minute.
    const whole = await runJson(['analyze', big, '--budget', '0'], { env: freshHome(), killAfterMs: 900_000 });
    assert.equal(whole.envelope.meta.budget_ms, 0);
    assertSameAnswer(final.data, whole.envelope.data, 'continuing ends with the same data as --budget 0');
  });

  test('--budget beats AGENT_CALL_BUDGET_MS; neither gives 30000; work within budget answers normally', async () => {
    const small = world.path('small.csv');
    writeFileSync(small, 'a,b\n1,2\n');
    const flag = await runJson(['analyze', small, '--budget', '5s'], { env: freshHome({ AGENT_CALL_BUDGET_MS: '2000' }) });
    assert.equal(flag.run.code, 0);
    assert.equal(flag.envelope.meta.budget_ms, 5000);
    const variable = await runJson(['analyze', small], { env: freshHome({ AGENT_CALL_BUDGET_MS: '2000' }) });
    assert.equal(variable.envelope.meta.budget_ms, 2000);
    const neither = await runJson(['analyze', small], { env: freshHome() });
    assert.equal(neither.envelope.meta.budget_ms, 30000);
  });
});

describe('running jobs and continuation', () => {
  test('continue_command run verbatim until not 14 ends with the --budget 0 data; progress never decreases', async () => {
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '400' });
    // 10 s of work in the background against calls of 400 ms: several continuations however slow each start is.
    const first = await runJson(['count', '400', '--step-ms', '25'], { program: demo, env });
    assert.equal(first.run.code, 14);
    const { final, dones } = await continueUntilDone(first.envelope, env);
    assert.ok(dones.length >= 2, `continued ${dones.length} times`);
    const whole = await runJson(['count', '400', '--step-ms', '1', '--budget', '0'], { program: demo, env: freshHome() });
    assert.deepEqual(final.data, whole.envelope.data);
    assert.deepEqual(final.data, { steps: 400, sum: 80200 });
  });

  test('job wait answers 14 with a larger progress.done while running, then the job\'s own response', async () => {
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '300' });
    // 10 s of work: still running after the first call, the status and a 500 ms wait, on a loaded machine too.
    const first = await runJson(['count', '500', '--step-ms', '20'], { program: demo, env });
    const id = incompleteOf(first.envelope).job_id;
    const running = await runJson(['job', 'status', id], { program: demo, env });
    assert.equal(running.run.code, 14, 'job status of a running job exits 14, not 3');
    assert.equal(running.envelope.error!.code, 'INCOMPLETE');
    const again = await runJson(['job', 'wait', id, '--budget', '500ms'], { program: demo, env });
    assert.equal(again.run.code, 14);
    assert.ok(incompleteOf(again.envelope).progress.done > incompleteOf(first.envelope).progress.done);
    const end = await runJson(['job', 'wait', id, '--budget', '0'], { program: demo, env });
    assert.equal(end.run.code, 0);
    assert.deepEqual(end.envelope.data, { steps: 500, sum: 125250 });
    // The work's duration, not the wait's: the job ran through the whole earlier wait, and its end is written
    // just after its answer (the exact figure is pinned on the fake clock in lifecycle.test.ts).
    const { startedAt, endedAt } = JSON.parse(readFileSync(`${env.STINT_HOME}/jobs/${id}/status.json`, 'utf8')) as
      { startedAt: number; endedAt: number };
    const { duration_ms: took } = end.envelope.meta;
    assert.ok(took > again.envelope.meta.duration_ms && took <= endedAt - startedAt + 1, `${took} ms`);
    const status = await runJson(['job', 'status', id], { program: demo, env });
    assert.deepEqual(status.envelope, end.envelope, 'an ended job answers its stored response');
  });

  test('a job that ended with nobody waiting: the identical call gets its answer; only the next one runs anew', async () => {
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '300' });
    const first = await runJson(['count', '60', '--step-ms', '20'], { program: demo, env });
    assert.equal(first.run.code, 14, first.run.stdout);
    const id = incompleteOf(first.envelope).job_id;
    // The fact that it ended: its end is written (nobody waits on it meanwhile).
    const endFile = `${env.STINT_HOME}/jobs/${id}/end.json`;
    for (let looks = 0; !existsSync(endFile); looks++) {
      assert.ok(looks < 6_000, 'the job ends');
      await sleep(50);
    }
    const whole = await runJson(['count', '60', '--step-ms', '1', '--budget', '0'], { program: demo, env: freshHome() });
    const again = await runJson(['count', '60', '--step-ms', '20'], { program: demo, env });
    assert.equal(again.run.code, 0, again.run.stdout);
    assert.deepEqual(again.envelope.data, whole.envelope.data, "the finished job's answer, not the work started over");
    assert.deepEqual(readdirSync(`${env.STINT_HOME}/jobs`), [id], 'no new job');
    const next = await runJson(['count', '60', '--step-ms', '20'], { program: demo, env });
    assert.equal(next.run.code, 14, next.run.stdout);
    assert.notEqual(incompleteOf(next.envelope).job_id, id, 'its answer given, the key is free: a new run');
    await runShell(incompleteOf(next.envelope).cancel_command, env);
  });

  test('the identical invocation attaches to the running job; 10 identical calls at once start one job', async () => {
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '300' });
    // Long enough (8 s) to be running still when the repeat comes, however loaded the machine.
    const calls = await Promise.all(Array.from({ length: 10 }, () => runJson(['count', '400', '--step-ms', '20'], { program: demo, env })));
    const ids = new Set(calls.map((c) => incompleteOf(c.envelope).job_id));
    assert.equal(ids.size, 1, `one job id: ${[...ids].join(', ')}`);
    assert.equal(readdirSync(`${env.STINT_HOME}/jobs`).length, 1, 'one job folder');
    const repeat = await runJson(['count', '400', '--step-ms', '20'], { program: demo, env });
    assert.equal(incompleteOf(repeat.envelope).job_id, [...ids][0]);
    await runShell(incompleteOf(repeat.envelope).cancel_command, env);
  });

  test('kill -TERM of the caller\'s process group after the response leaves the job running', async () => {
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '300' });
    const caller = spawn(process.execPath, [demo, 'count', '40', '--step-ms', '25'], { env: cleanEnv(env), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    caller.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    await new Promise((resolve) => caller.on('close', resolve));
    const id = (JSON.parse(stdout) as { data: Incomplete }).data.job_id;
    try {
      process.kill(-caller.pid!, 'SIGTERM');
    } catch {
      // the group may already be empty but for the job, which has its own
    }
    const end = await runJson(['job', 'wait', id, '--budget', '0'], { program: demo, env });
    assert.equal(end.run.code, 0, 'the job survived and completed');
  });

  test('kill -9 on the supervisor: job wait exits 1 JOB_LOST; the identical invocation resumes from the checkpoint', async () => {
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '300', STINT_CHECKPOINT_INTERVAL_MS: '0' });
    const first = await runJson(['count', '80', '--step-ms', '20'], { program: demo, env });
    const id = incompleteOf(first.envelope).job_id;
    const { readFileSync } = await import('node:fs');
    // Wait for the fact: the supervisor has said it runs the job.
    for (let waited = 0; !readFileSync(`${env.STINT_HOME}/jobs/${id}/log`, 'utf8').includes('runs job'); waited += 20) {
      assert.ok(waited < 20_000, 'the supervisor started');
      await sleep(20);
    }
    const status = JSON.parse(readFileSync(`${env.STINT_HOME}/jobs/${id}/status.json`, 'utf8')) as { pid: number };
    process.kill(status.pid, 'SIGKILL');
    const lost = await runJson(['job', 'wait', id], { program: demo, env });
    assert.equal(lost.run.code, 1);
    assert.equal(lost.envelope.error!.code, 'JOB_LOST');
    assert.match(lost.envelope.error!.detail ?? '', /supervisor: pid \d+ runs job/);
    const resumed = await runJson(['count', '80', '--step-ms', '20'], { program: demo, env });
    const data = incompleteOf(resumed.envelope);
    assert.notEqual(data.job_id, id, 'a new job');
    assert.ok(data.progress.done >= incompleteOf(first.envelope).progress.done, 'resumed, not restarted');
    const { final } = await continueUntilDone(resumed.envelope, env);
    assert.deepEqual(final.data, { steps: 80, sum: 3240 });
  });

  test('SIGTERM to a supervisor stops it at a safe point and leaves the job resumable', async () => {
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '300' });
    const first = await runJson(['count', '200', '--step-ms', '25'], { program: demo, env });
    const id = incompleteOf(first.envelope).job_id;
    const { readFileSync } = await import('node:fs');
    const log = () => readFileSync(`${env.STINT_HOME}/jobs/${id}/log`, 'utf8');
    const until = async (fact: () => boolean) => {
      for (let waited = 0; !fact(); waited += 20) {
        assert.ok(waited < 20_000, `waited 20 s for: ${log()}`);
        await sleep(20);
      }
    };
    await until(() => log().includes('runs job'));
    const { pid } = JSON.parse(readFileSync(`${env.STINT_HOME}/jobs/${id}/status.json`, 'utf8')) as { pid: number };
    process.kill(pid, 'SIGTERM');
    await until(() => /paused at a safe point|ended with exit/.test(log()));
    assert.match(log(), /paused at a safe point/);
    const paused = await runJson(['job', 'status', id], { program: demo, env });
    assert.equal(paused.run.code, 14);
    const data = incompleteOf(paused.envelope);
    assert.equal(data.state, 'paused');
    assert.ok(data.progress.done >= incompleteOf(first.envelope).progress.done);
    const { final } = await continueUntilDone(paused.envelope, { ...env, AGENT_CALL_BUDGET_MS: '2000' });
    assert.deepEqual(final.data, { steps: 200, sum: 20100 });
  });

  test('a handler that stops reporting progress ends with exit 10 STALLED', async () => {
    // Every step saved: what the stalled answer reports is what was kept, so it is all five.
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '300', STINT_CHECKPOINT_INTERVAL_MS: '0' });
    const first = await runJson(['hang', '5'], { program: demo, env });
    assert.equal(first.run.code, 14);
    const end = await runJson(['job', 'wait', incompleteOf(first.envelope).job_id, '--budget', '0'], { program: demo, env, killAfterMs: 30_000 });
    assert.equal(end.run.code, 10);
    assert.equal(end.envelope.error!.code, 'STALLED');
    assert.equal((end.envelope.data as { cause?: string })['cause'], 'no_progress');
    // No budget: the resumed handler restores its checkpoint, hangs again and is stopped by the idle watchdog,
    // answering how far it got whatever the machine's speed.
    const again = await runJson(['hang', '5', '--budget', '0'], { program: demo, env, killAfterMs: 30_000 });
    assert.equal(again.envelope.error!.code, 'STALLED');
    const gap = (again.envelope.data as { unresolved: { context: { progress: { done: number } } }[] }).unresolved[0]!;
    assert.equal(gap.context.progress.done, 5, 'a stalled job keeps its checkpoint: the identical call resumes it');
  });

  test('job cancel exits 0, the job stops, and the identical invocation starts from the beginning', async () => {
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '300' });
    const first = await runJson(['count', '200', '--step-ms', '20'], { program: demo, env });
    const data = incompleteOf(first.envelope);
    // The cancel waits for the job to stop at a safe point: a budget that is a guard, not a race with a loaded machine.
    const cancel = await runShell(data.cancel_command, { ...env, AGENT_CALL_BUDGET_MS: '20000' });
    assert.equal(cancel.code, 0, cancel.stdout);
    assert.equal((envelopeOf(cancel).data as { state: string }).state, 'cancelled');
    const after = await runJson(['job', 'status', data.job_id], { program: demo, env });
    assert.equal(after.envelope.error!.code, 'CANCELLED');
    assert.deepEqual(readdirSync(`${env.STINT_HOME}/checkpoints`), [], 'the checkpoint is discarded');
    const again = await runJson(['count', '200', '--step-ms', '20', '--budget', '200ms'], { program: demo, env });
    const restarted = incompleteOf(again.envelope);
    assert.notEqual(restarted.job_id, data.job_id);
    assert.ok(restarted.progress.done < data.progress.done + 5, 'started from the beginning');
    await runShell(restarted.cancel_command, env);
  });

  test('work that cannot checkpoint runs in the background from the start', async () => {
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '300' });
    const first = await runJson(['bg', '30', '--step-ms', '20'], { program: demo, env });
    assert.equal(first.run.code, 14);
    assert.equal(incompleteOf(first.envelope).state, 'running');
    const { final } = await continueUntilDone(first.envelope, env);
    assert.deepEqual(final.data, { steps: 30, sum: 465 });
  });
  // --timeout (10 TIMEOUT, the partial outcome, the checkpoint discarded) is shown in process on a fake clock:
  // test/unit/runtime/lifecycle.test.ts.
});

describe('the client loop', () => {
  test('continueUntilDone drives a real job to its end through the shell', async () => {
    const { continueUntilDone } = await import('../../src/client/continuation-loop.js');
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '300' });
    const first = await runJson(['count', '30', '--step-ms', '25'], { program: demo, env });
    const result = await continueUntilDone(first.envelope, { run: async (line) => envelopeOf(await runShell(line, env)) });
    assert.equal(result.status, 'done');
    assert.deepEqual(result.response.data, { steps: 30, sum: 465 });
    assert.ok(result.continuations >= 1);
  });

  test('a job that stops moving is cancelled after three flat continuations, even one stuck between safe points', async () => {
    const { continueUntilDone } = await import('../../src/client/continuation-loop.js');
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '200' });
    // A first step of ten minutes: alive, reporting nothing, never at a safe point.
    const first = await runJson(['count', '5', '--step-ms', '600000'], { program: demo, env });
    const result = await continueUntilDone(first.envelope, { run: async (line) => envelopeOf(await runShell(line, env)) });
    assert.equal(result.status, 'incomplete');
    assert.equal(result.limit, 'completion');
    assert.equal(result.continuations, 3);
    const id = (first.envelope.data as { job_id: string }).job_id;
    const end = await runJson(['job', 'wait', id, '--budget', '0'], { program: demo, env, killAfterMs: 30_000 });
    assert.equal(end.envelope.error!.code, 'CANCELLED', 'the loop ran cancel_command, which ends even a stuck job');
  });
});

describe('paused writers', () => {
  test('continue_command carries --idempotency-key, retryable is false, and quoting survives any file name', async () => {
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '300' });
    const name = `it's a "file" with $HOME, \\ and spaces`;
    const first = await runJson(['write', name, '40', '--step-ms', '20'], { program: demo, env });
    assert.equal(first.run.code, 14);
    const data = incompleteOf(first.envelope);
    assert.equal(data.state, 'paused');
    assert.equal(first.envelope.error!.retryable, false);
    assert.match(data.continue_command, / --idempotency-key auto-[0-9a-f]{16}$/);
    const { final, responses } = await continueUntilDone(first.envelope, env);
    assert.ok(responses >= 3, 'paused more than once');
    const ids = readdirSync(`${env.STINT_HOME}/jobs`);
    assert.deepEqual(ids, [data.job_id], 'every continuation of a paused job is the same job');
    assert.equal(final.meta.exit_code, 0);
    const result = final.data as { name: string; sum: number; key: string };
    assert.equal(result.name, name, 'the shell gave back the exact argument');
    assert.equal(result.sum, 820);
    assert.match(result.key, /^auto-/);
  });

  test('SIGTERM before the budget: a writer pauses at its next safe point and answers 14', async () => {
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '20000' });
    const running = startCli(['write', 'x', '100', '--step-ms', '20', '--heartbeat-ms', '50'], { program: demo, env });
    assert.ok(await running.stderrLine(/\] demo-jobs write: [1-9]/));
    running.kill('SIGTERM');
    const run = await running.done;
    assert.equal(run.code, 14);
    assert.equal(incompleteOf(envelopeOf(run)).state, 'paused');
  });

  test('SIGTERM before the budget: a detachable command hands off and answers 14 running', async () => {
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '20000' });
    const running = startCli(['count', '60', '--step-ms', '20', '--heartbeat-ms', '50'], { program: demo, env });
    assert.ok(await running.stderrLine(/\] demo-jobs count: [1-9]/));
    running.kill('SIGTERM');
    const run = await running.done;
    assert.equal(run.code, 14);
    const data = incompleteOf(envelopeOf(run));
    assert.equal(data.state, 'running');
    const end = await runJson(['job', 'wait', data.job_id, '--budget', '0'], { program: demo, env });
    assert.deepEqual(end.envelope.data, { steps: 60, sum: 1830 });
  });

  test('SIGINT stops at a safe point: exit 130 CANCELLED with the partial outcome', async () => {
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '20000' });
    const running = startCli(['count', '100', '--step-ms', '20', '--heartbeat-ms', '50'], { program: demo, env });
    assert.ok(await running.stderrLine(/\] demo-jobs count: [1-9]/));
    running.kill('SIGINT');
    const run = await running.done;
    assert.equal(run.code, 130);
    const envelope = envelopeOf(run);
    assert.equal(envelope.error!.code, 'CANCELLED');
    const outcome = envelope.data as { coverage: string; cause: string; established: unknown[]; unresolved: unknown[] };
    assert.equal(outcome.coverage, 'partial');
    assert.equal(outcome.cause, 'cancelled');
  });
});

describe('a program of another name', () => {
  test('answers 14 naming itself (bare name when on PATH), and the command works verbatim', async () => {
    const bin = world.path('bin');
    mkdirSync(bin, { recursive: true });
    const link = `${bin}/demo-jobs`;
    if (!existsSync(link)) symlinkSync(demo, link);
    chmodSync(demo, 0o755);
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '300', PATH: `${bin}:${process.env['PATH']}` });
    const run = await runShell('demo-jobs count 30 --step-ms 25', env);
    const envelope = envelopeOf(run);
    const data = incompleteOf(envelope);
    assert.match(data.continue_command, /^demo-jobs job wait count-[0-9a-f]{8}$/);
    const { final } = await continueUntilDone(envelope, env);
    assert.deepEqual(final.data, { steps: 30, sum: 465 });
  });
});

/** Runs a command line under `script`, in a real pseudo-terminal, and returns what the terminal showed. */
function inTerminal(line: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', line, '/dev/null'], { env: cleanEnv({ ...env, TERM: 'xterm' }), stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (text += c));
    child.on('error', reject);
    child.on('close', () => resolve(text));
  });
}

describe('people at a terminal', () => {
  test('a progress bar with rate and ETA on stderr, and no budget without --budget', async () => {
    const path = world.path('bar.csv');
    writeBigCsv(path, 40 * 1024 * 1024, 9);
    // The bar shows kept progress: a checkpoint at every chunk gives it frames between 0 and 100 % on any machine.
    const everyChunk = freshHome({ STINT_CHECKPOINT_INTERVAL_MS: '0' });
    const out = await inTerminal(`${process.execPath} ${STINT_BIN} analyze ${path} --chunk-size 256KiB --workers 1`, everyChunk);
    assert.match(out, /stint analyze \[#*-*\] \d+% [\d.]+( KiB| MiB)?\/[\d.]+ MiB [\d.]+ (KiB|MiB)\/s ETA/);
    assert.match(out, /rows, \d+ columns/, 'a terminal gets the text table');
    const json = await inTerminal(`${process.execPath} ${STINT_BIN} analyze ${path} --format json`, freshHome());
    const envelope = JSON.parse(json.slice(json.indexOf('{"ok"')).split(/\r?\n/)[0]!) as { meta: Record<string, unknown> };
    assert.equal(envelope.meta['exit_code'], 0);
    assert.equal('budget_ms' in envelope.meta, false, 'no budget applies at a terminal without --budget');
  });
});

describe('stdin', () => {
  test('a command that declares stdin has it spooled before the job starts; the background job reads the spool', async () => {
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '300' });
    const numbers = Array.from({ length: 40 }, (_, k) => String(k * 3)).join('\n');
    // 40 steps of 250 ms: the job still runs when the identical call comes, however slowly that call starts.
    const first = await runJson(['sum', '--step-ms', '250'], { program: demo, env, stdin: numbers });
    assert.equal(first.run.code, 14);
    const data = incompleteOf(first.envelope);
    assert.equal(data.state, 'running');
    const job = readdirSync(`${env.STINT_HOME}/jobs/${data.job_id}`);
    assert.ok(job.includes('stdin'), 'the spool lives in the job folder');
    const same = await runJson(['sum', '--step-ms', '250'], { program: demo, env, stdin: numbers });
    assert.equal(incompleteOf(same.envelope).job_id, data.job_id, 'the same input attaches');
    const other = await runJson(['sum', '--step-ms', '20', '--budget', '100ms'], { program: demo, env, stdin: '1\n2\n' });
    assert.notEqual((other.envelope.data as { job_id?: string }).job_id, data.job_id, 'other input, another job');
    const end = await runJson(['job', 'wait', data.job_id, '--budget', '0'], { program: demo, env });
    assert.deepEqual(end.envelope.data, { count: 40, sum: 2340 });
    assert.deepEqual(readdirSync(`${env.STINT_HOME}/spool`), [], 'no spool is left behind');
  });

  test('a terminal on stdin is no input: exit 4 INPUT_REQUIRED at once, no prompt, no hang', async () => {
    const out = await inTerminal(`${process.execPath} ${demo} sum --format json`, freshHome());
    const envelope = JSON.parse(out.slice(out.indexOf('{"ok"')).split(/\r?\n/)[0]!) as { error: { code: string }; meta: { exit_code: number } };
    assert.equal(envelope.meta.exit_code, 4);
    assert.equal(envelope.error.code, 'INPUT_REQUIRED');
  });
});

describe('job commands: bad ids', () => {
  for (const [id, code] of [['../etc/passwd', 2], ['a;rm -rf', 2], ['count.1', 2], ['count-00000000', 5]] as const) {
    test(`job wait ${id} exits ${code}`, async () => {
      const { run } = await runJson(['job', 'wait', id], { program: demo, env: freshHome() });
      assert.equal(run.code, code);
    });
  }
});

describe("a writer's repeated --idempotency-key, answered by the framework", () => {
  test('the continue_command of a finished run, run again: the first answer, effect noop, no new run', async () => {
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '300' });
    const first = await runJson(['write', 'a', '40', '--step-ms', '20'], { program: demo, env });
    assert.equal(first.run.code, 14, first.run.stdout);
    const { final } = await continueUntilDone(first.envelope, env);
    assert.equal(final.meta.exit_code, 0);
    const again = envelopeOf(await runShell(incompleteOf(first.envelope).continue_command, env));
    assert.equal(again.meta.exit_code, 0);
    assert.equal(again.meta['idempotency_hit'], true);
    assert.deepEqual(again.data, { ...(final.data as object), effect: 'noop' });
    assert.equal(readdirSync(`${env.STINT_HOME}/jobs`).length, 1, 'no second job');
  });

  test('the same key with other arguments: 6 IDEMPOTENCY_KEY_REUSED; no key: each call runs', async () => {
    const env = freshHome();
    const keyed = (name: string) => runJson(['write', name, '3', '--idempotency-key', 'k-1'], { program: demo, env });
    const first = await keyed('a');
    assert.equal(first.run.code, 0, first.run.stdout);
    assert.equal(first.envelope.meta['idempotency_hit'], undefined);
    const other = await keyed('b');
    assert.equal(other.run.code, 6, other.run.stdout);
    assert.equal(other.envelope.error!.code, 'IDEMPOTENCY_KEY_REUSED');
    for (let round = 0; round < 2; round++) {
      const bare = await runJson(['write', 'a', '3'], { program: demo, env });
      assert.equal(bare.run.code, 0);
      assert.equal(bare.envelope.meta['idempotency_hit'], undefined, 'a derived key never replays');
    }
  });
});
