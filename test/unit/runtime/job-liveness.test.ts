import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JobState } from '../../../src/contract/vocabulary/job-state.js';
import { judgeJob, Observation, STALL_MARGIN_MS, STATUS_GRACE_MS, Verdict, type Look } from '../../../src/runtime/jobs/job-liveness.js';
import type { JobRecord, JobStatus } from '../../../src/runtime/jobs/job-record.js';
import { JobStore } from '../../../src/runtime/jobs/job-store.js';
import { waitOnJob } from '../../../src/runtime/jobs/job-wait.js';
import type { ProcessIdentity } from '../../../src/runtime/jobs/process-identity.js';
import { tempWorld } from '../../helpers/temp-world.js';

const world = tempWorld('job-liveness');
const IDLE = 60_000;
const T0 = 1_000_000;
const WORKER: ProcessIdentity = { pid: 4242, start: 777 };

function record(id: string): JobRecord {
  return {
    id, key: `key-${id}`, program: 'demo', command: ['count'], argv: ['count', '9'], cwd: '/', programWords: ['demo'],
    detach: true, resume: true, writes: false, idleTimeoutMs: IDLE, timeoutMs: 0, createdAt: T0,
    born: { ms: T0, boot: BOOT },
  };
}

/** The boot clock every process of this fake machine shares. */
const BOOT = 'boot-1';
const beat = (at: number, progressAt = T0) => ({ heartbeat: { boot: BOOT, at, progressAt } });
const running = (over: Partial<JobStatus> = {}): JobStatus => ({
  state: JobState.Running, pid: WORKER.pid, pidStart: WORKER.start,
  startedAt: T0, updatedAt: T0, progressAt: T0, progress: { done: 5, total: 9 }, ...beat(T0), ...over,
});
/** An observer looking once at boot-clock time `ms` (its wall clock says the same unless told). */
const lookAt = (ms: number, now = ms): Look => ({ now, reading: { ms, boot: BOOT } });
/** Only WORKER lives, and only under its own start time. */
const onlyWorker = (identity: ProcessIdentity) => identity.pid === WORKER.pid && (identity.start === undefined || identity.start === WORKER.start);
const nobody = () => false;

test('the judge: a status names a job starting, ended, paused, running, stalled or lost (fake clock)', () => {
  const job = record('count-00000001');
  const judge = (status: JobStatus | undefined, now: number, alive = onlyWorker) => judgeJob(job, status, lookAt(now), alive);
  assert.equal(judge(undefined, T0 + STATUS_GRACE_MS), Verdict.Starting, 'no status yet, just created');
  assert.equal(judge(undefined, T0 + STATUS_GRACE_MS + 1), Verdict.Lost, 'no readable status long after creation');
  assert.equal(judge(running({ state: JobState.Done }), T0 + 10 * IDLE), Verdict.Ended);
  assert.equal(judge(running({ state: JobState.Paused, pid: undefined }), T0 + 10 * IDLE), Verdict.Paused);
  assert.equal(judge(running(), T0 + 1), Verdict.Running);
  assert.equal(judge(running(), T0 + 1, nobody), Verdict.Lost, 'its process is gone');
  assert.equal(judge(running({ pidStart: 778 }), T0 + 1), Verdict.Lost, 'its pid now names another process');
  assert.equal(judge(running({ pid: undefined }), T0 + 1), Verdict.Lost, 'running, naming no process');
  assert.equal(judge(running({ pidStart: undefined }), T0 + 1), Verdict.Running, 'pid only (an older status): alive when the pid is');
});

test('the judge: stalled only when progress is flat past the idle timeout plus a margin and the process fell silent', () => {
  const job = record('count-00000002');
  const late = T0 + IDLE + STALL_MARGIN_MS + 1;
  const judge = (status: JobStatus, at: number) => judgeJob(job, status, lookAt(at), onlyWorker);
  assert.equal(judge(running(), T0 + IDLE + STALL_MARGIN_MS), Verdict.Running, 'its own watchdog has the first chance');
  assert.equal(judge(running(), late), Verdict.Stalled, 'frozen: flat and silent');
  assert.equal(judge(running(beat(late - 10)), late), Verdict.Running, 'flat but writing: its own watchdog is ending it');
  const backstop = T0 + 2 * IDLE + STALL_MARGIN_MS + 1;
  assert.equal(judge(running(beat(backstop - 10)), backstop), Verdict.Stalled, 'flat twice as long: its watchdog failed');
  assert.equal(judge(running(beat(late - 10, late - 10)), late), Verdict.Running, 'progress moved lately');
});

/** A store with one job in it; the clock and the process table are the test's. */
function world1(name: string, status: JobStatus): { store: JobStore; job: JobRecord } {
  const store = new JobStore(world.path(name));
  const job = record(`count-${name}`);
  store.create(job, status);
  assert.deepEqual(store.claimKey(job.key, job.id), { kind: 'claimed' });
  return { store, job };
}

/** job wait on the test's clock: each look reads `now()`, and its boot clock reads the same. */
const waitFor = (store: JobStore, id: string, now: () => number, kill: (identity: ProcessIdentity) => void = () => assert.fail('nothing to kill')) => {
  let last = now();
  const wall = () => (last = now());
  const monotonic = () => ({ ms: last, boot: BOOT });
  return waitOnJob({ store, now: wall, monotonic, id, started: last, until: undefined, budgetMs: undefined, retryableOf: () => true, alive: onlyWorker, kill });
};

test('job wait without a budget ends on a frozen job: STALLED (10), its process killed, its key kept for the next call', async () => {
  const { store, job } = world1('0000000a', running());
  let clock = T0 + 1_000;
  const killed: ProcessIdentity[] = [];
  const waiting = waitFor(store, job.id, () => (clock += 5_000), (identity) => void killed.push(identity));
  const envelope = await waiting;
  assert.equal(envelope.meta.exit_code, 10);
  assert.equal(envelope.error!.code, 'STALLED');
  assert.equal((envelope.data as { cause: string }).cause, 'no_progress');
  assert.ok(clock > T0 + IDLE + STALL_MARGIN_MS, 'not before the idle timeout plus the margin');
  assert.deepEqual(killed, [WORKER], 'the frozen process is stopped for good');
  assert.equal(store.readStatus(job.id)!.state, JobState.Stalled);
  assert.equal(store.readStatus(job.id)!.pid, undefined);
  assert.deepEqual(store.readResult(job.id), envelope, 'every later reader gets the same answer');
  // The identical call finds the stalled job by its key, takes the progress it kept and only then frees the key
  // for the new job that resumes (job-acquire.ts): a new job made without it would answer less than was kept.
  const next = store.claimKey(job.key, 'count-0000000b');
  assert.deepEqual(next, { kind: 'held', id: job.id }, 'the identical call finds the stalled job and what it kept');
});

test('job wait on a job whose pid another process holds now: JOB_LOST (1) at once, nothing killed', async () => {
  const { store, job } = world1('0000000c', running({ pidStart: 1 }));
  const envelope = await waitFor(store, job.id, () => T0 + 1);
  assert.equal(envelope.meta.exit_code, 1);
  assert.equal(envelope.error!.code, 'JOB_LOST');
  assert.equal(store.readStatus(job.id)!.state, JobState.Lost);
});

test('damaged or missing job files answer a coded outcome, never a throw or a hang', async () => {
  const now = () => T0 + 10 * STATUS_GRACE_MS;
  const torn = world1('0000000d', running());
  writeFileSync(join(torn.store.dir(torn.job.id), 'status.json'), '{"state":"runn');
  assert.equal(torn.store.readStatus(torn.job.id), undefined);
  const lost = await waitFor(torn.store, torn.job.id, now);
  assert.equal(lost.error!.code, 'JOB_LOST', 'a damaged status long after creation: lost');

  const odd = world1('0000000e', running());
  writeFileSync(join(odd.store.dir(odd.job.id), 'status.json'), '{"state":"flying","startedAt":1,"updatedAt":1,"progressAt":1}');
  assert.equal((await waitFor(odd.store, odd.job.id, now)).error!.code, 'JOB_LOST', 'an unknown state is damage too');

  const record_ = world1('0000000f', running());
  writeFileSync(join(record_.store.dir(record_.job.id), 'job.json'), '[1,2');
  const unreadable = await waitFor(record_.store, record_.job.id, now);
  assert.equal(unreadable.meta.exit_code, 1);
  assert.equal(unreadable.error!.code, 'JOB_LOST');
  assert.match(unreadable.error!.message, /job\.json/);

  const gone = world1('00000010', running());
  rmSync(gone.store.dir(gone.job.id), { recursive: true });
  const missing = await waitFor(gone.store, gone.job.id, now);
  assert.equal(missing.meta.exit_code, 5);
  assert.equal(missing.error!.code, 'JOB_NOT_FOUND');
});

const TEN_MINUTES = 10 * 60_000;
const CLOCK_STEPS = 'clock steps of ten minutes either way end nothing healthy';

test(`${CLOCK_STEPS}: the judge reads the boot clock, not wall stamps`, () => {
  const job = record('count-00000011');
  const judge = (status: JobStatus, look: Look) => judgeJob(job, status, look, onlyWorker);
  const fresh = running(beat(T0 + 500, T0 + 400));
  const at = T0 + 900;
  assert.equal(judge(fresh, lookAt(at, at + TEN_MINUTES)), Verdict.Running, "the observer's clock 10 min ahead");
  assert.equal(judge(fresh, lookAt(at, at - TEN_MINUTES)), Verdict.Running, "the observer's clock 10 min behind");
  for (const step of [-TEN_MINUTES, TEN_MINUTES]) {
    const stamped = running({ ...beat(T0 + 500, T0 + 400), updatedAt: T0 + step, progressAt: T0 + step });
    assert.equal(judge(stamped, lookAt(at)), Verdict.Running, `the job's own clock off by ${step} ms`);
  }
  const late = T0 + 500 + IDLE + STALL_MARGIN_MS + 1;
  for (const step of [-TEN_MINUTES, 0, TEN_MINUTES]) {
    const frozen = running({ ...beat(T0 + 500, T0 + 500), updatedAt: late + step });
    assert.equal(judge(frozen, lookAt(late, late - step)), Verdict.Stalled,
      `frozen is still stalled within the idle timeout, wall clocks stepped by ${step} ms`);
  }
  const young = { ...job, createdAt: T0 + TEN_MINUTES };
  assert.equal(judgeJob(young, undefined, lookAt(T0 + 1), onlyWorker), Verdict.Starting,
    'its creator wrote it a moment ago, whatever its clock said');
  assert.equal(judgeJob(young, undefined, lookAt(T0 + STATUS_GRACE_MS + 1), onlyWorker), Verdict.Lost);
});

test('no shared boot clock (another system, another boot): a look at once never finds a stall; a watch does', () => {
  const job = record('count-00000012');
  const judge = (status: JobStatus, look: Look) => judgeJob(job, status, look, onlyWorker);
  const { heartbeat: _, ...plain } = running();
  const elsewhere = (ms: number, observation?: Observation): Look =>
    ({ now: ms + TEN_MINUTES, reading: { ms }, ...(observation ? { observation } : {}) });
  assert.equal(judge(plain, elsewhere(T0 + 100 * IDLE)), Verdict.Running, 'one look has seen nothing stay still');
  const otherBoot = { now: T0, reading: { ms: T0 + 100 * IDLE, boot: 'another-boot' } };
  assert.equal(judge(running(), otherBoot), Verdict.Running, 'a heartbeat of another boot is not compared');
  const watching = new Observation();
  const start = 5_000;
  const limit = start + IDLE + STALL_MARGIN_MS;
  assert.equal(judge(plain, elsewhere(start, watching)), Verdict.Running);
  assert.equal(judge(plain, elsewhere(limit, watching)), Verdict.Running, 'not before idle timeout + margin');
  assert.equal(judge(plain, elsewhere(limit + 1, watching)), Verdict.Stalled, 'unchanged while it watched');
  const moving = new Observation();
  for (let k = 0; k <= 2 * IDLE; k += 500) {
    const status = { ...plain, updatedAt: T0 + k, progress: { done: 5 + k, total: 1e9 } };
    assert.equal(judge(status, elsewhere(start + k, moving)), Verdict.Running, `progressing at ${k} ms`);
  }
});

test('a status without a heartbeat (an older version): its wall stamps count once the observer saw it silent', () => {
  const job = record('count-00000013');
  const judge = (status: JobStatus, look: Look) => judgeJob(job, status, look, onlyWorker);
  const { heartbeat: _, ...old } = running();
  const watching = new Observation();
  const wall = T0 + 10 * IDLE;
  const at = (ms: number): Look => ({ now: wall, reading: { ms }, observation: watching });
  assert.equal(judge(old, { now: wall, reading: { ms: 0 } }), Verdict.Running, 'one look: stamps alone end nothing');
  assert.equal(judge(old, at(0)), Verdict.Running);
  assert.equal(judge(old, at(STALL_MARGIN_MS)), Verdict.Running, 'not silent long enough while watched');
  assert.equal(judge(old, at(STALL_MARGIN_MS + 1)), Verdict.Stalled, 'silent while watched, long flat by its stamps');
});

test('a signal ends a wait, not the job: SIGINT answers 130 naming job wait, SIGTERM 14 running (fake clock)', async () => {
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 14]] as const) {
    const { store, job } = world1(`0000010${code === 14 ? 'e' : 'f'}`, running());
    let looks = 0;
    const monotonic = () => ({ ms: T0 + 1, boot: BOOT });
    const envelope = await waitOnJob({
      store, now: () => T0 + 1, monotonic, id: job.id, started: T0, until: undefined, budgetMs: undefined,
      retryableOf: () => true, alive: onlyWorker, sleep: async () => undefined,
      interrupted: () => (++looks > 3 ? signal : undefined),
    });
    assert.equal(envelope.meta.exit_code, code, signal);
    const data = envelope.data as { state: string; continue_command: string; progress: { done: number } };
    assert.equal(data.state, 'running');
    assert.equal(data.continue_command, `demo job wait ${job.id}`);
    assert.equal(data.progress.done, 5, 'the progress the job showed');
    assert.equal(store.readStatus(job.id)?.state, JobState.Running, 'the job goes on');
  }
});
