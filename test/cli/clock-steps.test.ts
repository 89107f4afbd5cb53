import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Envelope } from '../../src/contract/envelope.js';
import { isAlive, type ProcessIdentity } from '../../src/runtime/jobs/process-identity.js';
import { envelopeOf, runJson, runShell } from '../helpers/run-cli.js';
import { programPath } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';

// Wall clocks stepped by ten minutes on either side (Debian's `faketime`
// shifts one process's clock and its children's): an observer ahead or
// behind, a supervisor behind. Nothing healthy is ended; a frozen job is
// still found STALLED. Without faketime these tests skip, saying why.

const found = spawnSync('faketime', ['-f', '+0', 'true']);
const skip = found.status === 0 ? false : 'faketime is not installed (apt-get install -y faketime)';
if (skip) console.log(`# the clock-step tests skip: ${skip}`);

const world = tempWorld('clock-steps');
const demo = programPath('demo-jobs');
let homes = 0;
const freshHome = () => ({ STINT_HOME: world.path(`home-${++homes}`), STINT_TEST_MODE: '1' });
const GUARD = 90_000;
/** Long enough to outlive every look of a test (about 60 s at its pace); ended by the test or at its end. */
const LONG_TICK = ['tick', '3000', '--step-ms', '20'];

type Response = Envelope<Record<string, unknown>>;
const jobOf = (envelope: Response) => (envelope.data as { job_id: string }).job_id;
const statusPath = (env: { STINT_HOME: string }, id: string) => `${env.STINT_HOME}/jobs/${id}/status.json`;
type StatusFile = { pid: number; pidStart: number; progress?: { done: number } };
const readStatus = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as StatusFile;
const doneIn = (path: string) => readStatus(path).progress?.done ?? 0;
const demoRun = (args: string[], env: Record<string, string>) => runJson(args, { program: demo, env, killAfterMs: GUARD });

const started: ProcessIdentity[] = [];
after(() => {
  for (const identity of started) {
    if (!isAlive(identity)) continue;
    process.kill(identity.pid, 'SIGCONT');
    process.kill(identity.pid, 'SIGKILL');
  }
});

async function until(what: string, fact: () => boolean): Promise<void> {
  for (let waited = 0; !fact(); waited += 20) {
    assert.ok(waited < 30_000, `waited 30 s for: ${what}`);
    await sleep(20);
  }
}

const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

/** The demo program with its clock shifted by `offset` (faketime's syntax: +10m, -10m). */
async function shifted(offset: string, args: string[], env: Record<string, string>): Promise<Response> {
  const line = ['faketime', '-f', offset, process.execPath, demo, ...args].map(quote).join(' ');
  return envelopeOf(await runShell(line, env, GUARD));
}

/** A job run by its supervisor, progressing (the first call with its clock shifted, when `offset` is given). */
async function liveJob(env: { STINT_HOME: string } & Record<string, string>, offset?: string) {
  const args = [...LONG_TICK, '--budget', '300ms'];
  const first = offset ? await shifted(offset, args, env) : (await demoRun(args, env)).envelope;
  assert.equal(first.meta.exit_code, 14);
  const id = jobOf(first);
  const path = statusPath(env, id);
  const log = `${env.STINT_HOME}/jobs/${id}/log`;
  await until('the supervisor runs the job', () => readFileSync(log, 'utf8').includes('runs job'));
  const before = doneIn(path);
  await until('the supervisor moves the job', () => doneIn(path) > before);
  const { pid, pidStart } = readStatus(path);
  const supervisor = { pid, start: pidStart };
  started.push(supervisor);
  return { id, path, supervisor };
}

/** Progress still moves, so the job was not ended: the answer is 14 running. */
async function assertStillRunning(answer: Response, path: string, supervisor: ProcessIdentity, who: string) {
  assert.equal(answer.meta.exit_code, 14, `${who}: ${JSON.stringify(answer.error)}`);
  assert.equal((answer.data as { state: string }).state, 'running', who);
  const now = doneIn(path);
  await until(`the job goes on after ${who}`, () => doneIn(path) > now);
  assert.ok(isAlive(supervisor), `${who}: the supervisor is alive`);
}

const AHEAD_OR_BEHIND = 'job status, job list and job wait with their clock 10 minutes ahead or behind';
test(`${AHEAD_OR_BEHIND}: a live job answers 14 and goes on`, { skip }, async () => {
  const env = freshHome();
  const { id, path, supervisor } = await liveJob(env);
  for (const offset of ['+10m', '-10m']) {
    const status = await shifted(offset, ['job', 'status', id], env);
    await assertStillRunning(status, path, supervisor, `job status at ${offset}`);
    const waited = await shifted(offset, ['job', 'wait', id, '--budget', '1s'], env);
    await assertStillRunning(waited, path, supervisor, `job wait at ${offset}`);
    const listed = await shifted(offset, ['job', 'list'], env);
    assert.equal(listed.meta.exit_code, 0);
    const views = listed.data as unknown as { job_id: string; state: string }[];
    const states = views.map((job) => [job.job_id, job.state]);
    assert.deepEqual(states, [[id, 'running']], `job list at ${offset}`);
  }
  const cancelled = await demoRun(['job', 'cancel', id, '--yes', '--budget', '0'], env);
  assert.equal(cancelled.run.code, 0);
});

const BEHIND = 'a supervisor whose clock is 10 minutes behind';
test(`${BEHIND}: ordinary observers leave it running past its idle timeout`, { skip }, async () => {
  const env = freshHome();
  const { id, path, supervisor } = await liveJob(env, '-10m');
  const status = await demoRun(['job', 'status', id], env);
  await assertStillRunning(status.envelope, path, supervisor, 'job status');
  // Longer than the job's idle timeout (3 s) and the observers' margin: a judge of wall stamps would end it here.
  const waited = await demoRun(['job', 'wait', id, '--budget', '9s'], env);
  await assertStillRunning(waited.envelope, path, supervisor, 'job wait --budget 9s');
  const cancelled = await demoRun(['job', 'cancel', id, '--yes', '--budget', '0'], env);
  assert.equal(cancelled.run.code, 0);
});

const FROZEN = 'a frozen supervisor (SIGSTOP) is still found STALLED';
test(`${FROZEN} by an observer 10 minutes ahead, and ended for good`, { skip }, async () => {
  const env = freshHome();
  const { id, supervisor } = await liveJob(env);
  process.kill(supervisor.pid, 'SIGSTOP');
  const stalled = await shifted('+10m', ['job', 'wait', id, '--budget', '0'], env);
  assert.equal(stalled.meta.exit_code, 10, JSON.stringify(stalled.error));
  assert.equal(stalled.error!.code, 'STALLED');
  await until('the frozen supervisor is gone', () => !isAlive(supervisor));
  const again = await shifted('-10m', ['job', 'status', id], env);
  assert.deepEqual(again, stalled, 'every later reader, whatever its clock, gets the same answer');
});
