// The job lifecycle (docs/lifecycle.md, "Events"), in this process on a fake
// clock: every stop source, what each one answers, and what it keeps. What
// only a real process can show (signals from the OS, the detached
// supervisor, kill -9) stays in test/cli/jobs.test.ts and liveness.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { ErrorCode } from '../../../src/contract/error-code.js';
import { ExitCode, SignalExitCode } from '../../../src/contract/exit-code.js';
import { Coverage } from '../../../src/contract/vocabulary/coverage.js';
import { JobState } from '../../../src/contract/vocabulary/job-state.js';
import { CAUSE_OF_STOP, StopReason } from '../../../src/contract/vocabulary/stop-reason.js';
import { DEFAULT_MAX_LIFETIME_MS } from '../../../src/runtime/authoring/budget.js';
import { buildEnvelope } from '../../../src/contract/envelope.js';
import { endJob } from '../../../src/runtime/jobs/job-end.js';
import { cancelAbandonedJob, markLost } from '../../../src/runtime/jobs/job-outcomes.js';
import { identityOf } from '../../../src/runtime/jobs/process-identity.js';
import { CheckpointFate } from '../../../src/runtime/jobs/stop-table.js';
import { JobStore } from '../../../src/runtime/jobs/job-store.js';
import { drive, FakeClock, fakeHost, type FakeHost } from '../../helpers/fake-host.js';
import { tempWorld } from '../../helpers/temp-world.js';
import { call, countTool, NAME, newestJob, STEP_MS, type Called, type CountTool } from './lifecycle-program.js';

const world = tempWorld('lifecycle');
const STEPS = 30;
const SUM = (STEPS * (STEPS + 1)) / 2;

/** A fresh state folder, clock and program for one test. */
interface World {
  readonly home: string;
  readonly clock: FakeClock;
  readonly tool: CountTool;
  run(argv: string[], before?: (host: FakeHost) => void): Promise<Called>;
}

function setUp(name: string): World {
  const home = world.path(name);
  mkdirSync(home, { recursive: true });
  const clock = new FakeClock();
  const tool = countTool(clock);
  return { home, clock, tool, run: (argv, before) => call(tool, clock, home, argv, before) };
}

/** Units of work the answer's partial outcome established: the handler's own (1 here) or the fallback's (0). */
const establishedOf = (called: Called): number => (called.envelope.data?.['established'] as unknown[]).length;

/** The progress an answer reports (data.progress of a 14, or the stopped job's). */
const doneOf = (called: Called): number => (called.envelope.data?.['progress'] as { done: number }).done;

test('budget: 14 paused, continue_command is the call itself; the identical call resumes to one result', async () => {
  const { home, tool, run } = setUp('budget');
  const argv = ['count', String(STEPS), '--budget', '1s'];
  const first = await run(argv);
  assert.equal(first.code, ExitCode.INCOMPLETE);
  assert.equal(first.envelope.data?.['state'], JobState.Paused);
  assert.equal(first.envelope.data?.['continue_command'], [NAME, ...argv].join(' '));
  const stoppedAt = doneOf(first);
  assert.ok(stoppedAt > 0 && stoppedAt < STEPS, `stopped part way (${stoppedAt})`);
  assert.equal(newestJob(home).status.state, JobState.Paused);
  assert.ok(newestJob(home).checkpoint, 'the checkpoint is kept');

  let last = first;
  for (let calls = 1; last.code === ExitCode.INCOMPLETE; calls++) {
    assert.ok(calls < STEPS, 'each continuation moves on');
    last = await run(argv);
  }
  assert.equal(last.code, ExitCode.SUCCESS);
  assert.deepEqual(last.envelope.data, { steps: STEPS, sum: SUM });
  assert.equal(tool.stepsRun(), STEPS, 'no step ran twice: every continuation resumed from the checkpoint');
  assert.equal(newestJob(home).status.state, JobState.Done);
  assert.ok(!newestJob(home).checkpoint, 'the work ended: its checkpoint is removed');
});

test('a supervisor that takes a job over answers the work\'s duration, from the call that started it', async () => {
  const { home, clock, tool, run } = setUp('supervised-duration');
  const first = await run(['count', String(STEPS), '--budget', '1s']);
  assert.equal(first.code, ExitCode.INCOMPLETE);
  const { id } = newestJob(home);
  const host = fakeHost([], { COUNT_TOOL_HOME: home, STINT_CHECKPOINT_INTERVAL_MS: '0' }, home, clock);
  assert.equal(await drive(clock, tool.program.supervise(host, id)), ExitCode.SUCCESS);
  const { status } = newestJob(home);
  const answer = new JobStore(home).readResult(id)!;
  assert.deepEqual(answer.data, { steps: STEPS, sum: SUM });
  // Every step took STEP_MS on the one clock, the first call's and the supervisor's alike.
  assert.ok(answer.meta.duration_ms >= STEPS * STEP_MS, `${answer.meta.duration_ms} ms`);
  assert.equal(answer.meta.duration_ms, status.endedAt! - status.startedAt, 'from the first call to the end');
});

for (const step of [10 * 60_000, -10 * 60_000]) {
  const way = step > 0 ? 'ahead' : 'back';
  test(`the wall clock stepped ${way} 10 minutes mid-run: the idle watchdog does not fire, the job ends 0`, async () => {
    const { home, clock, run } = setUp(`wall-step-${step}`);
    const argv = ['steady', String(STEPS), '--budget', '0'];
    const ended = await run(argv, () => clock.setTimeout(() => void (clock.wallStep += step), 4.5 * STEP_MS));
    assert.equal(clock.wallStep, step, 'the step happened during the run');
    assert.equal(ended.code, ExitCode.SUCCESS, JSON.stringify(ended.envelope.error));
    assert.deepEqual(ended.envelope.data, { steps: STEPS, sum: SUM });
    assert.equal(newestJob(home).status.state, JobState.Done);
  });
}

test('SIGINT: 130 CANCELLED with the partial outcome, the job paused; the identical call continues it', async () => {
  const { home, clock, tool, run } = setUp('sigint');
  const argv = ['count', String(STEPS), '--budget', '0'];
  const interrupted = await run(argv, (host) => clock.setTimeout(() => host.signal('SIGINT'), 5.5 * STEP_MS));
  assert.equal(interrupted.code, SignalExitCode.SIGINT);
  assert.equal(interrupted.envelope.error?.code, ErrorCode.Cancelled);
  assert.equal(interrupted.envelope.data?.['partial'], true);
  assert.equal(interrupted.envelope.data?.['continue_command'], [NAME, ...argv].join(' '));
  assert.equal(establishedOf(interrupted), 1, 'the handler\'s own partial outcome');
  assert.equal(newestJob(home).status.state, JobState.Paused);

  const resumed = await run(argv);
  assert.equal(resumed.code, ExitCode.SUCCESS);
  assert.deepEqual(resumed.envelope.data, { steps: STEPS, sum: SUM });
  assert.equal(tool.stepsRun(), STEPS);
});

test('a second SIGINT before the safe point: 130 at once, the job paused with its last checkpoint', async () => {
  const { home, clock, run } = setUp('sigint-twice');
  const twice = await run(['stuck', String(STEPS), '--budget', '0'], (host) => {
    clock.setTimeout(() => host.signal('SIGINT'), 5 * STEP_MS);
    clock.setTimeout(() => host.signal('SIGINT'), 6 * STEP_MS);
  });
  assert.equal(twice.code, SignalExitCode.SIGINT);
  assert.equal(twice.envelope.data?.['partial'], true);
  assert.equal(establishedOf(twice), 0, 'the fallback outcome: the handler gave none');
  const job = newestJob(home);
  assert.equal(job.status.state, JobState.Paused);
  assert.ok(job.checkpoint);
});

test('SIGTERM to the caller: as the budget, 14 paused; the identical call resumes', async () => {
  const { home, clock, tool, run } = setUp('sigterm');
  const argv = ['count', String(STEPS), '--budget', '0'];
  const termed = await run(argv, (host) => clock.setTimeout(() => host.signal('SIGTERM'), 7.5 * STEP_MS));
  assert.equal(termed.code, ExitCode.INCOMPLETE);
  assert.equal(termed.envelope.data?.['state'], JobState.Paused);
  assert.equal(doneOf(termed), 8, 'it stopped at the safe point after the signal');
  assert.equal(newestJob(home).status.state, JobState.Paused);
  const resumed = await run(argv);
  assert.deepEqual(resumed.envelope.data, { steps: STEPS, sum: SUM });
  assert.equal(tool.stepsRun(), STEPS);
});

test('job cancel of a paused job: cancelled, its checkpoint discarded; the identical call starts over', async () => {
  const { home, tool, run } = setUp('cancel-paused');
  const argv = ['count', String(STEPS), '--budget', '1s'];
  const first = await run(argv);
  const id = String(first.envelope.data?.['job_id']);
  assert.ok(newestJob(home).checkpoint);
  const cancel = await run(['job', 'cancel', id, '--yes']);
  assert.equal(cancel.code, ExitCode.SUCCESS);
  assert.deepEqual(cancel.envelope.data, { job_id: id, state: JobState.Cancelled, cancelled: true, effect: 'cancelled' });
  assert.equal(newestJob(home).status.state, JobState.Cancelled);
  assert.ok(!newestJob(home).checkpoint, 'discarded');
  const before = tool.stepsRun();
  const again = await run(['count', String(STEPS), '--budget', '0']);
  assert.deepEqual(again.envelope.data, { steps: STEPS, sum: SUM });
  assert.equal(tool.stepsRun() - before, STEPS, 'started over');
});

/** A paused job of `count` made lost, as an observer finds one whose process died: its key and checkpoint stay. */
async function lostJob(w: World): Promise<string> {
  const first = await w.run(['count', String(STEPS), '--budget', '1s']);
  const id = String(first.envelope.data?.['job_id']);
  const store = new JobStore(w.home);
  markLost(store, store.readRecord(id)!, undefined, w.clock.now);
  assert.equal(newestJob(w.home).status.state, JobState.Lost);
  return id;
}

test('job cancel of a lost job the identical call has continued: the new job\'s checkpoint stays', async () => {
  const w = setUp('cancel-lost-continued');
  const lost = await lostJob(w);
  const continued = await w.run(['count', String(STEPS), '--budget', '1s']);
  assert.equal(continued.code, ExitCode.INCOMPLETE);
  assert.notEqual(continued.envelope.data?.['job_id'], lost, 'a new job continues the lost one');
  const cancel = await w.run(['job', 'cancel', lost, '--yes']);
  assert.equal(cancel.code, ExitCode.SUCCESS);
  assert.deepEqual(cancel.envelope.data, { job_id: lost, state: JobState.Lost, cancelled: false, effect: 'none' });
  assert.ok(newestJob(w.home).checkpoint, 'the new job\'s checkpoint is not the cancel\'s to discard');
  const end = await w.run(['count', String(STEPS), '--budget', '0']);
  assert.deepEqual(end.envelope.data, { steps: STEPS, sum: SUM });
  assert.equal(w.tool.stepsRun(), STEPS, 'no step ran twice');
});

test('job cancel of a lost job nobody continued: cancelled, its checkpoint discarded; the call starts over', async () => {
  const w = setUp('cancel-lost');
  const lost = await lostJob(w);
  const cancel = await w.run(['job', 'cancel', lost, '--yes']);
  assert.deepEqual(cancel.envelope.data, { job_id: lost, state: JobState.Cancelled, cancelled: true, effect: 'cancelled' });
  assert.ok(!newestJob(w.home).checkpoint, 'discarded');
  const before = w.tool.stepsRun();
  const again = await w.run(['count', String(STEPS), '--budget', '0']);
  assert.deepEqual(again.envelope.data, { steps: STEPS, sum: SUM });
  assert.equal(w.tool.stepsRun() - before, STEPS, 'started over');
});

test('the identical call holds a lost job\'s lease while it hands the key on: a cancel then leaves both alone',
  async () => {
    const w = setUp('cancel-during-handover');
    const lost = await lostJob(w);
    const store = new JobStore(w.home);
    const job = store.readRecord(lost)!;
    // The lease as the identical call holds it between reading the end and its new job's claim.
    assert.ok(store.takeLease(lost, process.pid));
    assert.equal(cancelAbandonedJob(store, job, w.clock.now, process.pid + 1), false);
    store.releaseLease(lost, process.pid);
    assert.equal(store.readStatus(lost)!.state, JobState.Lost);
    assert.ok(newestJob(w.home).checkpoint, 'kept for the call that continues it');
  });

test('job cancel of a paused job the identical call has just taken over: asked to stop, not ended under it', async () => {
  const { home, run } = setUp('cancel-taken-over');
  const argv = ['count', String(STEPS), '--budget', '1s'];
  const first = await run(argv);
  const id = String(first.envelope.data?.['job_id']);
  const store = new JobStore(home);
  // The identical call holds the lease and has not written its running status yet: the job still reads paused.
  assert.ok(store.takeLease(id, process.pid));
  const cancel = await run(['job', 'cancel', id, '--yes']);
  assert.equal(cancel.code, ExitCode.INCOMPLETE, 'the cancel waits for the safe point of the call running the job');
  assert.equal(newestJob(home).status.state, JobState.Paused, 'no end written under the running call');
  assert.ok(newestJob(home).checkpoint, 'its checkpoint is kept until the run stops');
  assert.ok(store.cancelRequested(id));
  store.releaseLease(id, process.pid);
  const taken = await run(argv);
  assert.equal(taken.code, ExitCode.GENERAL_ERROR);
  assert.equal(taken.envelope.error?.code, ErrorCode.Cancelled);
  const ended = newestJob(home);
  assert.equal(ended.id, id);
  assert.equal(ended.status.state, JobState.Cancelled);
  assert.ok(ended.status.progress!.done >= doneOf(first), 'the end records at least the progress shown before');
  assert.ok(!ended.checkpoint, 'discarded');
});

test('job cancel of a running job that ends on its own before its next safe point: its end, not cancelled; the'
  + ' answer its caller has not seen stays for the identical call', async () => {
    const w = setUp('cancel-ended-alone');
    const first = await w.run(['count', String(STEPS), '--budget', '1s']);
    const id = String(first.envelope.data?.['job_id']);
    const store = new JobStore(w.home);
    const job = store.readRecord(id)!;
    // The identical call runs it now (its lease and running status), is answered 14, and its work finishes without
    // looking for a cancel: the end is unseen, so the next identical call is to get it.
    assert.ok(store.takeLease(id, process.pid));
    const { pid, start: pidStart } = identityOf(process.pid);
    const at = w.clock.now;
    store.writeStatus(id, { state: JobState.Running, pid, pidStart, startedAt: at, updatedAt: at, progressAt: at });
    const answer = buildEnvelope({ exitCode: ExitCode.SUCCESS, data: { steps: STEPS, sum: SUM }, durationMs: 0 });
    const finish = setInterval(() => {
      if (!store.cancelRequested(id)) return;
      clearInterval(finish);
      const holder = { kind: 'self', pid } as const;
      const ending = { state: JobState.Done, now: at, from: undefined, answer, checkpoint: CheckpointFate.Discard };
      endJob(store, job, { ...ending, holder, unseen: true });
    }, 10);
    const cancel = await w.run(['job', 'cancel', id, '--yes']);
    clearInterval(finish);
    assert.equal(cancel.code, ExitCode.SUCCESS);
    assert.deepEqual(cancel.envelope.data, { job_id: id, state: JobState.Done, cancelled: false, effect: 'none' });
    const before = w.tool.stepsRun();
    const again = await w.run(['count', String(STEPS), '--budget', '0']);
    assert.deepEqual(again.envelope.data, { steps: STEPS, sum: SUM });
    assert.equal(w.tool.stepsRun(), before, 'the finished work\'s answer, not a new run');
  });

/** A stop that ends the job: what it answers and what it keeps, whether the handler reaches a safe point or not. */
interface Ending {
  readonly stop: string;
  /** The command that reaches safe points; `stuck` never reaches one after step 3 (the stop is forced). */
  readonly command: string;
  readonly flags: readonly string[];
  readonly arm?: (scene: World, host: FakeHost) => void;
  readonly reason: StopReason;
  readonly code: number;
  readonly error: string;
  readonly state: JobState;
  readonly checkpoint: boolean;
  /** meta.timeout_ms: --timeout, else the command's max lifetime. */
  readonly timeoutMs: number;
}

// What `job cancel` asks of a running job (it then waits on it, as test/cli/jobs.test.ts shows).
const cancelAt = (ms: number) => ({ home, clock }: World) => {
  clock.setTimeout(() => new JobStore(home).requestCancel(newestJob(home).id, clock.now), ms);
};

const ENDINGS: readonly Ending[] = [
  {
    stop: 'job cancel of a running job', command: 'count', flags: [], arm: cancelAt(4.5 * STEP_MS),
    reason: StopReason.Cancel, code: ExitCode.GENERAL_ERROR, error: ErrorCode.Cancelled,
    state: JobState.Cancelled, checkpoint: false, timeoutMs: DEFAULT_MAX_LIFETIME_MS,
  },
  {
    stop: '--timeout', command: 'count', flags: ['--timeout', '1s'],
    reason: StopReason.Timeout, code: ExitCode.TIMEOUT, error: ErrorCode.Timeout,
    state: JobState.TimedOut, checkpoint: false, timeoutMs: 1_000,
  },
  {
    stop: 'no progress for idle_timeout_ms', command: 'flat', flags: [],
    reason: StopReason.Stalled, code: ExitCode.TIMEOUT, error: ErrorCode.Stalled,
    state: JobState.Stalled, checkpoint: true, timeoutMs: DEFAULT_MAX_LIFETIME_MS,
  },
];

for (const ending of ENDINGS) {
  for (const forced of [false, true]) {
    const how = forced ? 'a stuck handler (forced)' : 'at a safe point';
    const kept = ending.checkpoint ? 'kept' : 'discarded';
    test(`${ending.stop}, ${how}: ${ending.error} (${ending.code}), ${ending.state}, checkpoint ${kept}`, async () => {
      const scene = setUp(`${ending.command}-${ending.state}-${forced}`);
      const argv = [forced ? 'stuck' : ending.command, String(STEPS), '--budget', '0', ...ending.flags];
      const ended = await scene.run(argv, (host) => ending.arm?.(scene, host));
      assert.equal(ended.code, ending.code);
      assert.equal(ended.envelope.error?.code, ending.error);
      const outcome = forced ? 'the fallback outcome' : 'the handler\'s own outcome';
      assert.equal(establishedOf(ended), forced ? 0 : 1, outcome);
      assert.equal(ended.envelope.data?.['coverage'], forced ? Coverage.None : Coverage.Partial);
      assert.equal(ended.envelope.data?.['cause'], CAUSE_OF_STOP[ending.reason]);
      assert.equal(ended.envelope.meta.timeout_ms, ending.timeoutMs);
      const job = newestJob(scene.home);
      assert.equal(job.status.state, ending.state);
      assert.equal(job.checkpoint, ending.checkpoint);
    });
  }
}

test('a handler stuck past the budget: 14 paused within the budget, from its last checkpoint', async () => {
  const { home, run } = setUp('stuck-budget');
  const stuck = await run(['stuck', String(STEPS), '--budget', '1s']);
  assert.equal(stuck.code, ExitCode.INCOMPLETE);
  assert.equal(stuck.envelope.data?.['state'], JobState.Paused);
  assert.equal(doneOf(stuck), 3, 'the last step it checkpointed');
  assert.ok(stuck.envelope.meta.duration_ms < 1_000, 'answered before the budget ended (fake time)');
  const job = newestJob(home);
  assert.equal(job.status.state, JobState.Paused);
  assert.ok(job.checkpoint);
});

test('a new job over a kept checkpoint, forced before the checkpoint is open: it answers what the checkpoint holds', async () => {
  const { home, run } = setUp('kept-progress');
  const first = await run(['slow-start', String(STEPS), '--budget', '3s']);
  assert.equal(first.code, ExitCode.INCOMPLETE);
  const kept = doneOf(first);
  assert.ok(kept > 0, `the first call got somewhere (${kept})`);
  // Its record damaged: the identical call starts a new job, over the same checkpoint.
  const { id } = newestJob(home);
  writeFileSync(`${home}/jobs/${id}/status.json`, '{"state":"pa');
  const next = await run(['slow-start', String(STEPS), '--budget', '1s']);
  assert.equal(next.code, ExitCode.INCOMPLETE);
  assert.notEqual(next.envelope.data?.['job_id'], id, 'a new job');
  assert.equal(doneOf(next), kept, 'answered before it opened the checkpoint: the progress the checkpoint holds');
  assert.ok(newestJob(home).status.progress!.done >= kept, 'and so does its status');
});

test('SIGTERM to a handler stuck short of a safe point: 14 paused after a grace, from its checkpoint', async () => {
  const { home, clock, run } = setUp('stuck-sigterm');
  const termed = await run(['stuck', String(STEPS), '--budget', '0'], (host) => {
    clock.setTimeout(() => host.signal('SIGTERM'), 5 * STEP_MS);
  });
  assert.equal(termed.code, ExitCode.INCOMPLETE, 'SIGTERM is never a no-op');
  assert.equal(termed.envelope.data?.['state'], JobState.Paused);
  assert.equal(doneOf(termed), 3, 'the last step it checkpointed');
  assert.equal(newestJob(home).status.state, JobState.Paused);
});
