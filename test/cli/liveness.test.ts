import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Envelope } from '../../src/contract/envelope.js';
import { identityOf, isAlive, type ProcessIdentity } from '../../src/runtime/jobs/process-identity.js';
import { envelopeOf, runJson, runShell } from '../helpers/run-cli.js';
import { programPath } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';

// Liveness judged from outside: whoever looks at a job (job wait, job
// status, the identical call) tells a frozen process (STALLED) and a gone
// or impostor one (JOB_LOST) from a running one, and nothing waits forever.

const world = tempWorld('liveness');
const demo = programPath('demo-jobs');
let homes = 0;
const freshHome = (extra: Record<string, string> = {}) => ({ STINT_HOME: world.path(`home-${++homes}`), STINT_TEST_MODE: '1', ...extra });
type Home = ReturnType<typeof freshHome>;
/** A hung call fails its test instead of the suite. */
const GUARD = { killAfterMs: 90_000 };

type Response = Envelope<Record<string, unknown>>;
type Incomplete = { state: string; job_id: string; progress: { done: number }; continue_command: string };
const incompleteOf = (envelope: Envelope<Record<string, unknown>>) => envelope.data as unknown as Incomplete;
const jobFile = (env: { STINT_HOME: string }, id: string, name: string) => `${env.STINT_HOME}/jobs/${id}/${name}`;

/** Processes a test stopped or started: continued and killed at the end, whatever happened. */
const leftovers: ProcessIdentity[] = [];
const sleepers: ChildProcess[] = [];
after(() => {
  for (const identity of leftovers) {
    if (!isAlive(identity)) continue;
    process.kill(identity.pid, 'SIGCONT');
    process.kill(identity.pid, 'SIGKILL');
  }
  for (const child of sleepers) child.kill('SIGKILL');
});

/** A live process that has nothing to do with any job: what a reused pid names. */
function unrelatedProcess(): ProcessIdentity {
  const child = spawn('sleep', ['1000'], { stdio: 'ignore' });
  sleepers.push(child);
  return identityOf(child.pid!);
}

async function until(what: string, fact: () => boolean): Promise<void> {
  for (let waited = 0; !fact(); waited += 20) {
    assert.ok(waited < 30_000, `waited 30 s for: ${what}`);
    await sleep(20);
  }
}

/** A continuation took the work on from where it was (14 with progress not behind, or the end). */
/**
 * Why a continuation of the paused writer pauses again: its 80 steps sleep 20 ms each, a 400 ms budget
 * covers at most 20 of them, so at least 60 (1.2 s) are left for the continuation's own 400 ms, on any machine.
 */
const LEFT_OVER_BUDGET = 'the work left is longer than the continuation\'s budget';

function assertResumed(next: Response, from: number): void {
  if (next.meta.exit_code !== 14) return assert.equal(next.meta.exit_code, 0, JSON.stringify(next.error));
  assert.ok(incompleteOf(next).progress.done >= from, `resumed at ${incompleteOf(next).progress.done}, had ${from}`);
}

/** The agent loop: run continue_command until the exit is not 14 (with a larger budget: the test is past its point). */
async function continueUntilDone(first: Response, env: Record<string, string>): Promise<Response> {
  let envelope = first;
  for (let responses = 1; envelope.meta.exit_code === 14; responses++) {
    assert.ok(responses < 200, 'the loop ends');
    envelope = envelopeOf(await runShell(incompleteOf(envelope).continue_command, { ...env, AGENT_CALL_BUDGET_MS: '10000' }, GUARD.killAfterMs));
  }
  return envelope;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const progressDone = (path: string) => readJson<{ progress?: { done: number } }>(path).progress?.done ?? 0;

/**
 * A paused first call, with the progress its job holds once the call's process ended: a call whose budget ran out
 * before its first safe point (a loaded machine's start-up) answers 0 and commits that first piece before it exits.
 */
function keptBy(env: Home, data: Incomplete): Incomplete {
  assert.equal(data.state, 'paused');
  const kept = progressDone(jobFile(env, data.job_id, 'status.json'));
  assert.ok(kept >= data.progress.done, `the job holds what its answer said (${kept}, answered ${data.progress.done})`);
  assert.ok(kept > 0, 'the first call committed its first piece, before or after it answered');
  return { ...data, progress: { done: kept } };
}

describe('a frozen supervisor', () => {
  test('SIGSTOP past the idle timeout: job wait answers 10 STALLED, the process is ended for good, the identical call resumes', async () => {
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '300', STINT_CHECKPOINT_INTERVAL_MS: '0' });
    const args = ['tick', '300', '--step-ms', '20'];
    const first = await runJson(args, { program: demo, env, ...GUARD });
    assert.equal(first.run.code, 14);
    const id = incompleteOf(first.envelope).job_id;
    const status = jobFile(env, id, 'status.json');
    await until('the supervisor runs the job', () => readFileSync(jobFile(env, id, 'log'), 'utf8').includes('runs job'));
    const before = progressDone(status);
    await until('the supervisor moves the job', () => progressDone(status) > before);
    const { pid, pidStart } = readJson<{ pid: number; pidStart: number }>(status);
    assert.equal(typeof pidStart, 'number', 'the status names the process with its start time');
    const supervisor = { pid, start: pidStart };
    leftovers.push(supervisor);
    process.kill(pid, 'SIGSTOP');

    const stalled = await runJson(['job', 'wait', id, '--budget', '0'], { program: demo, env, ...GUARD });
    assert.equal(stalled.run.code, 10, stalled.run.stdout);
    assert.equal(stalled.envelope.error!.code, 'STALLED');
    assert.equal((stalled.envelope.data as { cause: string }).cause, 'no_progress');
    await until('the frozen supervisor is gone', () => !isAlive(supervisor));
    const frozenAt = progressDone(status);
    const again = await runJson(['job', 'status', id], { program: demo, env, ...GUARD });
    assert.deepEqual(again.envelope, stalled.envelope, 'every later reader gets the same answer');

    const resumed = await runJson(args, { program: demo, env, ...GUARD });
    assert.notEqual(incompleteOf(resumed.envelope).job_id, id, 'a new job');
    assert.ok(incompleteOf(resumed.envelope).progress.done >= frozenAt, 'resumed from the checkpoint, not restarted');
    const final = await continueUntilDone(resumed.envelope, env);
    assert.deepEqual(final.data, { steps: 300, sum: 45150 });
  });
});

describe('a pid that names another process now', () => {
  /** A paused writer: resume only, so it waits at its checkpoint with no process. */
  async function pausedWriter(env: Home): Promise<Incomplete> {
    const first = await runJson(['write', 'x', '80', '--step-ms', '20'], { program: demo, env, ...GUARD });
    assert.equal(first.run.code, 14);
    return keptBy(env, incompleteOf(first.envelope));
  }

  test('a running status naming a live unrelated process: JOB_LOST, the process untouched, the identical call resumes', async () => {
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '400' });
    const paused = await pausedWriter(env);
    const impostor = unrelatedProcess();
    const status = jobFile(env, paused.job_id, 'status.json');
    const now = Date.now();
    // The job's process died and the system gave its pid to another: same pid, another start time.
    const reused = { state: 'running', pid: impostor.pid, pidStart: impostor.start! - 1, updatedAt: now, progressAt: now };
    writeFileSync(status, JSON.stringify({ ...readJson<object>(status), ...reused }));
    const lost = await runJson(['job', 'wait', paused.job_id, '--budget', '0'], { program: demo, env, ...GUARD });
    assert.equal(lost.run.code, 1);
    assert.equal(lost.envelope.error!.code, 'JOB_LOST');
    assert.ok(isAlive(impostor), 'an unrelated process is never killed');
    const resumed = envelopeOf(await runShell(paused.continue_command, env));
    assertResumed(resumed, paused.progress.done);
    const final = await continueUntilDone(resumed, env);
    assert.equal((final.data as { sum: number }).sum, 3240);
  });

  test('a lease naming a live unrelated process is stale: the identical call takes the paused job over', async () => {
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '400' });
    const paused = await pausedWriter(env);
    const impostor = unrelatedProcess();
    writeFileSync(jobFile(env, paused.job_id, 'lease'), JSON.stringify({ pid: impostor.pid, start: impostor.start! - 1 }));
    const next = envelopeOf(await runShell(paused.continue_command, env));
    assert.equal(next.meta.exit_code, 14, LEFT_OVER_BUDGET);
    assert.equal(incompleteOf(next).job_id, paused.job_id, 'the same job, taken over');
    assertResumed(next, paused.progress.done);
    // A call whose budget ran out before its first safe point answers the checkpoint it started from and commits
    // that first piece after answering (a loaded machine's start-up can take the whole budget): the job moves
    // either way, so the fact waited on is the job's own progress, which only grows past a durable commit.
    const status = jobFile(env, paused.job_id, 'status.json');
    await until('it moved: the lease did not hold it paused', () => progressDone(status) > paused.progress.done);
    const final = await continueUntilDone(next, env);
    assert.equal((final.data as { sum: number }).sum, 3240);
    assert.ok(isAlive(impostor));
  });

  test('a pid-only running status (older versions) of a silent live process: STALLED, the unconfirmed process untouched', async () => {
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '400' });
    const paused = await pausedWriter(env);
    const impostor = unrelatedProcess();
    const status = jobFile(env, paused.job_id, 'status.json');
    const silentSince = Date.now() - 10 * 60_000; // past the writer's 300 s idle timeout
    const pidOnly = { state: 'running', pid: impostor.pid, updatedAt: silentSince, progressAt: silentSince };
    writeFileSync(status, JSON.stringify({ ...readJson<object>(status), ...pidOnly }));
    const stalled = await runJson(['job', 'wait', paused.job_id, '--budget', '0'], { program: demo, env, ...GUARD });
    assert.equal(stalled.run.code, 10);
    assert.equal(stalled.envelope.error!.code, 'STALLED');
    assert.ok(isAlive(impostor), 'a pid alone cannot confirm the process: it is not killed');
    const resumed = envelopeOf(await runShell(paused.continue_command, env));
    assertResumed(resumed, paused.progress.done);
    const final = await continueUntilDone(resumed, env);
    assert.equal((final.data as { sum: number }).sum, 3240);
  });
});

describe('damaged or missing job files', () => {
  async function pausedWriter(env: Home): Promise<Incomplete> {
    const first = await runJson(['write', 'y', '80', '--step-ms', '20'], { program: demo, env, ...GUARD });
    assert.equal(first.run.code, 14);
    return keptBy(env, incompleteOf(first.envelope));
  }

  test('a job folder deleted while its key still names it: job wait says JOB_NOT_FOUND; the identical call starts again', async () => {
    const env = freshHome({ AGENT_CALL_BUDGET_MS: '400' });
    const paused = await pausedWriter(env);
    rmSync(`${env.STINT_HOME}/jobs/${paused.job_id}`, { recursive: true });
    const gone = await runJson(['job', 'wait', paused.job_id], { program: demo, env, ...GUARD });
    assert.equal(gone.run.code, 5);
    assert.equal(gone.envelope.error!.code, 'JOB_NOT_FOUND');
    const next = envelopeOf(await runShell(paused.continue_command, env));
    assert.equal(next.meta.exit_code, 14, LEFT_OVER_BUDGET);
    assert.notEqual(incompleteOf(next).job_id, paused.job_id, 'a new job');
    const final = await continueUntilDone(next, env);
    assert.equal((final.data as { sum: number }).sum, 3240);
  });

  for (const file of ['status.json', 'job.json']) {
    test(`a truncated ${file}: job status says JOB_LOST (1); the identical call resumes from the checkpoint`, async () => {
      const env = freshHome({ AGENT_CALL_BUDGET_MS: '400' });
      const paused = await pausedWriter(env);
      const path = jobFile(env, paused.job_id, file);
      writeFileSync(path, readFileSync(path, 'utf8').slice(0, 20));
      const status = await runJson(['job', 'status', paused.job_id], { program: demo, env, ...GUARD });
      assert.equal(status.run.code, 1, status.run.stdout);
      assert.equal(status.envelope.error!.code, 'JOB_LOST');
      const next = envelopeOf(await runShell(paused.continue_command, env));
      assert.equal(next.meta.exit_code, 14, LEFT_OVER_BUDGET);
      assert.notEqual(incompleteOf(next).job_id, paused.job_id, 'a new job');
      assertResumed(next, paused.progress.done);
      const final = await continueUntilDone(next, env);
      assert.equal((final.data as { sum: number }).sum, 3240);
    });
  }
});
