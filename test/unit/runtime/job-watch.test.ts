// `job watch` in this process on a fake clock: a job whose files the test writes at fake times, so what the
// stream says (items, rates, heartbeats, its end) is exact on any machine. Real processes and signals are in
// test/cli/job-watch.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { buildEnvelope } from '../../../src/contract/envelope.js';
import { ExitCode } from '../../../src/contract/exit-code.js';
import { DangerLevel } from '../../../src/contract/vocabulary/danger-level.js';
import { JobState } from '../../../src/contract/vocabulary/job-state.js';
import { SideEffects } from '../../../src/contract/vocabulary/side-effects.js';
import type { JobRecord, JobStatus } from '../../../src/runtime/jobs/job-record.js';
import { JobStore } from '../../../src/runtime/jobs/job-store.js';
import { createProgram } from '../../../src/program/program.js';
import { stateDirEnvOf } from '../../../src/runtime/storage/state-dir.js';
import { drive, FakeClock, fakeHost, type FakeHost } from '../../helpers/fake-host.js';
import { checkStream } from '../../helpers/stream-contract.js';
import { tempWorld } from '../../helpers/temp-world.js';

const world = tempWorld('watch-unit');
const NAME = 'watch-tool';
const ID = 'count-0badcafe';
const TOTAL = 10;

const program = createProgram({
  name: NAME,
  version: '1.0.0',
  description: 'a program whose jobs the test writes',
  commands: [{
    name: 'count',
    description: 'Never run here',
    dangerLevel: DangerLevel.Safe,
    exitCodes: { [ExitCode.SUCCESS]: { description: 'Done', retryable: false, sideEffects: SideEffects.Complete } },
    run: async () => ({ exitCode: ExitCode.SUCCESS }),
  }],
});

/** A job run by this (living) process, written at the fake clock's start, and a way to move it on. */
function runningJob(home: string, clock: FakeClock) {
  const store = new JobStore(home);
  const record: JobRecord = {
    id: ID, key: 'k', program: NAME, command: ['count'], argv: ['count'], cwd: home, programWords: ['count-tool'],
    detach: true, resume: true, writes: false, idleTimeoutMs: 300_000, timeoutMs: 0, createdAt: clock.now,
  };
  const at = clock.now;
  const status = (done: number, state: JobState = JobState.Running): JobStatus => ({
    state, pid: process.pid, progress: { done, total: TOTAL, unit: 'steps' },
    startedAt: at, updatedAt: clock.now, progressAt: clock.now,
  });
  store.create(record, status(0));
  return {
    store,
    /** At fake time `ms` from the start, the job reports `done`. */
    progressAt: (ms: number, done: number) => clock.setTimeout(() => store.writeStatus(ID, status(done)), ms),
    /** At fake time `ms`, the job ends with this data. */
    endAt: (ms: number, data: unknown) => clock.setTimeout(() => {
      const result = buildEnvelope({ exitCode: ExitCode.SUCCESS, durationMs: ms, data });
      store.claimEnd(ID, { status: { ...status(TOTAL, JobState.Done), endedAt: clock.now }, result });
    }, ms),
  };
}

async function watch(name: string, argv: string[], arm: (job: ReturnType<typeof runningJob>, host: FakeHost) => void) {
  const home = world.path(name);
  mkdirSync(home, { recursive: true });
  const clock = new FakeClock();
  const host = fakeHost(['job', 'watch', ID, ...argv], { [stateDirEnvOf(NAME)]: home }, home, clock);
  const job = runningJob(home, clock);
  arm(job, host);
  const code = await drive(clock, program.main(host));
  return { code, stream: checkStream(host.out.join(''), code), job };
}

test('an item each time progress moves, with elapsed, rate and ETA; heartbeats while it does not; then the summary', async () => {
  const { code, stream } = await watch('whole', [], (job) => {
    job.progressAt(1_000, 1);
    job.progressAt(2_000, 2);
    // 25 s without a change: heartbeats at the default 10 s.
    job.progressAt(27_000, 7);
    job.endAt(28_000, { sum: 55 });
  });
  assert.equal(code, ExitCode.SUCCESS);
  assert.deepEqual(stream.items.map((item) => (item['progress'] as { done: number }).done), [0, 1, 2, 7]);
  assert.deepEqual(stream.items[0], {
    _seq: 1, job_id: ID, state: JobState.Running, progress: { done: 0, total: TOTAL, unit: 'steps' }, elapsed_ms: 0,
  });
  const second = stream.items[1]!;
  assert.deepEqual([second['elapsed_ms'], second['rate_per_s'], second['eta_ms']], [1_000, 1, 9_000]);
  assert.deepEqual(stream.items[3]!['eta_ms'], Math.round((3 / (7 / 27)) * 1000));
  assert.deepEqual(stream.heartbeats.map((line) => line['elapsed_ms']), [12_000, 22_000]);
  assert.equal(stream.terminal['_count'], 4);
  assert.deepEqual(stream.terminal['data'], { sum: 55 });
});

test('--heartbeat-ms sets the quiet time before a heartbeat; 0 turns them off', async () => {
  const arm = (job: ReturnType<typeof runningJob>) => job.endAt(5_000, { sum: 55 });
  const often = await watch('often', ['--heartbeat-ms', '2000'], arm);
  assert.deepEqual(often.stream.heartbeats.map((line) => line['elapsed_ms']), [2_000, 4_000]);
  const never = await watch('never', ['--heartbeat-ms', '0'], arm);
  assert.equal(never.stream.heartbeats.length, 0);
  assert.equal(never.stream.items.length, 1);
});

test('SIGINT ends the watch with 130 CANCELLED (partial, items_emitted); the job is neither cancelled nor stopped', async () => {
  const { code, stream, job } = await watch('sigint', [], (run, host) => {
    run.progressAt(1_000, 1);
    run.progressAt(2_000, 2);
    run.endAt(60_000, { sum: 55 });
    host.clock.setTimeout(() => host.signal('SIGINT'), 1_500);
  });
  assert.equal(code, 130);
  assert.equal(stream.items.length, 2);
  type Cancelled = { error: { code: string }; data: { partial: boolean }; meta: Record<string, unknown> };
  const terminal = stream.terminal as Cancelled;
  assert.equal(terminal.error.code, 'CANCELLED');
  assert.equal(terminal.data.partial, true);
  assert.equal(terminal.meta['items_emitted'], 2);
  assert.equal(job.store.cancelRequested(ID), false, 'watching never asks the job to stop');
  assert.equal(job.store.readStatus(ID)!.state, JobState.Running);
  assert.equal(job.store.readResult(ID), undefined);
});

test('a job whose process is gone ends the stream with JOB_LOST, judged as job wait judges it', async () => {
  const { code, stream } = await watch('lost', [], (job, host) => {
    // After the first look, the process that ran it is gone (pid 0 names no process).
    host.clock.setTimeout(() => job.store.writeStatus(ID, { ...job.store.readStatus(ID)!, pid: 0 }), 1_000);
  });
  assert.equal(code, ExitCode.GENERAL_ERROR, JSON.stringify(stream.terminal));
  assert.equal(stream.items.length, 1);
  assert.equal((stream.terminal as { error: { code: string } }).error.code, 'JOB_LOST');
});
